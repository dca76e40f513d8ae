import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import {
  type Caller,
  operations,
  type Pacer,
  type RequestSpec,
  type TimeSource,
  VigilClient,
} from "../../src/api/index.ts";
import { type DesiredResource, MemoryStateStore } from "../../src/engine/index.ts";
import { SharePacer } from "../../src/watch/budget.ts";
import { type RunningWatch, startWatch } from "../../src/watch/run.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { freePort, healthz } from "./helpers.ts";
import { applyTo, deliver, MemoryRecords, monitor, webhookSecret } from "./inprocess.ts";

/**
 * Start-up on a metered Business account at the default read budget (10 %: 6 reads a minute, one every
 * (60 s + 1 s) / 6): the first refresh goes at the account's pace, as a plan does, and only then does the
 * budget pace the watcher. The watcher runs in this process on a virtual clock; the pacer's waits pass by
 * themselves, moving it, so every wait shows as time on that clock and none is slept.
 */
let sb: TestSandbox;
const running: { stop(): Promise<void> }[] = [];
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});
afterAll(() => sb?.close());

/** One read every this often at most, once the budget governs: Business's 60 a minute, 10 % of it. */
const shareSpacingMs = 61_000 / 6;

/**
 * A virtual clock: a wait of up to 30 s (the pacers' spacing of calls) passes at once, moving the clock by
 * its length; longer ones (the cadence) end when `advance` passes them. The clock never goes back.
 */
