import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { meteringOf, quotaClassOf } from "../../src/sandbox/core/operation.ts";
import { allOperations } from "../../src/sandbox/operations.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `GET /account/quota`: spends nothing; per pool, a row per window of each scope family and leaf; scopes, apiEnabled. */
let sb: TestSandbox;
const base = 1_900_000_020;
beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.admin.post("/_sandbox/clock", { now: base });
});
afterAll(() => sb.close());

const month = 30 * 86400;

type Row = { scope: string; quota: string; limit: number; used: number; remaining: number };
const rowOf = (rows: Row[], scope: string, quota: string) =>
  rows.find((r) => r.scope === scope && r.quota === quota);
const reads = ["read_per_minute", "read_per_month"];
const writes = ["write_per_minute", "write_per_month"];

describe("GET /account/quota", () => {
  it("returns one row per window of every scope family and leaf of each pool, trial numbers", async () => {
    const acct = await sb.account({ metered: true, plan: "trial" });
    const res = await acct.get("/account/quota");
    expect(res.status).toBe(200);
    const minuteReset = (Math.floor(base / 60) + 1) * 60;
    const monthReset = (Math.floor(base / month) + 1) * month;
    const rows: Row[] = res.body.pools.account.quotas;
    // Each family has the read and write windows, each leaf those of its own class.
    const expected = ["monitor", "contact", "subs", "webhook", "statuspage", "account"].flatMap((family) => [
      ...[...reads, ...writes].map((quota) => [family, quota]),
      ...(family === "subs" ? [] : [`${family}:read`, `${family}:write`]).flatMap((leaf) =>
        (leaf.endsWith(":read") ? reads : writes).map((quota) => [leaf, quota]),
      ),
      ...(family === "subs" ? reads.map((quota) => ["subs:read", quota]) : []),
    ]);
    expect(rows.map((r) => [r.scope, r.quota])).toEqual(expected);
    expect(rows).toHaveLength(46);
    expect(rows.filter((r) => r.scope === "account" || r.scope.startsWith("account:"))).toEqual([
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
      {
        scope: "account:read",
        quota: "read_per_minute",
        limit: 10,
        used: 0,
        remaining: 10,
        resetAt: minuteReset,
        windowSec: 60,
        successOnly: false,
      },
      {
        scope: "account:read",
        quota: "read_per_month",
        limit: 10000,
        used: 0,
        remaining: 10000,
        resetAt: monthReset,
        windowSec: month,
        successOnly: true,
      },
      {
        scope: "account:write",
        quota: "write_per_minute",
        limit: 5,
        used: 0,
        remaining: 5,
        resetAt: minuteReset,
        windowSec: 60,
        successOnly: false,
      },
      {
        scope: "account:write",
        quota: "write_per_month",
        limit: 500,
        used: 0,
        remaining: 500,
        resetAt: monthReset,
        windowSec: month,
        successOnly: true,
      },
    ]);
    // Every scope of a pool has the pool's plan limits.
    for (const r of rows)
      expect(r.limit, `${r.scope} ${r.quota}`).toBe(rowOf(rows, "account", r.quota)!.limit);
    const check: Row[] = res.body.pools.check.quotas;
    expect(check.map((r) => [r.scope, r.quota, r.limit])).toEqual([
      ["check", "read_per_minute", 5],
      ["check", "read_per_month", 1000],
      ["check", "write_per_minute", 2],
      ["check", "write_per_month", 100],
      ["check:read", "read_per_minute", 5],
      ["check:read", "read_per_month", 1000],
      ["check:write", "write_per_minute", 2],
      ["check:write", "write_per_month", 100],
    ]);
    // The top level repeats the tightest window of all: here the check pool's 2 writes a minute.
    expect(res.body).toMatchObject({
      limit: 2,
      used: 0,
      remaining: 2,
      resetAt: minuteReset,
      apiEnabled: true,
    });
    expect(res.body.pools.account.quotas[0]).not.toHaveProperty("byScope");
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

  it("counts each call against its scope family and its leaf, and no other scope", async () => {
    const acct = await sb.account({ metered: true, plan: "business" });
    await acct.get("/account");
    await acct.get("/account/usage");
    await acct.patch("/account", { name: "x" });
    await acct.get("/monitor");
    const rows: Row[] = (await acct.get("/account/quota")).body.pools.account.quotas;
    const used = (scope: string, quota: string) => rowOf(rows, scope, quota)!.used;
    for (const scope of ["account", "account:read"]) {
      expect([used(scope, "read_per_minute"), used(scope, "read_per_month")], scope).toEqual([2, 2]);
    }
    for (const scope of ["account", "account:write"]) {
      expect([used(scope, "write_per_minute"), used(scope, "write_per_month")], scope).toEqual([1, 1]);
    }
    for (const scope of ["monitor", "monitor:read"]) expect(used(scope, "read_per_minute"), scope).toBe(1);
    expect(used("monitor", "write_per_minute")).toBe(0);
    const others = rows.filter((r) => !/^(account|monitor)(:|$)/.test(r.scope));
    for (const r of others) expect(r.used, `${r.scope} ${r.quota}`).toBe(0);
    expect(rowOf(rows, "account", "read_per_minute")!.remaining).toBe(58);
  });

  it("reports every window a metered call spends: each operation's class is its leaf's", () => {
    for (const op of allOperations().filter((o) => meteringOf(o) === "quota")) {
      expect(quotaClassOf(op), op.id).toBe(op.scope!.endsWith(":read") ? "read" : "write");
    }
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
    const rows: Row[] = (await acct.get("/account/quota")).body.pools.account.quotas;
    const account = rows.filter((r) => r.scope === "account");
    expect(account.map((r) => r.limit)).toEqual([120, 1000000, 60, 100000]);
  });
});
