import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `POST /_sandbox/clock`: `{}` reads, `advanceSec` moves forward, `now` sets. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const clock = (body: unknown) => sb.admin.post("/_sandbox/clock", body);

describe("clock", () => {
  it("{} reads the current time, near real time at start", async () => {
    const res = await clock({});
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["now"]);
    expect(Math.abs(res.body.now - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(2);
  });

  it("advanceSec moves it forward and keeps running from there", async () => {
    const before = (await clock({})).body.now;
    const res = await clock({ advanceSec: 86400 });
    expect(res.body.now - before).toBeGreaterThanOrEqual(86400);
    expect(res.body.now - before).toBeLessThanOrEqual(86401);
    const later = (await clock({})).body.now;
    expect(later).toBeGreaterThanOrEqual(res.body.now);
  });

  it("now sets an absolute time", async () => {
    const res = await clock({ now: 2_000_000_000 });
    expect(res.body.now).toBe(2_000_000_000);
    expect((await clock({})).body.now - 2_000_000_000).toBeLessThanOrEqual(1);
  });

  it("now and advanceSec together: set, then advance", async () => {
    const res = await clock({ now: 2_100_000_000, advanceSec: 60 });
    expect(res.body.now).toBe(2_100_000_060);
  });

  it("the API reads the same clock (token expiry, quota resetAt)", async () => {
    await clock({ now: 2_200_000_000 });
    const acct = await sb.account({ metered: true, plan: "trial" });
    const quota = await acct.get("/account/quota");
    const row = quota.body.pools.account.quotas[0];
    expect(row.resetAt).toBe(2_200_000_020);
  });

  it("refuses going backwards by a negative advance, and unknown members", async () => {
    const neg = await clock({ advanceSec: -5 });
    expect(neg.status).toBe(422);
    expect(neg.body.errors[0]).toMatchObject({ pointer: "/advanceSec", reason: "out_of_range" });
    const unknown = await clock({ advanceSecs: 5 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ reason: "unknown_member", didYouMean: "advanceSec" });
    const frac = await clock({ advanceSec: 1.5 });
    expect(frac.status).toBe(422);
  });
});
