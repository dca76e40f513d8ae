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
