import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `RateLimit-*` headers: on every metered call (success or refusal), on nothing unmetered. */
let sb: TestSandbox;
const base = 1_900_000_020;
beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.admin.post("/_sandbox/clock", { now: base });
});
afterAll(() => sb.close());

describe("metered calls", () => {
  it("carry RateLimit-Limit/Remaining/Reset/Policy of the tightest window", async () => {
    const acct = await sb.account({ metered: true, plan: "business" });
    const res = await acct.get("/account");
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit-limit"]).toBe("60");
    expect(res.headers["ratelimit-remaining"]).toBe("59");
    const reset = Number(res.headers["ratelimit-reset"]);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    expect(res.headers["ratelimit-policy"]).toBe(
      'read_per_minute;q=60;w=60;scope="account", read_per_month;q=100000;w=2592000;scope="account", ' +
        'read_per_minute;q=60;w=60;scope="account:read", read_per_month;q=100000;w=2592000;scope="account:read"',
    );
    const write = await acct.patch("/account", { name: "w" });
    expect(write.headers["ratelimit-limit"]).toBe("30");
    expect(write.headers["ratelimit-remaining"]).toBe("29");
    expect(write.headers["ratelimit-policy"]).toBe(
      'write_per_minute;q=30;w=60;scope="account", write_per_month;q=20000;w=2592000;scope="account", ' +
        'write_per_minute;q=30;w=60;scope="account:write", write_per_month;q=20000;w=2592000;scope="account:write"',
    );
  });

  it("describe the call's own scopes: another family's calls do not count down", async () => {
    const acct = await sb.account({ metered: true, plan: "business" });
    for (let i = 0; i < 3; i++) await acct.get("/account");
    const monitors = await acct.get("/monitor");
    expect(monitors.headers["ratelimit-remaining"]).toBe("59");
    expect(monitors.headers["ratelimit-policy"]).toBe(
      'read_per_minute;q=60;w=60;scope="monitor", read_per_month;q=100000;w=2592000;scope="monitor", ' +
        'read_per_minute;q=60;w=60;scope="monitor:read", read_per_month;q=100000;w=2592000;scope="monitor:read"',
    );
    expect((await acct.get("/account")).headers["ratelimit-remaining"]).toBe("56");
  });

  it("a token-cap refusal carries the cap's headers only, never the account window's", async () => {
    const acct = await sb.account({ metered: true, plan: "business" });
    const token = (await sb.mint({ accountId: acct.accountId, scopes: ["account"], cap: 1 })).body.token;
    expect((await acct.get("/account", { token })).status).toBe(200);
    const res = await acct.get("/account", { token });
    expect(res.status).toBe(429);
    expect(res.body.errors).toEqual([{ quota: "token_cap", limit: 1, remaining: 0 }]);
    expect(res.headers["ratelimit-limit"]).toBe("1");
    expect(res.headers["ratelimit-remaining"]).toBe("0");
    for (const h of ["ratelimit-reset", "ratelimit-policy", "retry-after"])
      expect(res.headers[h], h).toBeUndefined();
  });

  it("carry them on refusals after metering too (403, 422)", async () => {
    const acct = await sb.account({ metered: true, plan: "trial" });
    const invalid = await acct.patch("/account", { nmae: "x" });
    expect(invalid.status).toBe(422);
    expect(invalid.headers["ratelimit-limit"]).toBe("5");
    expect(invalid.headers["ratelimit-remaining"]).toBe("4");
    const minted = await sb.mint({ accountId: acct.accountId, scopes: ["monitor"] });
    const forbidden = await acct.get("/account", { token: minted.body.token });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers["ratelimit-remaining"]).toBe("9");
  });

  it("Remaining counts down call by call", async () => {
    const acct = await sb.account({ metered: true, plan: "trial" });
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push((await acct.get("/account")).headers["ratelimit-remaining"]!);
    expect(seen).toEqual(["9", "8", "7", "6"]);
  });
});

describe("unmetered calls", () => {
  it("an unmetered account's calls carry no rate-limit headers, and its quota lists no windows", async () => {
    const acct = await sb.account();
    const res = await acct.get("/account");
    expect(res.status).toBe(200);
    for (const h of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset", "ratelimit-policy"]) {
      expect(res.headers[h]).toBeUndefined();
    }
    const quota = await acct.get("/account/quota");
    expect(quota.body.pools).toEqual({ account: { quotas: [] }, check: { quotas: [] } });
    expect(quota.body.limit).toBeNull();
  });

  it("GET /account/quota carries none, even on a metered account", async () => {
    const acct = await sb.account({ metered: true, plan: "trial" });
    const res = await acct.get("/account/quota");
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit-limit"]).toBeUndefined();
  });

  it("anonymous pages carry none", async () => {
    const res = await sb.client.get("/problems", { token: null });
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit-limit"]).toBeUndefined();
  });
});
