import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Query strings are a closed, case-sensitive vocabulary. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("unknown_parameter", () => {
  it("a route without parameters refuses any, with an empty allowed list", async () => {
    const res = await sb.client.get("/account?verbose=true");
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unknown_parameter");
    expect(res.body.errors).toEqual([{ pointer: "/verbose", parameter: "verbose", allowed: [] }]);
  });

  it("on writes too", async () => {
    const res = await sb.client.patch("/account?dryRun=true", { name: "x" });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unknown_parameter");
    expect((await sb.client.get("/account")).body.name).not.toBe("x");
  });

  it("names are case-sensitive: Limit is not limit, and didYouMean points at the right one", async (t) => {
    const probe = await sb.client.get("/monitor");
    if (probe.status === 404) t.skip();
    const res = await sb.client.get("/monitor?Limit=5");
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unknown_parameter");
    const [entry] = res.body.errors;
    expect(entry).toMatchObject({ pointer: "/Limit", parameter: "Limit", didYouMean: "limit" });
    expect(entry.allowed).toContain("limit");
    expect(entry.allowed).not.toContain("Limit");
    expect((await sb.client.get("/monitor?limit=5")).status).toBe(200);
  });

  it("an empty parameter is refused", async (t) => {
    const probe = await sb.client.get("/monitor");
    if (probe.status === 404) t.skip();
    const res = await sb.client.get("/monitor?limit=");
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ parameter: "limit", reason: "empty" });
  });
});

describe("POST …/q bodies", () => {
  const q = (body: unknown) => sb.client.post("/contact/q", body);
  const entries = async (body: unknown) => {
    const res = await q(body);
    expect(res.status, JSON.stringify(body)).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    return res.body.errors;
  };

  it("refuse an empty array as an empty parameter, for list filters and single values alike", async () => {
    expect(await entries({ type: [] })).toEqual([{ pointer: "/type", parameter: "type", reason: "empty" }]);
    expect(await entries({ sort: [] })).toEqual([{ pointer: "/sort", parameter: "sort", reason: "empty" }]);
    expect(await entries({ type: ["email", ""] })).toEqual([
      { pointer: "/type", parameter: "type", reason: "empty" },
    ]);
  });

  it("refuse objects and arrays where a scalar belongs, naming the expected type", async () => {
    expect(await entries({ q: { a: 1 } })).toEqual([
      { pointer: "/q", parameter: "q", value: { a: 1 }, reason: "wrong_type", expected: "string" },
    ]);
    expect(await entries({ sort: ["name"] })).toEqual([
      { pointer: "/sort", parameter: "sort", value: ["name"], reason: "wrong_type", expected: "string" },
    ]);
    expect(await entries({ type: [["email"]] })).toEqual([
      { pointer: "/type/0", parameter: "type", value: ["email"], reason: "wrong_type", expected: "string" },
    ]);
    expect(await entries({ confirmed: { yes: true } })).toEqual([
      {
        pointer: "/confirmed",
        parameter: "confirmed",
        value: { yes: true },
        reason: "wrong_type",
        expected: "boolean",
      },
    ]);
    const limit = await q({ limit: [5] });
    expect(limit.body).toMatchObject({ code: "invalid_limit" });
    expect(limit.body.errors[0]).toMatchObject({ reason: "wrong_type", expected: "integer" });
  });

  it("take scalars, and arrays for list filters", async () => {
    for (const body of [{ type: "email" }, { type: ["email", "sms"] }, { sort: "name", q: "x", limit: 5 }]) {
      expect((await q(body)).status, JSON.stringify(body)).toBe(200);
    }
  });
});
