import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `GET /account/quota`: spends nothing; pools of window rows, scopes, apiEnabled. */
let sb: TestSandbox;
const base = 1_900_000_020;
beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.admin.post("/_sandbox/clock", { now: base });
});
afterAll(() => sb.close());

const month = 30 * 86400;

describe("GET /account/quota", () => {
  it("returns both pools with one row per window, trial numbers", async () => {
    const acct = await sb.account({ metered: true, plan: "trial" });
    const res = await acct.get("/account/quota");
    expect(res.status).toBe(200);
    const minuteReset = (Math.floor(base / 60) + 1) * 60;
    const monthReset = (Math.floor(base / month) + 1) * month;
    const rows = res.body.pools.account.quotas.map(({ byScope: _, ...row }: Record<string, unknown>) => row);
    expect(rows).toEqual([
      {
        scope: "account",
        quota: "read_per_minute",
        limit: 10,
        used: 0,
        remaining: 10,
        resetAt: minuteReset,
        windowSec: 60,
        successOnly: false,
      },
      {
        scope: "account",
        quota: "read_per_month",
        limit: 10000,
        used: 0,
        remaining: 10000,
        resetAt: monthReset,
        windowSec: month,
        successOnly: true,
      },
      {
        scope: "account",
        quota: "write_per_minute",
        limit: 5,
        used: 0,
        remaining: 5,
        resetAt: minuteReset,
        windowSec: 60,
        successOnly: false,
      },
      {
        scope: "account",
        quota: "write_per_month",
        limit: 500,
        used: 0,
        remaining: 500,
        resetAt: monthReset,
        windowSec: month,
        successOnly: true,
      },
    ]);
    const check = res.body.pools.check.quotas;
    expect(check.map((r: { quota: string }) => r.quota)).toEqual([
      "read_per_minute",
      "read_per_month",
      "write_per_minute",
      "write_per_month",
    ]);
    for (const r of check) expect(r.scope).toBe("check");
    // The top level repeats the tightest window of all: here the check pool's 2 writes a minute.
    expect(res.body).toMatchObject({
      limit: 2,
      used: 0,
      remaining: 2,
      resetAt: minuteReset,
      apiEnabled: true,
    });
  });

  it("spends nothing, however often it is called", async () => {
    const acct = await sb.account({ metered: true, plan: "trial" });
    for (let i = 0; i < 25; i++) expect((await acct.get("/account/quota")).status).toBe(200);
    const res = await acct.get("/account/quota");
    for (const row of [...res.body.pools.account.quotas, ...res.body.pools.check.quotas]) {
      expect(row.used, row.quota).toBe(0);
    }
    for (let i = 0; i < 10; i++) expect((await acct.get("/account")).status).toBe(200);
  });

  it("counts each call against its scope family and its leaf", async () => {
    const acct = await sb.account({ metered: true, plan: "business" });
    await acct.get("/account");
    await acct.get("/account/usage");
    await acct.patch("/account", { name: "x" });
    const res = await acct.get("/account/quota");
    const byQuota = Object.fromEntries(
      res.body.pools.account.quotas.map((r: { quota: string; used: number; byScope: unknown }) => [
        r.quota,
        { used: r.used, byScope: r.byScope },
      ]),
    );
    expect(byQuota.read_per_minute).toEqual({ used: 2, byScope: { account: 2, "account:read": 2 } });
    expect(byQuota.write_per_minute).toEqual({ used: 1, byScope: { account: 1, "account:write": 1 } });
    expect(byQuota.read_per_month).toEqual({ used: 2, byScope: { account: 2, "account:read": 2 } });
  });

  it("lists every mintable scope with a description", async () => {
    const acct = await sb.account();
    const res = await acct.get("/account/quota");
    expect(res.body.scopes).toContainEqual({
      scope: "monitor:read",
      description: expect.stringMatching(/\w/),
    });
    expect(res.body.scopes).toHaveLength(20);
  });

  it("needs account:read", async () => {
    const acct = await sb.account();
    const minted = await sb.mint({ accountId: acct.accountId, scopes: ["account:write"] });
    const res = await acct.get("/account/quota", { token: minted.body.token });
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toEqual({ required: "account:read", granted: ["account:write"] });
  });

  it("enterprise numbers", async () => {
    const acct = await sb.account({ metered: true, plan: "enterprise" });
    const rows = (await acct.get("/account/quota")).body.pools.account.quotas;
    expect(rows.map((r: { limit: number }) => r.limit)).toEqual([120, 1000000, 60, 100000]);
  });
});
