import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Unknown paths, wrong methods, unparseable paths, and the request id every response carries. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("not_found", () => {
  it("answers 404 not_found as a problem document for an unknown path, with or without a token", async () => {
    for (const token of [undefined, null]) {
      const res = await sb.client.get("/no/such/route", { token });
      expect(res.status).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: "not_found", status: 404, instance: "/no/such/route" });
    }
  });

  it("paths are exact: no trailing slash, no case folding, no version prefix", async () => {
    for (const path of ["/account/", "/ACCOUNT", "/v2/account"]) {
      expect((await sb.client.get(path)).status, path).toBe(404);
    }
  });

  it("a path that is not validly %-encoded answers 400 malformed_request, not a bare framework error", async () => {
    const res = await sb.client.get("/problems/%E0%A4%A");
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.headers["x-request-id"]).toMatch(/^req_/);
    expect(res.body).toMatchObject({ code: "malformed_request", status: 400, title: expect.any(String) });
    expect(res.body.type).toBe(`${sb.url}/problems/malformed_request`);
  });

  it("an absurdly long id answers 404 like any missing id", async () => {
    const res = await sb.client.get(`/problems/${"x".repeat(500)}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect(res.headers["x-request-id"]).toMatch(/^req_/);
  });
});

describe("method_not_allowed", () => {
  it("answers 405 with an Allow header naming the methods the path takes", async () => {
    for (const method of ["POST", "PUT", "DELETE"]) {
      const res = await sb.client.call(method, "/account", { body: {} });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe("GET, PATCH");
      expect(res.body).toMatchObject({ code: "method_not_allowed", status: 405 });
    }
  });

  it("answers 405 before authentication: the method is wrong whoever asks", async () => {
    const res = await sb.client.call("DELETE", "/account", { token: null });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, PATCH");
  });

  it("answers OPTIONS with 405 too: the API offers no preflight", async () => {
    const res = await sb.client.call("OPTIONS", "/monitor");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, POST");
  });

  it("works for templated paths too", async () => {
    const res = await sb.client.call("DELETE", "/problems/not_found");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET");
  });
});

describe("x-request-id", () => {
  it("is on every response, fresh each time", async () => {
    const responses = [
      await sb.client.get("/account"),
      await sb.client.get("/account", { token: null }),
      await sb.client.get("/account", { token: "bad" }),
      await sb.client.get("/nowhere"),
      await sb.client.call("DELETE", "/account"),
      await sb.client.call("PATCH", "/account", {
        raw: "{",
        headers: { "content-type": "application/json" },
      }),
      await sb.client.call("PATCH", "/account", { raw: "x", headers: { "content-type": "text/plain" } }),
      await sb.client.patch("/account", { nmae: 1 }),
      await sb.client.get("/problems", { token: null }),
      await sb.admin.get("/_sandbox/stats"),
    ];
    const ids = responses.map((r) => r.headers["x-request-id"]);
    for (const [i, id] of ids.entries())
      expect(id, `response ${i} (${responses[i]!.status})`).toMatch(/^req_\w+/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
