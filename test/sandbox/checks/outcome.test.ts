import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** `POST /_sandbox/monitor/{id}/outcome` drives a monitor's state as if checks had confirmed it. */
let sb: TestSandbox;
let acct: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

describe("monitor outcome", () => {
  it("moves a monitor down and up; `since` follows the sandbox clock", async () => {
    const created = await acct.post("/monitor", {
      type: "http",
      url: "https://outcome.example.com",
      locations: { pools: ["allworld"] },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const now = await sb.advance(100);
    const down = await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state: "down" });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ id, state: "down", changed: true });
    expect(down.body.resultId).toMatch(/^res_[0-9a-f]{24}$/);
    expect(down.body.incidentId).toMatch(/^inc_[0-9a-f]{24}$/);
    const read = await acct.get(`/monitor/${id}`);
    expect(read.body.state).toBe("down");
    expect(read.body.since).toBeGreaterThanOrEqual(now);
    expect(read.body.since).toBeLessThanOrEqual(now + 1);
    await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state: "up" });
    expect((await acct.get(`/monitor/${id}`)).body.state).toBe("up");
  });

  it("refuses a paused monitor with 422: it runs no checks", async () => {
    const created = await acct.post("/monitor", {
      type: "http",
      url: "https://paused-outcome.example.com",
      locations: { pools: ["allworld"] },
      enabled: false,
    });
    const id = created.body.id as string;
    const res = await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state: "down" });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: "validation_failed",
      errors: [{ pointer: "/state", value: "down", reason: "monitor_paused" }],
    });
    expect((await acct.get(`/monitor/${id}`)).body).toMatchObject({ enabled: false, state: "paused" });
  });

  it("takes an error object with code, message and codename, and nothing else", async () => {
    const wrongType = await sb.admin.post("/_sandbox/monitor/nope/outcome", {
      state: "down",
      error: "timeout",
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors[0]).toMatchObject({ pointer: "/error", reason: "wrong_type" });
    const unknown = await sb.admin.post("/_sandbox/monitor/nope/outcome", {
      state: "down",
      error: { codename: "dns", colour: "red" },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ pointer: "/error/colour", reason: "unknown_member" });
  });

  it("answers 404 for an unknown monitor and 422 for an unknown state", async () => {
    const missing = await sb.admin.post("/_sandbox/monitor/nope/outcome", { state: "down" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
    const bad = await sb.admin.post("/_sandbox/monitor/nope/outcome", { state: "sideways" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({
      pointer: "/state",
      reason: "not_allowed",
      allowed: ["up", "down"],
    });
  });
});
