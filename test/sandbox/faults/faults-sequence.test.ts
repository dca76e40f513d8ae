import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, until } from "../../helpers/clock.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { outcome } from "./helpers.ts";

/** Seeds, rates and latency: the shape of the fault sequence. */
let sb: TestSandbox;
let acct: Client;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterEach(async () => {
  await sb.admin.delete("/_sandbox/faults");
});
afterAll(() => sb.close());

/** The outcomes of `n` sequential reads. */
async function run(n: number, client: Client = acct): Promise<(number | "reset")[]> {
  const out: (number | "reset")[] = [];
  for (let i = 0; i < n; i++) out.push(await outcome(client.get("/account")));
  return out;
}

describe("seeded sequences", () => {
  it("repeat for the same seed, and differ for another", async () => {
    const config = { rate: 0.5, statuses: [429, 500, 502, 503], reset: 0.25 };
    await sb.admin.post("/_sandbox/faults", { ...config, seed: 1234 });
    const first = await run(60);
    await sb.admin.post("/_sandbox/faults", { ...config, seed: 1234 });
    const second = await run(60);
    expect(second).toEqual(first);
    // The sequence is varied: successes, several statuses and resets.
    expect(new Set(first).size).toBeGreaterThanOrEqual(4);
    await sb.admin.post("/_sandbox/faults", { ...config, seed: 4321 });
    expect(await run(60)).not.toEqual(first);
  });

  it("advance per eligible call only: calls to spared routes do not shift the sequence", async () => {
    const config = { rate: 0.5, seed: 99 };
    await sb.admin.post("/_sandbox/faults", config);
    const plain = await run(30);
    await sb.admin.post("/_sandbox/faults", config);
    const interleaved: (number | "reset")[] = [];
    for (let i = 0; i < 30; i++) {
      await sb.admin.get("/_sandbox/stats");
      await sb.client.get("/problems", { token: null });
      interleaved.push(...(await run(1)));
    }
    expect(interleaved).toEqual(plain);
  });
});

describe("rates", () => {
  it("roughly hold over many calls, with before/after and reset shares", async () => {
    const n = 600;
    await sb.admin.post("/_sandbox/faults", { rate: 0.3, reset: 0.5, seed: 2026 });
    const outcomes = await run(n);
    const faulted = outcomes.filter((o) => o !== 200).length;
    expect(faulted / n).toBeGreaterThan(0.22);
    expect(faulted / n).toBeLessThan(0.38);
    const resets = outcomes.filter((o) => o === "reset").length;
    expect(resets / faulted).toBeGreaterThan(0.35);
    expect(resets / faulted).toBeLessThan(0.65);
    const { injected } = (await sb.admin.get("/_sandbox/faults")).body;
    expect(injected.before + injected.after).toBe(faulted);
    expect(injected.reset).toBe(resets);
    expect(injected.before / faulted).toBeGreaterThan(0.35);
    expect(injected.before / faulted).toBeLessThan(0.65);
    // Only the configured statuses appear.
    for (const o of outcomes) expect([200, 500, 502, 503, "reset"]).toContain(o);
  });

  it("rate 0 faults nothing and rate 1 faults everything", async () => {
    await sb.admin.post("/_sandbox/faults", { rate: 0 });
    expect(new Set(await run(50))).toEqual(new Set([200]));
    await sb.admin.post("/_sandbox/faults", { rate: 1 });
    expect((await run(50)).includes(200)).toBe(false);
  });

  it("answer 429 only before the call: with after faults, it is never drawn", async () => {
    await sb.admin.post("/_sandbox/faults", { rate: 1, statuses: [429, 503], seed: 5 });
    const outcomes = await run(80);
    const { injected } = (await sb.admin.get("/_sandbox/faults")).body;
    expect(injected.after).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o === 503).length).toBeGreaterThanOrEqual(injected.after);
    // A list of only 429 makes every fault a before fault.
    await sb.admin.post("/_sandbox/faults", { rate: 1, statuses: [429] });
    expect(new Set(await run(20))).toEqual(new Set([429]));
    expect((await sb.admin.get("/_sandbox/faults")).body.injected).toEqual({
      before: 20,
      after: 0,
      reset: 0,
    });
  });
});

describe("latency", () => {
  // A sandbox of its own on a clock the test moves: the latency is a wait on the sandbox's time.
  const time = new ManualClock(Date.now());
  let slow: TestSandbox;
  let client: Client;
  beforeAll(async () => {
    slow = await startTestSandbox({ time });
    client = await slow.account();
  });
  afterAll(() => slow.close());

  /** Whether `call` answers only once the clock has moved `ms`: false when it answers with the clock still. */
  async function delayed(call: () => Promise<unknown>, ms: number): Promise<boolean> {
    let answered = false;
    const done = call()
      .catch(() => {})
      .finally(() => {
        answered = true;
      });
    await until(() => answered || time.waits().includes(ms));
    if (answered) return false;
    await time.advance(ms - 1);
    expect(answered, "answered before its latency was over").toBe(false);
    await time.advance(1);
    await done;
    return true;
  }

  it("is added to every eligible call, faulted or not, and to no spared one", async () => {
    await slow.admin.post("/_sandbox/faults", { rate: 0, latencyMs: 300 });
    expect(await delayed(() => client.get("/account"), 300)).toBe(true);
    expect(await delayed(() => slow.admin.get("/_sandbox/stats"), 300)).toBe(false);
    await slow.admin.post("/_sandbox/faults", { rate: 1, when: "before", latencyMs: 300 });
    expect(await delayed(() => client.get("/account"), 300)).toBe(true);
    await slow.admin.delete("/_sandbox/faults");
    expect(await delayed(() => client.get("/account"), 300)).toBe(false);
  });
});
