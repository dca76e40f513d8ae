import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallResult, type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** The token mint's rules: lifetime, self-cap, API access. Its refusals use `{error, message}`. */
let sb: TestSandbox;
let acct: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

const now = async () => (await sb.admin.post("/_sandbox/clock", {})).body.now as number;

function expectMintError(res: CallResult, text?: RegExp) {
  expect(res.status).toBe(400);
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  expect(Object.keys(res.body).sort()).toEqual(["error", "message"]);
  expect(res.body.error).toBe("ValidationError");
  if (text) expect(res.body.message).toMatch(text);
}

describe("lifetime", () => {
  it("defaults to ten years", async () => {
    const t = await now();
    const res = await sb.mint({ accountId: acct.accountId, scopes: ["account"] });
    expect(res.status).toBe(201);
    expect(res.body.expiresAt - t).toBeGreaterThanOrEqual(10 * 365 * 86400);
    expect(res.body.expiresAt - t).toBeLessThanOrEqual(10 * 365 * 86400 + 2);
  });

  it("takes tokenDuration as days.hours:minutes:seconds", async () => {
    const cases: Array<[string, number]> = [
      ["7.00:00:00", 7 * 86400],
      ["01:00:00", 3600],
      ["0.00:00:30", 30],
      ["2.03:04:05", 2 * 86400 + 3 * 3600 + 4 * 60 + 5],
    ];
    for (const [tokenDuration, seconds] of cases) {
      const t = await now();
      const res = await sb.mint({ accountId: acct.accountId, scopes: ["account"], tokenDuration });
      expect(res.status, tokenDuration).toBe(201);
      expect(res.body.expiresAt - t, tokenDuration).toBeGreaterThanOrEqual(seconds);
      expect(res.body.expiresAt - t, tokenDuration).toBeLessThanOrEqual(seconds + 2);
    }
  });

  it("refuses malformed durations", async () => {
    for (const duration of ["1h", "7", "1.24:00:00", "00:60:00", "00:00:00", "-1.00:00:00", ""]) {
      expectMintError(
        await sb.mint({ accountId: acct.accountId, scopes: ["account"], duration }),
        /tokenDuration/,
      );
    }
  });

  it("a token minted for 30 seconds stops working after 30 seconds", async () => {
    const res = await sb.mint({ accountId: acct.accountId, scopes: ["account"], duration: "00:00:30" });
    expect((await acct.get("/account", { token: res.body.token })).status).toBe(200);
    await sb.advance(31);
    const after = await acct.get("/account", { token: res.body.token });
    expect(after.status).toBe(401);
    expect(after.body.errors).toEqual([{ reason: "invalid" }]);
  });

  it("refuses a tokenExpiration already in the past, or now", async () => {
    const t = await now();
    for (const tokenExpiration of [t - 1, t]) {
      expectMintError(
        await sb.mint({ accountId: acct.accountId, scopes: ["account"], tokenExpiration }),
        /in the past/,
      );
    }
  });

  it("takes a future tokenExpiration as given", async () => {
    const t = await now();
    const res = await sb.mint({ accountId: acct.accountId, scopes: ["account"], tokenExpiration: t + 3600 });
    expect(res.status).toBe(201);
    expect(res.body.expiresAt).toBe(t + 3600);
  });

  it("bounds the lifetime to ten years, however it is given", async () => {
    const t = await now();
    for (const lifetime of [
      { tokenExpiration: 1e20 },
      { expiresAt: t + 10 * 365 * 86400 + 60 },
      { tokenDuration: "3651.00:00:00" },
      { tokenDuration: "99999999999.00:00:00" },
    ]) {
      expectMintError(
        await sb.mint({ accountId: acct.accountId, scopes: ["account"], ...lifetime }),
        /at most ten years/,
      );
    }
    const longest = await sb.mint({
      accountId: acct.accountId,
      scopes: ["account"],
      tokenDuration: "3650.00:00:00",
    });
    expect(longest.status).toBe(201);
  });

  it("refuses both lifetimes at once", async () => {
    const t = await now();
    const res = await sb.mint({
      accountId: acct.accountId,
      scopes: ["account"],
      tokenExpiration: t + 3600,
      tokenDuration: "01:00:00",
    });
    expectMintError(res, /not both/);
  });

  it("refuses unknown mint members and an unknown account", async () => {
    expectMintError(await sb.mint({ accountId: acct.accountId, scopes: ["account"], scope: "x" }));
    expectMintError(await sb.mint({ accountId: "nope", scopes: ["account"] }), /account/i);
  });
});

