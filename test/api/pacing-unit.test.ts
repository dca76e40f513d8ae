import { describe, expect, it } from "vitest";
import { QuotaExhaustedError, QuotaPacer } from "../../src/api/pacing.ts";
import type { QuotaClass, TimeSource } from "../../src/api/types.ts";

/** The bucket logic on a fake clock: a sleep moves time at once, so every wait is exact and instant. */
class FakeTime implements TimeSource {
  t = 1_000_000;
  now = () => this.t;
  sleep = async (ms: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw signal.reason;
    await Promise.resolve();
    this.t += ms;
  };
}

/** A clock that stands still: a sleep ends only when the pacer wakes it. */
const frozen: TimeSource = {
  now: () => 1_000_000,
  sleep: (_ms, signal) =>
    new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason))),
};

const minute = 60_000;

/** A `GET /account/quota` body as the sandbox answers it, for one family and its leaves. */
function quotaBody(
  perMinute: { read: number; write: number },
  opts: {
    readRemaining?: number;
    monthRemaining?: number;
    resetAt?: number;
    tokenCap?: number;
    capLeft?: number;
  } = {},
) {
  const row = (scope: string, quota: string, limit: number, windowSec: number, remaining = limit) => ({
    scope,
    quota,
    limit,
    used: limit - remaining,
    remaining,
    resetAt: opts.resetAt ?? 2_000_000,
    windowSec,
    successOnly: windowSec > 60,
  });
  const month = 2_592_000;
  return {
    pools: {
      account: {
        quotas: [
          row("monitor", "read_per_minute", perMinute.read, 60, opts.readRemaining),
          row("monitor", "read_per_month", 10_000, month, opts.monthRemaining),
          row("monitor", "write_per_minute", perMinute.write, 60),
          row("monitor", "write_per_month", 500, month),
          row("monitor:read", "read_per_minute", perMinute.read, 60),
          row("monitor:read", "read_per_month", 10_000, month),
        ],
      },
      check: { quotas: [] },
    },
    ...(opts.tokenCap !== undefined && { tokenCap: opts.tokenCap, tokenCapRemaining: opts.capLeft }),
  };
}

/** Acquires `n` units at once; answers the clock at each grant, in grant order. */
async function burst(pacer: QuotaPacer, time: FakeTime, cls: QuotaClass, n: number) {
  const grants: number[] = [];
  await Promise.all(Array.from({ length: n }, () => pacer.acquire(cls).then(() => grants.push(time.now()))));
  return grants;
}

/** The most grants any `windowMs`-long span holds. */
function densest(grants: number[], windowMs: number): number {
  return Math.max(...grants.map((start) => grants.filter((t) => t >= start && t < start + windowMs).length));
}

