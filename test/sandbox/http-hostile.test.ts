import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { httpMonitor } from "./monitors/fixtures.ts";

/** Hostile input found by fuzzing (issue 16, points 14 and 15): refused as a problem document, never a 5xx. */
let sb: TestSandbox;
let acct: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

const json = { "content-type": "application/json" };
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

function expectProblem(res: { status: number; headers: Record<string, string> }, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.headers["x-request-id"]).toMatch(/^req_/);
}

describe("names of Object.prototype are ordinary names", () => {
  it("a delete filter named constructor is an unknown parameter, with monitors to match against", async () => {
    expect((await acct.post("/monitor", httpMonitor())).status).toBe(201);
    for (const name of ["constructor", "toString", "hasOwnProperty", "valueOf"]) {
      const res = await acct.post("/monitor/bulk-delete-validate", { filter: { [name]: 1 } });
      expectProblem(res, 422);
      expect(res.body.code).toBe("unknown_parameter");
      expect(res.body.errors[0]).toMatchObject({ pointer: `/filter/${name}`, parameter: name });
    }
  });

  it("query names of Object.prototype answer unknown_parameter on lists", async () => {
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const res = await acct.get(`/monitor?${name}=1`);
      expectProblem(res, 422);
      expect(res.body.code).toBe("unknown_parameter");
      expect(res.body.errors[0]).toMatchObject({ pointer: `/${name}`, parameter: name });
    }
  });

  it("monitor types and presets named after Object.prototype members are unknown names", async () => {
    for (const name of ["constructor", "toString"]) {
      const type = await acct.get(`/monitor/type/${name}`);
      expectProblem(type, 404);
      expect(type.body.errors[0]).toMatchObject({ parameter: "type", value: name });
      const created = await acct.post("/monitor", { ...httpMonitor(), type: name });
      expectProblem(created, 422);
      expect(created.body.errors[0].pointer).toBe("/type");
      const preset = await acct.post("/monitor", { ...httpMonitor(), settings: { preset: name } });
      expectProblem(preset, 422);
      expect(preset.body.errors[0].pointer).toBe("/settings/preset");
    }
  });

  it("a query string beside a /q body is refused, not ignored", async () => {
    const res = await acct.call("POST", "/monitor/q?limit=1", { raw: "{}", headers: json });
    expectProblem(res, 422);
    expect(res.body.errors[0]).toMatchObject({ pointer: "/limit", parameter: "limit", allowed: [] });
  });

  it("the same names in a /q body", async () => {
    const res = await acct.call("POST", "/monitor/q", { raw: '{"constructor":"x"}', headers: json });
    expectProblem(res, 422);
    expect(res.body.code).toBe("unknown_parameter");
  });
});

describe("body depth is bounded before anything walks the body", () => {
  it("deep nesting on validate and write routes is a 422 at the first level too deep", async () => {
    for (const path of ["/monitor/bulk-validate", "/monitor", "/contact", "/webhook"]) {
      const res = await acct.call("POST", path, { raw: `{"items":${nested(50_000)}}`, headers: json });
      expectProblem(res, 422);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors[0]).toMatchObject({ reason: "too_deep", maximum: 32 });
      expect(res.body.errors[0].pointer).toBe(`/items${"/0".repeat(31)}`);
    }
  });

  it("the pointer names object members too, escaped", async () => {
    const raw = `{"a/b":${'{"x~":'.repeat(40)}1${"}".repeat(40)}}`;
    const res = await acct.call("POST", "/monitor", { raw, headers: json });
    expectProblem(res, 422);
    expect(res.body.errors[0].pointer).toBe(`/a~1b${"/x~0".repeat(31)}`);
  });

  it("a 1 MiB bracket bomb is refused quickly", async () => {
    const started = performance.now();
    const res = await acct.call("POST", "/monitor", { raw: nested(500_000), headers: json });
    expectProblem(res, 422);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("32 levels are accepted as a body (and judged on their members)", async () => {
    const res = await acct.call("POST", "/monitor", { raw: `{"tags":${nested(31)}}`, headers: json });
    expectProblem(res, 422);
    expect(res.body.errors[0].reason).not.toBe("too_deep");
  });
});

describe("numbers and bytes JSON cannot carry", () => {
  it("1e400 is refused as out of range, never echoed as null", async () => {
    const res = await acct.call("POST", "/monitor", { raw: '{"interval":1e400}', headers: json });
    expectProblem(res, 422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ pointer: "/interval", reason: "out_of_range", message: expect.any(String) }),
    ]);
    expect(res.text).not.toContain("null");
  });

  it("a body that is not UTF-8 is malformed", async () => {
    const res = await rawHttp(
      Buffer.concat([
        Buffer.from(`PATCH /account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${acct.token}\r\n`),
        Buffer.from("Content-Type: application/json\r\nContent-Length: 13\r\nConnection: close\r\n\r\n"),
        Buffer.from('{"name":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]),
    );
    expect(res).toMatch(/^HTTP\/1.1 400/);
    expect(res).toContain("x-request-id: req_");
    expect(res).toContain("not valid UTF-8");
    expect((await acct.get("/account")).body.name).not.toContain("\ufffd");
  });
});

describe("echoed values are bounded", () => {
  it("a 100 KB member value is echoed cut short", async () => {
    const res = await acct.post("/monitor", { ...httpMonitor(), name: "n".repeat(100_000) });
    expectProblem(res, 422);
    expect(res.text.length).toBeLessThan(10_000);
    const entry = res.body.errors.find((e: { pointer: string }) => e.pointer === "/name");
    expect(entry.value).toMatch(/^n{4096}…$/);
  });

  it("a refused deep value (within the depth bound) is echoed without its deepest members", async () => {
    const res = await acct.call("POST", "/monitor", { raw: `{"name":${nested(30)}}`, headers: json });
    expectProblem(res, 422);
    expect(res.body.errors[0].pointer).toBe("/name");
  });
});

/** Sends raw bytes and answers the raw response (for what no HTTP client would send). */
function rawHttp(bytes: Buffer | string): Promise<string> {
  const port = Number(new URL(sb.url).port);
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    let out = "";
    socket.on("data", (d) => {
      out += d;
    });
    socket.on("close", () => resolve(out));
    socket.on("error", () => resolve(out));
  });
}

describe("requests Node's HTTP parser refuses", () => {
  const cases: [string, string, RegExp][] = [
    [
      "a query string over 16 KiB",
      `GET /monitor?${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      /larger than 16 KiB/,
    ],
    ["a request line that is not HTTP", "GARBAGE\r\n\r\n", /not valid HTTP/],
    [
      "a header line without a colon",
      "GET /monitor HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
      /not valid HTTP/,
    ],
  ];
  for (const [name, request, detail] of cases) {
    it(`${name}: 400 malformed_request as a problem document with a request id`, async () => {
      const res = await rawHttp(request);
      const [head, body] = res.split("\r\n\r\n") as [string, string];
      expect(head).toMatch(/^HTTP\/1.1 400 /);
      expect(head).toMatch(/content-type: application\/problem\+json/i);
      expect(head).toMatch(/x-request-id: req_\w+/);
      const doc = JSON.parse(body);
      expect(doc).toMatchObject({ status: 400, code: "malformed_request" });
      expect(doc.detail).toMatch(detail);
    });
  }
});
