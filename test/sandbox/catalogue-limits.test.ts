import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CallResult, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Who may call the catalogues, and the throttles that guard them. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** Each test starts at a fresh 5-minute window, far from its end. */
let windowStart = 1_900_000_200; // a multiple of 300
beforeEach(async () => {
  windowStart += 3000;
  await sb.admin.post("/_sandbox/clock", { now: windowStart });
});

const anonymousGets = [
  "/monitor/type",
  "/monitor/type/http",
  "/monitor/type/schema",
  "/agent",
  "/agent/pool",
  "/agent/ip",
  "/contact/type",
  "/alert/type",
  "/report/type",
  "/check/type",
  "/check/device",
];
/** Every catalogue call except `/agent/ip`, which has its own bucket. */
const shared = [
  ...anonymousGets.filter((p) => p !== "/agent/ip").map((path) => ({ method: "GET", path })),
  { method: "POST", path: "/agent/q" },
];

async function spend(count: number, options: { token: string | null; localAddress: string }) {
  for (let i = 0; i < count; i++) {
    const { method, path } = shared[i % shared.length]!;
    const res = await sb.client.call(method, path, { ...options, ...(method === "POST" && { body: {} }) });
    expect(res.status, `${method} ${path}, call ${i + 1}`).toBe(200);
  }
}

function expectRateLimited(res: CallResult, limit: number) {
  expect(res.status).toBe(429);
  expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
  expect(res.body).toMatchObject({ code: "rate_limited", limit, window: 300 });
  expect(res.body.retryAfter).toBeGreaterThan(0);
  expect(res.body.retryAfter).toBeLessThanOrEqual(300);
  expect(res.body.errors[0]).toEqual({ limit, window: 300, retryAfter: res.body.retryAfter });
  expect(res.headers["retry-after"]).toBe(String(res.body.retryAfter));
}

describe("anonymous access", () => {
  it.each(anonymousGets)("GET %s needs no token", async (path) => {
    const res = await sb.client.get(path, { token: null, localAddress: "127.0.0.60" });
    expect(res.status).toBe(200);
  });

  it.each(["/agent/q", "/agent/ip/q"])("POST %s needs no token", async (path) => {
    const res = await sb.client.post(path, { limit: 1 }, { token: null, localAddress: "127.0.0.60" });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });

  it("refuses a bad token rather than ignoring it: 401 invalid", async () => {
    for (const path of ["/monitor/type", "/agent/ip"]) {
      const res = await sb.client.get(path, { token: "not-a-token", localAddress: "127.0.0.61" });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: "invalid_token", errors: [{ reason: "invalid" }] });
      expect(res.headers["www-authenticate"]).toBe("Bearer error=invalid_token");
    }
    const basic = await sb.client.get("/agent", {
      token: null,
      headers: { authorization: "Basic dXNlcjpwYXNz" },
      localAddress: "127.0.0.61",
    });
    expect(basic.status).toBe(401);
    expect(basic.body.errors[0].reason).toBe("invalid");
  });

  it("refuses an expired token", async () => {
    const { token } = (await sb.mint({ scopes: ["monitor:read"], duration: "0.00:01:00" })).body;
    expect((await sb.client.get("/monitor/type", { token })).status).toBe(200);
    await sb.advance(120);
    const res = await sb.client.get("/monitor/type", { token });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].reason).toBe("invalid");
  });

  it("takes a token of any scope, and spends nothing from the account quota", async () => {
    const { token } = (await sb.mint({ scopes: ["contact:read"] })).body;
    const res = await sb.client.get("/monitor/type", { token });
    expect(res.status).toBe(200);
    expect(res.body.data[0].accountLimits).toBeDefined();
    expect(res.headers["ratelimit-policy"]).toBeUndefined();

    const before = await sb.client.get("/account/quota");
    // More catalogue calls than the business plan's 60 reads per minute.
    await spend(70, { token: null, localAddress: "127.0.0.62" });
    await spend(70, { token: sb.token, localAddress: "127.0.0.62" });
    const after = await sb.client.get("/account/quota");
    expect(after.body.pools.account.quotas).toEqual(before.body.pools.account.quotas);
  });
});