describe("self-cap", () => {
  it("refuses with 429 quota_exceeded once the token has spent its cap, and other tokens go on", async () => {
    const minted = await sb.mint({ accountId: acct.accountId, scopes: ["account"], cap: 3 });
    const token = minted.body.token;
    for (let i = 0; i < 3; i++) expect((await acct.get("/account", { token })).status).toBe(200);
    const res = await acct.get("/account", { token });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("quota_exceeded");
    expect(res.body.errors).toEqual([{ quota: "token_cap", limit: 3, remaining: 0 }]);
    expect(res.headers["ratelimit-limit"]).toBe("3");
    expect(res.headers["ratelimit-remaining"]).toBe("0");
    // The cap never resets, so there is nothing to wait for.
    expect(res.headers["retry-after"]).toBeUndefined();
    await sb.advance(3600);
    expect((await acct.get("/account", { token })).status).toBe(429);
    expect((await acct.get("/account")).status).toBe(200);
  });

  it("is echoed by GET /account/quota, which spends nothing from it", async () => {
    const minted = await sb.mint({ accountId: acct.accountId, scopes: ["account"], cap: 5 });
    const token = minted.body.token;
    await acct.patch("/account", { name: "Capped" }, { token });
    for (let i = 0; i < 3; i++) {
      const q = await acct.get("/account/quota", { token });
      expect(q.status).toBe(200);
      expect(q.body).toMatchObject({ tokenCap: 5, tokenCapUsed: 1, tokenCapRemaining: 4 });
    }
  });

  it("is absent from GET /account/quota for an uncapped token", async () => {
    const q = await acct.get("/account/quota");
    expect(q.body).not.toHaveProperty("tokenCap");
    expect(q.body).not.toHaveProperty("tokenCapUsed");
  });

  it("applies on metered accounts too, counting alongside the windows", async () => {
    const metered = await sb.account({ metered: true, plan: "business" });
    const minted = await sb.mint({ accountId: metered.accountId, scopes: ["account"], cap: 2 });
    const token = minted.body.token;
    expect((await metered.get("/account", { token })).status).toBe(200);
    expect((await metered.get("/account", { token })).status).toBe(200);
    const res = await metered.get("/account", { token });
    expect(res.status).toBe(429);
    expect(res.body.errors[0]).toEqual({ quota: "token_cap", limit: 2, remaining: 0 });
  });

  it("must be a positive integer", async () => {
    for (const cap of [0, -1, 1.5]) {
      expectMintError(await sb.mint({ accountId: acct.accountId, scopes: ["account"], cap }), /cap/);
    }
  });
});

describe("API access disabled account-wide", () => {
  it("refuses new mints", async () => {
    const off = await sb.account({ apiEnabled: false });
    expectMintError(await sb.mint({ accountId: off.accountId, scopes: ["account"] }), /disabled/);
  });

  it("refuses existing tokens on metered calls with 401, but GET /account/quota still answers", async () => {
    const off = await sb.account({ apiEnabled: false });
    const res = await off.get("/account");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("invalid_token");
    expect(res.body.errors).toEqual([{ reason: "invalid" }]);
    expect(res.headers["www-authenticate"]).toBe("Bearer error=invalid_token");
    expect((await off.patch("/account", { name: "x" })).status).toBe(401);
    const quota = await off.get("/account/quota");
    expect(quota.status).toBe(200);
    expect(quota.body.apiEnabled).toBe(false);
  });

  it("GET /account/quota reports apiEnabled true on an ordinary account", async () => {
    expect((await acct.get("/account/quota")).body.apiEnabled).toBe(true);
  });
});