describe("QuotaPacer", () => {
  it("leaves classes unpaced when priming shows no window (unmetered account)", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time });
    pacer.prime({ pools: { account: { quotas: [] }, check: { quotas: [] } } });
    const start = time.now();
    const grants = await burst(pacer, time, "read", 200);
    expect(grants).toHaveLength(200);
    expect(Math.max(...grants)).toBe(start);
    expect(await burst(pacer, time, "checkWrite", 50)).toHaveLength(50);
  });

  it("paces a primed class evenly at its tightest window, with the safety margin", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time });
    pacer.prime(quotaBody({ read: 10, write: 5 }));
    const reads = await burst(pacer, time, "read", 25);
    const gaps = reads.slice(1).map((t, i) => t - reads[i]!);
    // 60 s + 1 s safety over 10 calls: one every 6.1 s, never a burst.
    expect(new Set(gaps)).toEqual(new Set([6100]));
    expect(densest(reads, minute)).toBe(10);
    // Writes have their own bucket: not slowed by the reads, paced at 5 a minute.
    const writeStart = time.now();
    const writes = await burst(pacer, time, "write", 6);
    expect(writes[0]).toBe(writeStart);
    expect(writes[5]! - writes[0]!).toBe(5 * 12_200);
  });

  it("after a burst, runs at the quota's own rate while answers guard the window, and never overfills one", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time, burst: { write: 10 } });
    pacer.prime(quotaBody({ read: 60, write: 30 }));
    // The service: fixed windows of aligned minutes, answering at once with each window's room.
    const perWindow = new Map<number, number>();
    const answer = () => {
      const window = Math.floor(time.now() / minute);
      const used = (perWindow.get(window) ?? 0) + 1;
      perWindow.set(window, used);
      pacer.observe("write", 200, {
        "ratelimit-limit": "30",
        "ratelimit-remaining": String(Math.max(0, 30 - used)),
        "ratelimit-reset": String(Math.ceil(((window + 1) * minute - time.now()) / 1000)),
      });
    };
    const start = time.now();
    await Promise.all(Array.from({ length: 150 }, () => pacer.acquire("write").then(answer)));
    expect(Math.max(...perWindow.values())).toBeLessThanOrEqual(30);
    // 150 writes fill five windows: the run ends in the fifth, not after 140 safe intervals of 2.9 s (407 s).
    expect(time.now() - start).toBeLessThan(5 * minute);
  });

  it("serves concurrent waiters first come, first served, and drops an aborted one", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time });
    pacer.prime(quotaBody({ read: 60, write: 30 }));
    const order: number[] = [];
    const abort = new AbortController();
    const waits = Array.from({ length: 8 }, (_, i) =>
      pacer.acquire("read", i === 3 ? abort.signal : undefined).then(
        () => order.push(i),
        (e) => order.push(-i) && e,
      ),
    );
    abort.abort(new Error("gave up"));
    await Promise.all(waits);
    expect(order).toEqual([0, -3, 1, 2, 4, 5, 6, 7]);
  });

  it("keeps the window true from RateLimit headers: a spent window blocks until its reset", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time });
    pacer.prime(quotaBody({ read: 60, write: 30 }));
    await pacer.acquire("read");
    // Another process spent the window: 0 left, it resets in 30 s.
    pacer.observe("read", 200, {
      "ratelimit-limit": "60",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "30",
    });
    const start = time.now();
    await pacer.acquire("read");
    // From the call's sending, plus the 1 s safety margin for the answer's latency.
    expect(time.now() - start).toBe(31_000);
  });

  it("counts calls in flight against the room the headers report", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time, burst: { read: 5 } });
    pacer.prime(quotaBody({ read: 60, write: 30 }));
    for (let i = 0; i < 3; i++) await pacer.acquire("read");
    // Answer to the first: 3 left in the window; the two unanswered calls have spent theirs, so one remains.
    pacer.observe("read", 200, {
      "ratelimit-limit": "60",
      "ratelimit-remaining": "3",
      "ratelimit-reset": "40",
    });
    const start = time.now();
    await pacer.acquire("read");
    expect(time.now()).toBe(start);
    await pacer.acquire("read");
    expect(time.now() - start).toBe(41_000);
  });

  it("learns its windows from RateLimit-Policy when never primed", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time });
    await pacer.acquire("write");
    pacer.observe("write", 200, {
      "ratelimit-limit": "5",
      "ratelimit-remaining": "4",
      "ratelimit-reset": "59",
      "ratelimit-policy":
        'write_per_minute;q=5;w=60;scope="account", write_per_month;q=500;w=2592000;scope="account"',
    });
    const writes = await burst(pacer, time, "write", 3);
    expect(writes[1]! - writes[0]!).toBe(12_200);
    expect(writes[2]! - writes[1]!).toBe(12_200);
  });

  it("lets one probe through at a time until it knows the class, then runs unpaced on an unmetered answer", async () => {
    const pacer = new QuotaPacer({ time: frozen });
    const granted: number[] = [];
    const waits = [0, 1, 2].map((i) => pacer.acquire("read").then(() => granted.push(i)));
    await new Promise((r) => setTimeout(r, 5));
    expect(granted).toEqual([0]);
    pacer.observe("read", 200, {});
    await Promise.all(waits);
    expect(granted).toEqual([0, 1, 2]);
  });

  it("blocks the class until a 429's Retry-After", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time });
    pacer.prime(quotaBody({ read: 60, write: 30 }));
    await pacer.acquire("read");
    pacer.observe("read", 429, { "retry-after": "20" });
    const start = time.now();
    await pacer.acquire("read");
    expect(time.now() - start).toBe(20_000);
    // Other classes are not held back.
    const writeStart = time.now();
    await pacer.acquire("write");
    expect(time.now()).toBe(writeStart);
  });

  it("fails at once instead of waiting out a month (long Retry-After or spent monthly budget)", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time });
    pacer.prime(quotaBody({ read: 60, write: 30 }, { monthRemaining: 2, resetAt: 1_000_000 + 20 * 86_400 }));
    await pacer.acquire("read");
    await pacer.acquire("read");
    const start = time.now();
    const spent = await pacer.acquire("read").catch((e) => e);
    expect(spent).toBeInstanceOf(QuotaExhaustedError);
    expect(spent).toMatchObject({
      quotaClass: "read",
      quota: "read_per_month",
      resetAt: (1_000_000 + 20 * 86_400) * 1000,
    });
    expect(time.now()).toBe(start);

    await pacer.acquire("write");
    pacer.observe("write", 429, {
      "retry-after": "2000000",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "2000000",
    });
    const blocked = await pacer.acquire("write").catch((e) => e);
    expect(blocked).toBeInstanceOf(QuotaExhaustedError);
    expect(blocked.quotaClass).toBe("write");
  });

  it("stops every metered class once the token's cap is spent; anonymous calls go on", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time });
    pacer.prime(quotaBody({ read: 60, write: 30 }, { tokenCap: 10, capLeft: 2 }));
    await pacer.acquire("read");
    await pacer.acquire("write");
    await expect(pacer.acquire("read")).rejects.toMatchObject({ quota: "token_cap", resetAt: undefined });
    await expect(pacer.acquire("checkRead")).rejects.toBeInstanceOf(QuotaExhaustedError);
    await pacer.acquire("anonymous");

    // The service's spent-cap answer (429, no window, no Retry-After) has the same effect unprimed.
    const other = new QuotaPacer({ time });
    await other.acquire("read");
    other.observe("read", 429, { "ratelimit-limit": "1", "ratelimit-remaining": "0" });
    await expect(other.acquire("write")).rejects.toMatchObject({ quota: "token_cap" });
  });

  it("paces anonymous catalogue calls under 120 per 5 minutes, after a small burst", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time });
    const start = time.now();
    const grants = await burst(pacer, time, "anonymous", 250);
    expect(grants.filter((t) => t === start)).toHaveLength(10);
    expect(densest(grants, 5 * minute)).toBeLessThanOrEqual(120);
    expect(densest(grants, 5 * minute)).toBeGreaterThanOrEqual(110);
  });

  it("forgets an unanswered call once its window has passed", async () => {
    const time = new FakeTime();
    const pacer = new QuotaPacer({ time, burst: { read: 5 } });
    pacer.prime(quotaBody({ read: 60, write: 30 }));
    await pacer.acquire("read"); // never answered (a network error)
    await pacer.acquire("read");
    time.t += 61_000;
    pacer.observe("read", 200, {
      "ratelimit-limit": "60",
      "ratelimit-remaining": "1",
      "ratelimit-reset": "50",
    });
    // The lost call no longer counts: the one unit left is there to take at once.
    const start = time.now();
    await pacer.acquire("read");
    expect(time.now()).toBe(start);
  });
});