describe("anonymous throttle: 120 calls per 5 minutes per client address", () => {
  it("shares one bucket across the catalogues and their /q twins, then refuses with rate_limited", async () => {
    const ip = "127.0.0.70";
    await spend(120, { token: null, localAddress: ip });
    const res = await sb.client.get("/contact/type", { token: null, localAddress: ip });
    expectRateLimited(res, 120);
    expect(res.headers["ratelimit-remaining"]).toBe("0");
    const twin = await sb.client.post("/agent/q", {}, { token: null, localAddress: ip });
    expectRateLimited(twin, 120);
  });

  it("keeps addresses apart, keeps /agent/ip apart, and a token moves the caller to its account's bucket", async () => {
    const ip = "127.0.0.71";
    await spend(120, { token: null, localAddress: ip });
    expect((await sb.client.get("/agent", { token: null, localAddress: ip })).status).toBe(429);
    expect((await sb.client.get("/agent", { token: null, localAddress: "127.0.0.72" })).status).toBe(200);
    expect((await sb.client.get("/agent/ip", { token: null, localAddress: ip })).status).toBe(200);
    const account = await sb.account();
    expect((await account.get("/agent", { localAddress: ip })).status).toBe(200);
  });

  it("opens again when the window turns", async () => {
    const ip = "127.0.0.73";
    await spend(120, { token: null, localAddress: ip });
    const refused = await sb.client.get("/check/type", { token: null, localAddress: ip });
    expectRateLimited(refused, 120);
    await sb.advance(refused.body.retryAfter);
    expect((await sb.client.get("/check/type", { token: null, localAddress: ip })).status).toBe(200);
    await sb.advance(300);
    await spend(120, { token: null, localAddress: ip });
  });
});

describe("per-account throttle with a token", () => {
  it("counts an account's calls from every address in one bucket of 120", async () => {
    const account = await sb.account();
    await spend(60, { token: account.token, localAddress: "127.0.0.80" });
    await spend(60, { token: account.token, localAddress: "127.0.0.81" });
    expectRateLimited(await account.get("/monitor/type", { localAddress: "127.0.0.82" }), 120);
    // The address itself is untouched, and so is every other account.
    expect((await sb.client.get("/monitor/type", { token: null, localAddress: "127.0.0.82" })).status).toBe(
      200,
    );
    const other = await sb.account();
    expect((await other.get("/monitor/type", { localAddress: "127.0.0.82" })).status).toBe(200);
    await sb.advance(300);
    expect((await account.get("/monitor/type", { localAddress: "127.0.0.82" })).status).toBe(200);
  });

  it("leaves metered routes to the account quota", async () => {
    const account = await sb.account();
    await spend(120, { token: account.token, localAddress: "127.0.0.83" });
    expect((await account.get("/monitor/type")).status).toBe(429);
    expect((await account.get("/account")).status).toBe(200);
  });
});

describe("GET /agent/ip: its own bucket of 60 per 5 minutes", () => {
  it("answers ratelimit-* headers on every answer and refuses the 61st call", async () => {
    const ip = "127.0.0.90";
    for (let i = 1; i <= 60; i++) {
      const res =
        i % 2
          ? await sb.client.get("/agent/ip", { token: null, localAddress: ip })
          : await sb.client.post("/agent/ip/q", {}, { token: null, localAddress: ip });
      expect(res.status).toBe(200);
      expect(res.headers["ratelimit-limit"]).toBe("60");
      expect(res.headers["ratelimit-remaining"]).toBe(String(60 - i));
      const reset = Number(res.headers["ratelimit-reset"]);
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(300);
    }
    const res = await sb.client.get("/agent/ip", { token: null, localAddress: ip });
    expectRateLimited(res, 60);
    expect(res.headers["ratelimit-limit"]).toBe("60");
    expect(res.headers["ratelimit-remaining"]).toBe("0");
    expect(res.headers["retry-after"]).toBe(res.headers["ratelimit-reset"]);

    // The shared catalogue bucket of the same address is untouched.
    await spend(120, { token: null, localAddress: ip });
    await sb.advance(300);
    const again = await sb.client.get("/agent/ip", { token: null, localAddress: ip });
    expect(again.status).toBe(200);
    expect(again.headers["ratelimit-remaining"]).toBe("59");
  });

  it("sends the headers on refusals too, and counts them", async () => {
    const ip = "127.0.0.91";
    const bad = await sb.client.get("/agent/ip?country=US", { token: null, localAddress: ip });
    expect(bad.status).toBe(422);
    expect(bad.headers["ratelimit-remaining"]).toBe("59");
    const ok = await sb.client.get("/agent/ip", { token: null, localAddress: ip });
    expect(ok.headers["ratelimit-remaining"]).toBe("58");
  });

  it("uses a per-account bucket with a token", async () => {
    const account = await sb.account();
    const first = await account.get("/agent/ip", { localAddress: "127.0.0.92" });
    expect(first.headers["ratelimit-remaining"]).toBe("59");
    const second = await account.get("/agent/ip", { localAddress: "127.0.0.93" });
    expect(second.headers["ratelimit-remaining"]).toBe("58");
    const anonymous = await sb.client.get("/agent/ip", { token: null, localAddress: "127.0.0.93" });
    expect(anonymous.headers["ratelimit-remaining"]).toBe("59");
  });

  it("is the only catalogue that sends ratelimit headers on success", async () => {
    const res = await sb.client.get("/agent", { token: null, localAddress: "127.0.0.94" });
    expect(res.headers["ratelimit-limit"]).toBeUndefined();
  });
});