class PacingClock implements TimeSource {
  #now = Date.UTC(2026, 10, 25, 12);
  #timers: { at: number; wake: () => void }[] = [];

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (ms <= 30_000) {
      this.#move(this.#now + ms);
      return new Promise((done) => setImmediate(done));
    }
    return new Promise((resolve, reject) => {
      const timer = { at: this.#now + ms, wake: resolve };
      this.#timers.push(timer);
      signal?.addEventListener(
        "abort",
        () => {
          this.#timers = this.#timers.filter((t) => t !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** Moves the clock by `ms`, waking each wait whose end it passes, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await new Promise((done) => setImmediate(done));
      const next = this.#timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.#move(next.at);
    }
    this.#move(target);
  }

  #move(to: number): void {
    this.#now = Math.max(this.#now, to);
    const due = this.#timers.filter((t) => t.at <= this.#now);
    this.#timers = this.#timers.filter((t) => t.at > this.#now);
    for (const t of due) t.wake();
  }
}

/** Holds the answer of the first listing of monitors until `release()`: the first refresh is then under way. */
function gate() {
  let release!: () => void;
  const released = new Promise<void>((done) => {
    release = done;
  });
  let reached!: () => void;
  const holding = new Promise<void>((done) => {
    reached = done;
  });
  let armed = true;
  return {
    holding,
    release,
    async hold(spec: RequestSpec) {
      if (!armed || !/^(GET \/monitor|POST \/monitor\/q)$/.test(spec.route)) return;
      armed = false;
      reached();
      await released;
    },
  };
}

interface Started {
  watch: RunningWatch;
  time: PacingClock;
  /** When the pacer let each of the watcher's reads go, on the clock. */
  reads: number[];
  transitions: { t: Record<string, any>; readsBefore: number }[];
  logs: string[];
  client: VigilClient;
}

async function start(
  token: string,
  store: MemoryStateStore,
  desired: readonly DesiredResource[],
  options: { hold?: ReturnType<typeof gate>; maxQueued?: number } = {},
): Promise<Started> {
  const time = new PacingClock();
  const share = new SharePacer(0.1, time);
  const reads: number[] = [];
  // The pacer's decisions, as the client meets them: when each read was let go.
  const pacer: Pacer = {
    async acquire(cls, signal) {
      await share.acquire(cls, signal);
      if (cls === "read") reads.push(time.now());
    },
    observe: (cls, status, headers) => share.observe(cls, status, headers),
    prime: (quota) => share.prime(quota),
  };
  const client = new VigilClient({ baseUrl: sb.url, token, time, pacer, retry: { attempts: 1 } });
  await client.prime();
  const caller: Caller = {
    async call(spec) {
      const res = await client.call(spec);
      await options.hold?.hold(spec);
      return res as never;
    },
  };
  const transitions: Started["transitions"] = [];
  const logs: string[] = [];
  const watch = await startWatch({
    ops: operations(caller),
    clientMetrics: client.metrics,
    store,
    records: new MemoryRecords(),
    desired,
    cadence: { everyMs: 5 * 60_000, fullEveryMs: 60 * 60_000 },
    share: 0.1,
    pacing: share,
    time,
    listen: { host: "127.0.0.1", port: await freePort() },
    secret: webhookSecret,
    ...(options.maxQueued !== undefined && { maxQueued: options.maxQueued }),
    out: (line) => transitions.push({ t: JSON.parse(line), readsBefore: reads.length }),
    log: (line) => logs.push(line),
  });
  watch.done.catch((error) => logs.push(`done: ${(error as Error).message}`));
  running.push({
    async stop() {
      options.hold?.release();
      await watch.stop();
      await watch.done.catch(() => {});
      await client.close();
    },
  });
  return { watch, time, reads, transitions, logs, client };
}

const desired: DesiredResource[] = [
  monitor("web"),
  monitor("api"),
  {
    address: "contacts.oncall",
    kind: "contact",
    members: { type: "http", address: "https://hooks.example.com/oncall", name: "On call" },
  },
];

it("goes at the account's pace until the first refresh is over, ready then, and keeps to the budget after", {
  timeout: 60_000,
}, async () => {
  const account = await sb.account({ plan: "business", metered: true });
  const store = new MemoryStateStore();
  await applyTo(sb, account.token, store, desired);
  const hold = gate();
  const w = await start(account.token, store, desired, { hold });
  const startedAt = w.time.now();

  // Half-way through the first refresh: not ready, and /healthz says so.
  await hold.holding;
  expect(w.watch.watcher.ready).toBe(false);
  expect(await healthz(w.watch.url!)).toEqual({
    status: 503,
    body: {
      status: "starting",
      lastSuccessfulRead: null,
      failedRefreshes: 0,
      detail: "the first refresh has not finished",
    },
  });
  hold.release();
  await expect.poll(() => w.watch.watcher.ready, { timeout: 20_000 }).toBe(true);
  const readyAt = w.time.now();
  const first = w.reads.length;
  expect((await healthz(w.watch.url!)).status).toBe(200);

  // GET /account, then the monitors and the contacts: none of them waited for the budget.
  expect(first).toBe(3);
  expect(Math.max(...w.reads) - startedAt).toBeLessThan(shareSpacingMs);
  expect(readyAt - startedAt).toBeLessThan(shareSpacingMs);
  expect(w.client.metrics.snapshot().pacingWaits.totalMs).toBeLessThan(shareSpacingMs);
  const ready = w.logs.find((l) => l.startsWith("Ready (GET /healthz answers 200) after"));
  expect(ready).toContain("the read budget paces the watcher from now on");
  // Ready once the first refresh has been judged: its time is the last full refresh's.
  expect((await w.watch.metrics.lastFull.get()).values[0]?.value).toBe(readyAt / 1000);

  // From now on every read keeps to the share: the next full refresh's reads are a spacing apart at least.
  await w.time.advance(w.watch.watcher.cadence.cadence.fullEveryMs);
  await expect.poll(() => w.reads.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(first + 4);
  const steady = w.reads.slice(first);
  for (let i = 1; i < steady.length; i++)
    expect(steady[i]! - steady[i - 1]!).toBeGreaterThanOrEqual(shareSpacingMs - 1);
});

it("judges an event received during start-up as soon as the first refresh ends, before any poll", {
  timeout: 60_000,
}, async () => {
  const account = await sb.account({ plan: "business", metered: true });
  const store = new MemoryStateStore();
  await applyTo(sb, account.token, store, desired);
  const hold = gate();
  const w = await start(account.token, store, desired, { hold });

  // The monitors are listed; then someone edits one, and its event arrives before the refresh ends.
  await hold.holding;
  const id = store.saved!.resources["monitors.web"]!.id!;
  expect((await account.patch(`/monitor/${id}`, { settings: { timeout: 20000 } })).status).toBe(200);
  const row = (await account.get(`/monitor/${id}`)).body as Record<string, unknown>;
  expect(await deliver(w.watch.url!, webhookSecret, "monitor.updated", row)).toBe(202);
  const deliveredAt = w.time.now();
  expect(w.transitions).toEqual([]);
  hold.release();

  await expect.poll(() => w.transitions.length, { timeout: 20_000 }).toBe(1);
  const [{ t, readsBefore }] = w.transitions as [Started["transitions"][number]];
  expect(t).toMatchObject({
    transition: "drifted",
    address: "monitors.web",
    seenBy: "event",
    members: [{ member: "settings.timeout", before: 10000, after: 20000 }],
  });
  // Right after the first refresh (its 3 reads), with no poll in between, and not a budget's spacing later.
  expect(readsBefore).toBe(3);
  expect(Date.parse(t.time) - deliveredAt).toBeLessThan(shareSpacingMs / 2);
  expect(w.logs.find((l) => l.startsWith("Ready"))).toContain(
    "Judging what events said meanwhile of 1 object(s).",
  );
});

it("holds a bounded number of objects' events during start-up; a full refresh at once covers the rest", {
  timeout: 60_000,
}, async () => {
  const account = await sb.account({ plan: "business", metered: true });
  const store = new MemoryStateStore();
  await applyTo(sb, account.token, store, desired);
  const hold = gate();
  const w = await start(account.token, store, desired, { hold, maxQueued: 1 });

  await hold.holding;
  for (const [name, timeout] of [
    ["web", 20000],
    ["api", 30000],
  ] as const) {
    const id = store.saved!.resources[`monitors.${name}`]!.id!;
    expect((await account.patch(`/monitor/${id}`, { settings: { timeout } })).status).toBe(200);
    const row = (await account.get(`/monitor/${id}`)).body as Record<string, unknown>;
    // Acknowledged either way: what the second says is kept by the full refresh that follows.
    expect(await deliver(w.watch.url!, webhookSecret, "monitor.updated", row)).toBe(202);
  }
  expect(w.logs.filter((l) => l.includes("the most the watcher holds"))).toHaveLength(1);
  hold.release();

  await expect.poll(() => w.transitions.length, { timeout: 20_000 }).toBe(2);
  expect(w.transitions.map(({ t }) => [t.address, t.seenBy, t.members[0].after])).toEqual([
    ["monitors.web", "event", 20000],
    ["monitors.api", "poll", 30000],
  ]);
  // The full refresh ran at once, not at the cadence: at most a budget's spacing per read after ready.
  const ready = w.transitions[0]!.t.time;
  expect(Date.parse(w.transitions[1]!.t.time) - Date.parse(ready)).toBeLessThan(4 * shareSpacingMs);
});
