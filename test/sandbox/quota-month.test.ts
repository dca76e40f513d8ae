import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallResult, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Per-month (30-day) windows count successful requests only. Trial: 500 writes a month. */
let sb: TestSandbox;
const month = 30 * 86400;
// The start of a 30-day window, so the whole test stays inside one.
const monthStart = month * 731;
beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.admin.post("/_sandbox/clock", { now: monthStart + 30 });
});
afterAll(() => sb.close());

/** The `account` family's row of a window (its leaf `account:write` counts the same calls). */
const rowOf = (quota: CallResult, name: string, scope = "account") =>
  quota.body.pools.account.quotas.find(
    (r: { scope: string; quota: string }) => r.scope === scope && r.quota === name,
  );

describe("write_per_month", () => {
  it("counts successes only, while the minute window counts every request", async () => {
    const acct = await sb.account({ metered: true, plan: "trial" });
    expect((await acct.patch("/account", { name: "a" })).status).toBe(200);
    expect((await acct.patch("/account", { name: "b" })).status).toBe(200);
    expect((await acct.patch("/account", { nmae: "c" })).status).toBe(422);
    expect((await acct.patch("/account", { country: "germany" })).status).toBe(422);
    const quota = await acct.get("/account/quota");
    expect(rowOf(quota, "write_per_minute")).toMatchObject({ used: 4, remaining: 1, limit: 5 });
    expect(rowOf(quota, "write_per_month")).toMatchObject({ used: 2, remaining: 498, limit: 500 });
    expect(rowOf(quota, "write_per_minute", "account:write")).toMatchObject({
      used: 4,
      remaining: 1,
      limit: 5,
    });
    expect(rowOf(quota, "write_per_month", "account:write")).toMatchObject({ used: 2, remaining: 498 });
  });

  it("refuses the 501st successful write of the month until the 30-day window turns", async () => {
    const acct = await sb.account({ metered: true, plan: "trial" });
    let successes = 0;
    let refusedByMinute = 0;
    while (successes < 500) {
      const res = await acct.patch("/account", { name: `n${successes}` });
      if (res.status === 200) successes++;
      else {
        expect(res.status).toBe(429);
        expect(res.body.errors[0].quota).toBe("write_per_minute");
        refusedByMinute++;
        await sb.advance(60);
      }
    }
    expect(refusedByMinute).toBeGreaterThanOrEqual(99);
    await sb.advance(60);
    const res = await acct.patch("/account", { name: "one too many" });
    expect(res.status).toBe(429);
    expect(res.body.errors[0]).toEqual({
      quota: "write_per_month",
      limit: 500,
      remaining: 0,
      resetAt: monthStart + month,
    });
    const now = (await sb.admin.post("/_sandbox/clock", {})).body.now as number;
    expect(res.headers["retry-after"]).toBe(String(monthStart + month - now));
    // With the minute spent too, the answer names the window that resets last: waiting a minute won't do.
    for (let i = 0; i < 5; i++) await acct.patch("/account", { name: "hammer" });
    const both = await acct.patch("/account", { name: "hammer" });
    expect(both.body.errors[0]).toMatchObject({ quota: "write_per_month", resetAt: monthStart + month });
    // Reads have their own month.
    expect((await acct.get("/account")).status).toBe(200);
    await sb.admin.post("/_sandbox/clock", { now: monthStart + month + 1 });
    expect((await acct.patch("/account", { name: "new month" })).status).toBe(200);
  });
});
