import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VigilClient } from "../../src/api/client.ts";
import { QuotaPacer } from "../../src/api/pacing.ts";
import type { TimeSource } from "../../src/api/types.ts";
import type { Client } from "../helpers/sandbox.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/**
 * Time read from the sandbox clock: a sleep advances the sandbox instead of
 * waiting, so ten minutes of quota pass in a second. The sandbox moves in
 * whole seconds only: the part of a sleep under a second is carried to the
 * next one, so `now()` may run up to a second ahead of the sandbox.
 */
class SandboxTime implements TimeSource {
  readonly #admin: Client;
  /** Sandbox milliseconds minus local ones. */
  #offsetMs: number;
  /** Slept but not yet advanced on the sandbox (under a second). */
  #pendingMs = 0;
  #queue: Promise<void> = Promise.resolve();

  private constructor(admin: Client, offsetMs: number) {
    this.#admin = admin;
    this.#offsetMs = offsetMs;
  }

  /** Sets the sandbox clock to `atSec` and reads it from there on. */
  static async start(admin: Client, atSec: number): Promise<SandboxTime> {
    const res = await admin.post("/_sandbox/clock", { now: atSec });
    expect(res.body.now).toBe(atSec);
    return new SandboxTime(admin, atSec * 1000 - Date.now());
  }

  now = () => Date.now() + this.#offsetMs + this.#pendingMs;

  /** Serialised: each sleep advances the sandbox after the one before it. */
  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    this.#queue = this.#queue.then(async () => {
      if (signal?.aborted) return;
      const total = this.#pendingMs + ms;
      const whole = Math.floor(total / 1000);
      this.#pendingMs = total - whole * 1000;
      if (whole === 0) return;
      // Counted before the sandbox moves, so an answer read meanwhile is judged late rather than early.
      this.#offsetMs += whole * 1000;
      const res = await this.#admin.post("/_sandbox/clock", { advanceSec: whole });
      expect(res.status).toBe(200);
    });
    return this.#queue;
  };
}

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("pacing against the sandbox", () => {
  it("100 concurrent reads on a Trial account meet no 429 and take about the quota's time", async () => {
    const acct = await sb.account({ plan: "trial", metered: true });
    const start = 1_900_000_037; // mid-minute: the windows are aligned to the clock, the burst is not
    const time = await SandboxTime.start(sb.admin, start);
    // The test clock's sub-second lag eats up to a second of the default safety margin; give it back.
    const pacer = new QuotaPacer({ time, safetyMs: 2000 });
    const client = new VigilClient({ baseUrl: sb.url, token: acct.token, pacer, time });
    try {
      const quota = await client.call({
        method: "GET",
        path: "/account/quota",
        route: "GET /account/quota",
        quotaClass: "read",
      });
      pacer.prime(quota.body);
      await sb.admin.delete("/_sandbox/stats");

      const answers = await Promise.all(
        Array.from({ length: 100 }, () =>
          client.call({ method: "GET", path: "/account", route: "GET /account", quotaClass: "read" }),
        ),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);

      const stats = (await sb.admin.get("/_sandbox/stats")).body;
      expect(stats.byStatus).toEqual({ "200": 100 });
      expect(client.metrics.snapshot().retries).toBe(0);

      const end = (await sb.admin.post("/_sandbox/clock", {})).body.now as number;
      const elapsed = end - start;
      // 10 reads a minute: 100 reads need at least 9 window turns (540 s); evenly paced with 2 s of slack
      // per window, 99 gaps of 6.2 s (614 s).
      console.log(`Trial burst: 100 reads, 0 × 429, ${elapsed} s of sandbox time`);
      expect(elapsed).toBeGreaterThanOrEqual(540);
      expect(elapsed).toBeLessThanOrEqual(630);
    } finally {
      await client.close();
    }
  });
});
