import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, httpMonitor, refusal } from "./fixtures.ts";

/** GET /monitor query vocabulary: limits, unknown names and values, empty values, windows. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
  await create(acct, httpMonitor());
});
afterAll(() => sb.close());

const allowedParameters = [
  "limit",
  "cursor",
  "sort",
  "expand",
  "fields",
  "updatedSince",
  "from",
  "to",
  "q",
  "type",
  "tag",
  "state",
  "enabled",
  "url",
];

describe("limit", () => {
  it.each(["0", "501", "-1"])("refuses limit=%s with invalid_limit, out of range", async (limit) => {
    const res = await acct.get(`/monitor?limit=${limit}`);
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_limit",
      errors: [
        {
          pointer: "/limit",
          parameter: "limit",
          value: limit,
          reason: "out_of_range",
          minimum: 1,
          maximum: 500,
        },
      ],
    });
  });

  it.each(["abc", "1.5"])("refuses limit=%s with invalid_limit, not an integer", async (limit) => {
    const res = await acct.get(`/monitor?limit=${limit}`);
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_limit",
      errors: [
        {
          pointer: "/limit",
          parameter: "limit",
          value: limit,
          reason: "wrong_type",
          expected: "integer",
          minimum: 1,
          maximum: 500,
        },
      ],
    });
  });

  it("takes one value only", async () => {
    const res = await acct.get("/monitor?limit=1&limit=2");
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/limit", parameter: "limit", reason: "repeated" }],
    });
  });
});

describe("closed vocabulary", () => {
  it("refuses an unknown parameter, listing the accepted ones", async () => {
    const res = await acct.get("/monitor?order=desc");
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_parameter",
      errors: [{ pointer: "/order", parameter: "order", allowed: allowedParameters }],
    });
  });

  it("names are case-sensitive, with a suggestion", async () => {
    const res = await acct.get("/monitor?Limit=5");
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_parameter",
      errors: [{ pointer: "/Limit", parameter: "Limit", allowed: allowedParameters, didYouMean: "limit" }],
    });
  });

  it("refuses a page number or offset", async () => {
    for (const name of ["page", "offset"]) {
      expect(refusal(await acct.get(`/monitor?${name}=2`))).toMatchObject({
        status: 422,
        code: "unknown_parameter",
      });
    }
  });

  it.each([
    ["state", "dwon", ["up", "down", "paused", "maintenance"], "down"],
    ["enabled", "yes", ["true", "false"], undefined],
  ])("refuses an unknown value of %s", async (name, value, allowed, didYouMean) => {
    const res = await acct.get(`/monitor?${name}=${value}`);
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_enum_value",
      errors: [{ pointer: `/${name}`, parameter: name, value, allowed, ...(didYouMean && { didYouMean }) }],
    });
  });

  it("refuses an unknown type in a list, naming the bad item", async () => {
    const res = await acct.get("/monitor?type=http,pnig");
    const [entry] = refusal(res).errors as Array<Record<string, unknown>>;
    expect(refusal(res)).toMatchObject({ status: 422, code: "unknown_enum_value" });
    expect(entry).toMatchObject({ pointer: "/type", parameter: "type", value: "pnig", didYouMean: "ping" });
    expect(entry!.allowed).toContain("snmp");
  });

  it("refuses an unknown sort column or direction", async () => {
    for (const [sort, didYouMean] of [
      ["nmae", "name"],
      ["name:desk", "name:desc"],
      ["order", undefined],
    ] as const) {
      const res = await acct.get(`/monitor?sort=${sort}`);
      const [entry] = refusal(res).errors as Array<Record<string, unknown>>;
      expect(refusal(res)).toMatchObject({ status: 422, code: "unknown_enum_value" });
      expect(entry).toMatchObject({ pointer: "/sort", parameter: "sort", value: sort });
      expect(entry!.didYouMean).toBe(didYouMean);
      expect(entry!.allowed).toEqual(
        expect.arrayContaining(["name", "name:asc", "name:desc", "created", "tags:desc"]),
      );
    }
  });

  it.each(["q", "type", "tag", "sort", "cursor", "limit", "expand", "fields"])(
    "refuses an empty %s",
    async (name) => {
      const res = await acct.get(`/monitor?${name}=`);
      expect(refusal(res)).toEqual({
        status: 422,
        code: "validation_failed",
        errors: [{ pointer: `/${name}`, parameter: name, reason: "empty" }],
      });
    },
  );

  it("refuses an empty item of a comma list", async () => {
    const res = await acct.get("/monitor?type=http,");
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/type", parameter: "type", reason: "empty" }],
    });
  });
});

describe("from and to", () => {
  it("take a window of up to 90 days", async () => {
    const now = await sb.advance(0);
    expect((await acct.get(`/monitor?from=${now - 90 * 86400}&to=${now}`)).status).toBe(200);
    expect((await acct.get(`/monitor?from=${now - 3600}`)).status).toBe(200);
  });

  it("refuse a wider window with invalid_range and maxSpan", async () => {
    const now = await sb.advance(0);
    const from = now - 90 * 86400 - 1;
    const res = await acct.get(`/monitor?from=${from}&to=${now}`);
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_range",
      maxSpan: 7776000,
      errors: [{ pointer: "/from", parameter: "from", value: from, reason: "too_wide", maxSpan: 7776000 }],
    });
  });

  it("refuse from after to", async () => {
    const now = await sb.advance(0);
    const res = await acct.get(`/monitor?from=${now}&to=${now - 60}`);
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_range",
      maxSpan: 7776000,
      errors: [{ pointer: "/from", parameter: "from", value: now, reason: "after_to" }],
    });
  });

  it("refuse a value that is not Unix seconds", async () => {
    const res = await acct.get("/monitor?from=yesterday");
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/from",
          parameter: "from",
          value: "yesterday",
          reason: "wrong_type",
          expected: "integer",
        },
      ],
    });
  });
});
