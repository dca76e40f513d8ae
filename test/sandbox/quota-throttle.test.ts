import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Anonymous endpoints: 120 calls per 5 minutes per client address, one shared bucket; 429 `rate_limited`. */
let sb: TestSandbox;
const base = 1_900_000_200; // a multiple of 300: the 5-minute window starts here
beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.admin.post("/_sandbox/clock", { now: base });
});
afterAll(() => sb.close());

describe("per-address throttle", () => {
  it("admits 120 anonymous calls from one address, refuses the 121st, and spares other addresses", async () => {
    const ip = "127.0.0.50";
    for (let i = 0; i < 120; i++) {
      const path = i % 2 ? "/problems" : "/problems/not_found";
      expect((await sb.client.get(path, { token: null, localAddress: ip })).status, `call ${i + 1}`).toBe(
        200,
      );
    }
    // The sandbox's seconds tick in real time: 120 calls on a busy machine can take more than one, so the
    // clock is put back to the window's start for the exact retryAfter.
    await sb.setClock(base);
    const res = await sb.client.get("/problems", { token: null, localAddress: ip });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("rate_limited");
    expect(res.body.errors).toEqual([{ limit: 120, window: 300, retryAfter: 300 }]);
    expect(res.headers["retry-after"]).toBe("300");
    expect(res.headers["ratelimit-limit"]).toBe("120");
    expect(res.headers["ratelimit-remaining"]).toBe("0");
    // Another address has its own bucket; a token moves the caller to the account's bucket.
    expect((await sb.client.get("/problems", { token: null, localAddress: "127.0.0.51" })).status).toBe(200);
    expect((await sb.client.get("/problems", { localAddress: ip })).status).toBe(200);
    // The window turns after 5 minutes.
    await sb.advance(300);
    expect((await sb.client.get("/problems", { token: null, localAddress: ip })).status).toBe(200);
  });
});

describe("GET /agent/ip", () => {
  it("has its own bucket of 60 per 5 minutes and always answers ratelimit-* headers", async (t) => {
    const ip = "127.0.0.60";
    const first = await sb.client.get("/agent/ip", { token: null, localAddress: ip });
    if (first.status === 404) t.skip();
    expect(first.status).toBe(200);
    expect(first.headers["ratelimit-limit"]).toBe("60");
    expect(first.headers["ratelimit-remaining"]).toBe("59");
    expect(Number(first.headers["ratelimit-reset"])).toBeGreaterThan(0);
    for (let i = 1; i < 60; i++) await sb.client.get("/agent/ip", { token: null, localAddress: ip });
    const res = await sb.client.get("/agent/ip", { token: null, localAddress: ip });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("rate_limited");
    expect(res.body.errors[0]).toMatchObject({ limit: 60, window: 300 });
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    // The catalogue bucket of the same address is untouched.
    expect((await sb.client.get("/agent/pool", { token: null, localAddress: ip })).status).toBe(200);
  });

  it("the anonymous catalogue endpoints share one bucket per address", async (t) => {
    const ip = "127.0.0.61";
    const probe = await sb.client.get("/agent/pool", { token: null, localAddress: ip });
    if (probe.status === 404) t.skip();
    const paths = ["/agent", "/agent/pool", "/monitor/type", "/contact/type", "/problems"];
    for (let i = 1; i < 120; i++) {
      const res = await sb.client.get(paths[i % paths.length]!, { token: null, localAddress: ip });
      expect(res.status, `${i} ${paths[i % paths.length]}`).toBe(200);
    }
    const res = await sb.client.get("/monitor/type", { token: null, localAddress: ip });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("rate_limited");
  });
});
