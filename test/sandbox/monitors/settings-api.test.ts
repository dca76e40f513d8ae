import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere, refusal, uniqueUrl } from "./fixtures.ts";

/** api settings: contentType, valueSelector compilation, expectation rules, HEAD, assertMode. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

const api = (settings?: Record<string, unknown>) => ({
  type: "api",
  url: uniqueUrl(),
  locations: everywhere,
  settings,
});
const json = (extra: Record<string, unknown> = {}) => api({ contentType: "application/json", ...extra });

describe("contentType", () => {
  it("is required unless assertMode is on", async () => {
    for (const body of [api(), api({})]) {
      const res = await acct.post("/monitor", body);
      expect(refusal(res)).toEqual({
        status: 422,
        code: "invalid_settings",
        errors: [{ pointer: "/settings/contentType", reason: "required" }],
      });
    }
    const body = await create(acct, api({ assertMode: true, assertsSource: "status eq 200" }));
    expect(body.settings.assertMode).toBe(true);
    for (const member of ["contentType", "valueSelector", "expectation"])
      expect(body.settings).not.toHaveProperty(member);
  });

  it("takes the three documented types and refuses others", async () => {
    for (const contentType of ["application/json", "text/xml", "text/plain"]) {
      const selector = contentType === "text/plain" ? "(\\d+)" : "";
      expect((await create(acct, api({ contentType, valueSelector: selector }))).settings.contentType).toBe(
        contentType,
      );
    }
    const res = await acct.post("/monitor", api({ contentType: "application/xml" }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/settings/contentType",
          reason: "not_allowed",
          value: "application/xml",
          allowed: ["application/json", "text/xml", "text/plain"],
          didYouMean: "application/json",
        },
      ],
    });
  });

  it("with assertMode on, contentType, valueSelector and expectation are refused", async () => {
    const res = await acct.post(
      "/monitor",
      api({
        assertMode: true,
        contentType: "application/json",
        valueSelector: "$.a",
        expectation: { func: "eq", args: ["1"] },
      }),
    );
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [
        { pointer: "/settings/contentType", reason: "excluded_by_assert_mode", value: "application/json" },
        { pointer: "/settings/valueSelector", reason: "excluded_by_assert_mode", value: "$.a" },
        {
          pointer: "/settings/expectation",
          reason: "excluded_by_assert_mode",
          value: { func: "eq", args: ["1"] },
        },
      ],
    });
  });

  it("keywords, keywordMode and preset are not api members", async () => {
    const res = await acct.post("/monitor", json({ keywords: "ok", keywordMode: "PresentAny" }));
    const members = (r: typeof res) =>
      (refusal(r).errors as Array<Record<string, unknown>>).map((e) => [e.pointer, e.reason]);
    expect(members(res)).toEqual([
      ["/settings/keywords", "unknown_member"],
      ["/settings/keywordMode", "unknown_member"],
    ]);
    expect(members(await acct.post("/monitor", api({ preset: "bl:ru" })))).toEqual([
      ["/settings/preset", "unknown_member"],
    ]);
  });
});

describe("valueSelector", () => {
  it.each([
    ["application/json", "$.data.items[0].status"],
    ["application/json", "$['weird key'].value"],
    ["application/json", "data.items[0].status"],
    ["text/xml", "/status/code"],
    ["text/xml", "(//item)[1]/@id"],
    ["text/plain", "status: (\\w+)"],
    ["text/plain", "Uptime (?<days>\\d+) days"],
  ])("compiles a %s selector %s", async (contentType, valueSelector) => {
    const body = await create(acct, api({ contentType, valueSelector }));
    expect(body.settings.valueSelector).toBe(valueSelector);
  });

  it.each([
    ["application/json", "$.data[0"],
    ["application/json", "!!"],
    ["text/xml", "status/code"],
    ["text/xml", "/status[1"],
    ["text/plain", "status: (\\w+"],
    ["text/plain", "status: \\w+"],
  ])("refuses a %s selector that does not compile: %s", async (contentType, valueSelector) => {
    const res = await acct.post("/monitor", api({ contentType, valueSelector }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/valueSelector", reason: "does_not_compile", value: valueSelector }],
    });
  });

  it("empty means the whole body", async () => {
    expect((await create(acct, json({ valueSelector: "" }))).settings.valueSelector).toBe("");
  });
});

describe("expectation", () => {
  it.each([
    ["eq", ["ok"]],
    ["neq", ["down"]],
    ["in", ["ok", "degraded"]],
    ["out", ["error"]],
    ["ls", ["10"]],
    ["le", ["10.5"]],
    ["gt", ["-1"]],
    ["ge", ["0"]],
    ["inr", ["1", "10"]],
    ["outr", ["-5", "5"]],
    ["inr", ["3", "3"]],
    ["null", []],
    ["no", []],
  ])("accepts %s with %j", async (func, args) => {
    const body = await create(acct, json({ expectation: { func, args } }));
    expect(body.settings.expectation).toEqual({ func, args });
  });

  it.each([
    ["eq", []],
    ["neq", ["a", "b"]],
    ["gt", []],
    ["in", []],
    ["out", []],
    ["inr", ["1"]],
    ["outr", ["1", "2", "3"]],
    ["null", ["x"]],
    ["no", ["x"]],
  ])("refuses %s with %j: wrong argument count", async (func, args) => {
    const res = await acct.post("/monitor", json({ expectation: { func, args } }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/expectation/args", reason: "wrong_count", value: args }],
    });
  });

  it("takes no args as none", async () => {
    const res = await acct.post("/monitor", json({ expectation: { func: "eq" } }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/expectation/args", reason: "wrong_count", value: [] }],
    });
  });

  it("needs ascending bounds for inr and outr", async () => {
    const res = await acct.post("/monitor", json({ expectation: { func: "outr", args: ["10", "1"] } }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/expectation/args", reason: "not_ascending", value: ["10", "1"] }],
    });
  });

  it("compares numbers for ls, le, gt, ge, ranges and every change mode", async () => {
    for (const expectation of [
      { func: "gt", args: ["fast"] },
      { func: "inr", args: ["1", "ten"] },
      { func: "eq", args: ["ok"], change: 1 },
      { func: "in", args: [" "], change: 2 },
    ]) {
      const res = await acct.post("/monitor", json({ expectation }));
      expect(refusal(res)).toEqual({
        status: 422,
        code: "invalid_settings",
        errors: [{ pointer: "/settings/expectation/args", reason: "not_numeric", value: expectation.args }],
      });
    }
    const rate = await create(acct, json({ expectation: { func: "le", args: ["5"], change: 1, cpt: "m" } }));
    expect(rate.settings.expectation).toEqual({ func: "le", args: ["5"], change: 1, cpt: "m" });
  });

  it("refuses an unknown func, change or time unit", async () => {
    const res = await acct.post(
      "/monitor",
      json({ expectation: { func: "equals", args: ["1"], change: 3, cpt: "d" } }),
    );
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/settings/expectation/func",
          reason: "not_allowed",
          value: "equals",
          allowed: ["eq", "neq", "in", "out", "ls", "le", "gt", "ge", "inr", "outr", "null", "no"],
        },
        { pointer: "/settings/expectation/change", reason: "not_allowed", value: 3, allowed: [0, 1, 2] },
        {
          pointer: "/settings/expectation/cpt",
          reason: "not_allowed",
          value: "d",
          allowed: ["", "ms", "s", "m", "h"],
        },
      ],
    });
  });

  it("is limited to 1024 characters serialised", async () => {
    const args = Array.from({ length: 100 }, (_, i) => `value-${i}`);
    const res = await acct.post("/monitor", json({ expectation: { func: "in", args } }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/expectation", reason: "too_long" }],
    });
  });
});

describe("request method", () => {
  it("refuses HEAD, which returns no body to read, with or without assertMode", async () => {
    for (const settings of [{ contentType: "application/json" }, { assertMode: true }]) {
      const res = await acct.post("/monitor", api({ ...settings, method: "H" }));
      expect(refusal(res)).toEqual({
        status: 422,
        code: "invalid_settings",
        errors: [{ pointer: "/settings/method", reason: "no_body", allowed: ["G", "P", "U", "A"] }],
      });
    }
  });

  it("sends body and postParameters with POST, PUT and PATCH", async () => {
    const body = await create(acct, json({ method: "P", body: '{"ping":true}', postParameters: "a=1&b=2" }));
    expect(body.settings).toMatchObject({ method: "P", body: '{"ping":true}', postParameters: "a=1&b=2" });
  });
});

describe("plan", () => {
  it("shares the http plan features and the assertion cap", async () => {
    const rules = Array.from({ length: 11 }, (_, i) => `status neq ${500 + i}`).join("\n");
    const res = await acct.post("/monitor", api({ assertMode: true, assertsSource: rules }));
    expect(refusal(res)).toEqual({
      status: 403,
      code: "package_limit",
      feature: "assertions",
      limit: 10,
      errors: [{ pointer: "/settings/asserts" }],
    });
    const revocation = await acct.post("/monitor", json({ checkRevocation: true }));
    expect(refusal(revocation)).toMatchObject({
      status: 403,
      code: "package_limit",
      feature: "certRevocation",
    });
  });

  it("carries all four attached kinds", async () => {
    const body = await create(acct, {
      ...json(),
      attached: { dnsbl: true, sslExp: true, domainExp: true, webRisk: true },
    });
    expect(Object.values(body.settings.attached)).toEqual([
      { enabled: true },
      { enabled: true },
      { enabled: true },
      { enabled: true },
    ]);
  });
});
