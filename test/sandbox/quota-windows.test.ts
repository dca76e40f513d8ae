import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/**
 * Per-minute windows count every request (refused ones too) and refuse with
 * 429 `quota_exceeded`; advancing the clock past the minute resets them.
 * Trial: 10 reads and 5 writes a minute.
 */
let sb: TestSandbox;
let acct: Client & { accountId: string };
// A minute-aligned instant, so a test never straddles a window boundary.
const base = 1_900_000_020;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
let offset = 0;
beforeEach(async () => {
  offset += 600;
  await sb.admin.post("/_sandbox/clock", { now: base + offset });
  acct = await sb.account({ metered: true, plan: "trial" });
});

describe("read_per_minute", () => {
  it("admits 10 reads a minute and refuses the 11th with every member and header", async () => {
    for (let i = 0; i < 10; i++) expect((await acct.get("/account")).status, `read ${i + 1}`).toBe(200);
    const res = await acct.get("/account");
    const now = (await sb.admin.post("/_sandbox/clock", {})).body.now as number;
    const resetAt = (Math.floor(now / 60) + 1) * 60;
    expect(res.status).toBe(429);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: "quota_exceeded", status: 429, limit: 10, remaining: 0, resetAt });
    expect(res.body.errors).toEqual([{ quota: "read_per_minute", limit: 10, remaining: 0, resetAt }]);
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(60);
    expect(res.headers["ratelimit-limit"]).toBe("10");
    expect(res.headers["ratelimit-remaining"]).toBe("0");
    expect(res.headers["ratelimit-reset"]).toBe(res.headers["retry-after"]);
    expect(res.headers["ratelimit-policy"]).toBe(
      'read_per_minute;q=10;w=60;scope="account", read_per_month;q=10000;w=2592000;scope="account", ' +
        'read_per_minute;q=10;w=60;scope="account:read", read_per_month;q=10000;w=2592000;scope="account:read"',
    );
  });

  it("each scope family has its own windows: spent account reads leave monitor reads untouched", async () => {
    for (let i = 0; i < 10; i++) await acct.get("/account");
    expect((await acct.get("/account")).status).toBe(429);
    const monitors = await acct.get("/monitor");
    expect(monitors.status).toBe(200);
    expect(monitors.headers["ratelimit-remaining"]).toBe("9");
    expect((await acct.get("/account/usage")).status).toBe(429);
  });

  it("reads and writes have separate windows", async () => {
    for (let i = 0; i < 10; i++) await acct.get("/account");
    expect((await acct.get("/account")).status).toBe(429);
    expect((await acct.patch("/account", { name: "still writable" })).status).toBe(200);
  });

  it("advancing the clock past the minute resets the window", async () => {
    for (let i = 0; i < 11; i++) await acct.get("/account");
    expect((await acct.get("/account")).status).toBe(429);
    await sb.advance(60);
    const res = await acct.get("/account");
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit-remaining"]).toBe("9");
  });

  it("windows are per account", async () => {
    const other = await sb.account({ metered: true, plan: "trial" });
    for (let i = 0; i < 11; i++) await acct.get("/account");
    expect((await acct.get("/account")).status).toBe(429);
    expect((await other.get("/account")).status).toBe(200);
  });

  it("refused calls keep counting: hammering while limited is refused until the window ends", async () => {
    for (let i = 0; i < 10; i++) await acct.get("/account");
    for (let i = 0; i < 5; i++) expect((await acct.get("/account")).status).toBe(429);
    const quota = await acct.get("/account/quota");
    for (const scope of ["account", "account:read"]) {
      const row = quota.body.pools.account.quotas.find(
        (r: { scope: string; quota: string }) => r.scope === scope && r.quota === "read_per_minute",
      );
      expect(row, scope).toMatchObject({ used: 15, remaining: 0 });
    }
  });
});

describe("write_per_minute", () => {
  it("counts refused writes (422) in the minute window", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await acct.patch("/account", { nmae: "typo" });
      expect(res.status).toBe(422);
      expect(res.headers["ratelimit-remaining"]).toBe(String(4 - i));
    }
    const res = await acct.patch("/account", { name: "valid" });
    expect(res.status).toBe(429);
    expect(res.body.errors[0]).toMatchObject({ quota: "write_per_minute", limit: 5, remaining: 0 });
    expect(res.headers["ratelimit-policy"]).toBe(
      'write_per_minute;q=5;w=60;scope="account", write_per_month;q=500;w=2592000;scope="account", ' +
        'write_per_minute;q=5;w=60;scope="account:write", write_per_month;q=500;w=2592000;scope="account:write"',
    );
  });

  it("counts 403 missing_scope refusals too", async () => {
    const minted = await sb.mint({ accountId: acct.accountId, scopes: ["account:read"] });
    for (let i = 0; i < 5; i++) {
      expect((await acct.patch("/account", { name: "x" }, { token: minted.body.token })).status).toBe(403);
    }
    expect((await acct.patch("/account", { name: "x" })).status).toBe(429);
  });

  it("does not count ip_not_allowed refusals: a stolen token used elsewhere cannot drain the account", async () => {
    const minted = await sb.mint({ accountId: acct.accountId, scopes: ["account"], allowIps: ["127.0.0.2"] });
    for (let i = 0; i < 8; i++) {
      const res = await acct.patch(
        "/account",
        { name: "x" },
        { token: minted.body.token, localAddress: "127.0.0.3" },
      );
      expect(res.status).toBe(403);
      expect(res.headers["ratelimit-limit"]).toBeUndefined();
    }
    expect((await acct.patch("/account", { name: "x" })).headers["ratelimit-remaining"]).toBe("4");
  });

  it("does not count 401s (no account is known) nor unknown paths", async () => {
    for (let i = 0; i < 6; i++) await acct.patch("/account", { name: "x" }, { token: "bogus" });
    for (let i = 0; i < 6; i++) await acct.patch("/no-such-route", { name: "x" });
    expect((await acct.patch("/account", { name: "x" })).status).toBe(200);
  });
});
