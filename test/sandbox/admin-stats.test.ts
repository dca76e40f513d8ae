import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `/_sandbox/stats`: API request counts by method and route template, and by status. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("stats", () => {
  it("counts by method + route template and by status; DELETE resets; control routes are not counted", async () => {
    const reset = await sb.admin.delete("/_sandbox/stats");
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ total: 0, byRoute: {}, byStatus: {} });

    await sb.client.get("/account");
    await sb.client.get("/account");
    await sb.client.patch("/account", { nmae: "x" });
    await sb.client.get("/account", { token: null });
    await sb.client.get("/problems/not_found", { token: null });
    await sb.client.get("/problems/quota_exceeded", { token: null });
    await sb.client.call("DELETE", "/account");
    await sb.client.get("/no/such/path");
    // Control routes, however many, are never counted.
    await sb.admin.post("/_sandbox/clock", {});
    await sb.admin.get("/_sandbox/outbox");
    await sb.admin.get("/_sandbox/stats");

    const res = await sb.admin.get("/_sandbox/stats");
    expect(res.body).toEqual({
      total: 8,
      byRoute: {
        "GET /account": 3,
        "PATCH /account": 1,
        "GET /problems/{code}": 2,
        "DELETE /account": 1,
        "GET (unmatched)": 1,
      },
      byStatus: { "200": 4, "401": 1, "404": 1, "405": 1, "422": 1 },
    });
  });

  it("a reset starts again from zero", async () => {
    await sb.client.get("/account");
    await sb.admin.delete("/_sandbox/stats");
    await sb.client.get("/account");
    const res = await sb.admin.get("/_sandbox/stats");
    expect(res.body).toEqual({ total: 1, byRoute: { "GET /account": 1 }, byStatus: { "200": 1 } });
  });
});
