/**
 * Plumbing shared by the benchmarks: the real CLI (`vigil sandbox`) started as
 * its own process, a pooled JSON client for it, seeding in batches, and a
 * client time source driven by the sandbox clock (also used by the tests).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Pool } from "undici";
import type { Pacer } from "../src/api/index.ts";
import type { TimeSource } from "../src/api/types.ts";
import type { DesiredResource } from "../src/engine/index.ts";
import { plans } from "../src/sandbox/core/plans.ts";
import type { RecordStore, WatchRecord } from "../src/watch/record.ts";

export async function startSandbox(options: {
  /** Keep the sandbox in a SQLite data file in a temporary folder instead of in memory. */
  data: boolean;
  /** Connections of the client pool. */
  connections: number;
  /** More CLI flags. */
  flags?: string[];
}) {
  const dataDir = options.data ? mkdtempSync(join(tmpdir(), "vigil-bench-")) : undefined;
  const cli = join(import.meta.dirname, "../src/cli/main.ts");
  const child = spawn(
    process.execPath,
    [
      "--disable-warning=ExperimentalWarning",
      cli,
      "sandbox",
      "--port",
      "0",
      ...(options.flags ?? []),
      ...(dataDir ? ["--data", join(dataDir, "sandbox.db")] : []),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [firstLine] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
  const { url, adminToken } = JSON.parse(firstLine) as { url: string; adminToken: string };

  const pool = new Pool(url, { connections: options.connections });
  /** One API call; throws on any answer of 300 or above. */
  async function call(method: string, path: string, token: string, body?: unknown) {
    const res = await pool.request({
      method: method as "GET",
      path,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text);
  }

  return {
    url,
    adminToken,
    /** The sandbox's process, for its CPU time. */
    pid: child.pid,
    call,
    /** An enterprise account without quotas: metering would answer 429 long before any load (docs/sandbox.md). */
    async unmeteredAccount(): Promise<string> {
      const { token } = await call("POST", "/_sandbox/accounts", adminToken, {
        plan: "enterprise",
        metered: false,
      });
      return token;
    },
    async stop() {
      await pool.close();
      child.kill("SIGTERM");
      await once(child, "exit");
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `each(0 .. count-1)` 64 at a time; the results in order. */
export async function inBatches<T>(count: number, each: (n: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let next = 0; next < count; ) {
    const batch = Array.from({ length: Math.min(64, count - next) }, (_, i) => next + i);
    next += batch.length;
    results.push(...(await Promise.all(batch.map(each))));
  }
  return results;
}

/** `POST /_sandbox/clock` with the admin token; answers the sandbox's `now` in seconds and throws on failure. */
export type SandboxClock = (body: { now?: number; advanceSec?: number }) => Promise<number>;

/**
 * Time read from the sandbox clock: a sleep advances the sandbox instead of
 * waiting, so ten minutes of quota pass in a second. The sandbox moves in
 * whole seconds only: the part of a sleep under a second is carried to the
 * next one, so `now()` may run up to a second ahead of the sandbox.
 */
export class SandboxTime implements TimeSource {
  readonly #clock: SandboxClock;
  /** Sandbox milliseconds minus local ones. */
  #offsetMs: number;
  /** Slept but not yet advanced on the sandbox (under a second). */
  #pendingMs = 0;
  #queue: Promise<void> = Promise.resolve();

  private constructor(clock: SandboxClock, offsetMs: number) {
    this.#clock = clock;
    this.#offsetMs = offsetMs;
  }

  /** Sets the sandbox clock to `atSec` and reads it from there on. */
  static async start(clock: SandboxClock, atSec: number): Promise<SandboxTime> {
    const now = await clock({ now: atSec });
    if (now !== atSec) throw new Error(`sandbox clock set to ${atSec} reads ${now}`);
    return new SandboxTime(clock, atSec * 1000 - Date.now());
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
      await this.#clock({ advanceSec: whole });
    });
    return this.#queue;
  };
}

/** Calls the service meters as reads: every GET, and the POST twins of lists and lookups. */
const isRead = (route: string) =>
  route.startsWith("GET ") || /^POST .*\/(q|validate-cron|resolve)$/.test(route);

/**
 * The API calls a sandbox counted (`/_sandbox/stats`) while `run` ran, as the service meters them: reads and
 * writes, and the statuses answered. The sandbox's own routes are not counted.
 */
export async function countCalls(
  admin: { get(path: string): Promise<{ body: unknown }>; delete(path: string): Promise<unknown> },
  run: () => Promise<unknown>,
): Promise<{
  seconds: number;
  reads: number;
  writes: number;
  statuses: Record<string, number>;
  byRoute: Record<string, number>;
}> {
  await admin.delete("/_sandbox/stats");
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  const stats = (await admin.get("/_sandbox/stats")).body as {
    byRoute: Record<string, number>;
    byStatus: Record<string, number>;
  };
  let reads = 0;
  let writes = 0;
  const byRoute: Record<string, number> = {};
  for (const [route, n] of Object.entries(stats.byRoute)) {
    if (route.includes("/_sandbox/")) continue;
    byRoute[route] = n;
    if (isRead(route)) reads += n;
    else writes += n;
  }
  return { seconds, reads, writes, statuses: stats.byStatus, byRoute };
}

/** The options every provider bench (Terraform, Pulumi) takes: the account's plan and metering, the write modes, `--routes`. */
export const providerBenchOptions = {
  monitors: { type: "string", default: "200" },
  modes: { type: "string", default: "batched,baseline" },
  metered: { type: "boolean", default: false },
  routes: { type: "boolean", default: false },
  plan: { type: "string" },
} as const;

/** The plan a provider bench runs on: `--plan`, else business when metered (its quotas apply), else enterprise. */
export const benchPlan = (args: { plan?: string; metered: boolean }) =>
  (args.plan ?? (args.metered ? "business" : "enterprise")) as keyof typeof plans;

/** The size of the large account (`largeConfig`), as the engine and state benches take it. */
export const largeAccountOptions = {
  monitors: { type: "string", default: "10000" },
  contacts: { type: "string", default: "1000" },
  subscriptions: { type: "string", default: "10000" },
} as const;

/** The value `p` percent of `values` are at or under (nearest rank); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** The middle value (the upper one of an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** A watcher's record kept in memory, as it is: the benches run without a record file. */
export class MemoryRecords implements RecordStore {
  readonly description = "memory";
  saved: WatchRecord | undefined;
  async load() {
    return this.saved;
  }
  async save(record: WatchRecord) {
    this.saved = record;
  }
}

/** Writes batched (the providers' default) or one per resource (`VIGIL_BATCH_WRITES=off`, the baseline). */
export type WriteMode = "batched" | "baseline";

export function modesOf(list: string): WriteMode[] {
  const modes = list.split(",").map((m) => m.trim());
  for (const m of modes)
    if (m !== "batched" && m !== "baseline") throw new Error(`--modes takes batched and baseline, not ${m}`);
  return modes as WriteMode[];
}

/** One measured step of a provider bench. */
export interface Measured {
  mode: string;
  step: string;
  /** Resources the step is about: items per write are these over the writes. */
  resources: number;
  seconds: number;
  reads: number;
  writes: number;
  statuses: Record<string, number>;
  /** The calls by route, printed under the table with `--routes`. */
  byRoute?: Record<string, number>;
  /** The quota windows when the step began (a metered account). */
  room?: QuotaRoom;
  /** More columns, by name, in the same order on every row. */
  extra?: [string, string][];
}

/** Per class, the room left in the account's minute window and the seconds until the window turns. */
export type QuotaRoom = Record<"read" | "write", { room: number; resetInSec: number }>;

/**
 * The minute windows as a step begins, from `GET /account/quota` (which spends nothing) and the sandbox
 * clock: per class, the least room of any scope of the account pool, as the providers' pacer meters it.
 */
export async function quotaRoom(
  account: { get(path: string): Promise<{ body: unknown }> },
  admin: { post(path: string, body: unknown): Promise<{ body: unknown }> },
): Promise<QuotaRoom> {
  const now = ((await admin.post("/_sandbox/clock", {})).body as { now: number }).now;
  const quota = (await account.get("/account/quota")).body as {
    pools: { account: { quotas: { quota: string; remaining: number; resetAt: number }[] } };
  };
  const of = (cls: "read" | "write") => {
    const rows = quota.pools.account.quotas.filter((q) => q.quota === `${cls}_per_minute`);
    return {
      room: Math.min(...rows.map((q) => q.remaining)),
      resetInSec: Math.max(0, Math.max(...rows.map((q) => q.resetAt)) - now),
    };
  };
  return { read: of("read"), write: of("write") };
}

/**
 * The earliest the fixed minute windows admit `calls` calls of a class, from the room the step began with:
 * what fits the current window goes at once, the rest at the turns of the windows after it.
 */
function windowBound(calls: number, perMinute: number, at: QuotaRoom["read"]): number {
  if (calls <= at.room) return 0;
  return at.resetInSec + 60 * (Math.ceil((calls - at.room) / perMinute) - 1);
}

/** Calls a minute of a plan's account quotas, from the sandbox's plan table. */
export function quotaOptimum(plan: keyof typeof plans) {
  const { readPerMinute, writePerMinute } = plans[plan].quotas.account;
  return { readPerMinute, writePerMinute };
}

/**
 * Prints the steps as a table: wall time, reads, writes, 429s, resources per write, and (on a metered
 * account) two quota-limited optima for the calls made, whichever class is the tighter:
 * - at the quota's rate: the calls over the plan's calls a minute (the issue's yardstick);
 * - in the service's windows: the earliest its fixed minute windows admit them, from the room and the
 *   window's phase the step began with (a window's room can go at once, so this is the lower of the two
 *   whenever the calls fit in a window or two). Neither counts the host's own waits (Terraform's refresh
 *   before its deletes, each wave waiting for the one before it).
 */
export function printTable(rows: readonly Measured[], quota?: ReturnType<typeof quotaOptimum>): void {
  const header = [
    "writes",
    "step",
    "wall time",
    "API reads",
    "API writes",
    "429s",
    "resources/write",
    ...(quota ? ["optimum at rate", "wall/rate", "optimum in windows", "wall/windows"] : []),
    ...(rows[0]?.extra ?? []).map(([name]) => name),
    "statuses",
  ];
  const table = rows.map((r) => {
    const optimum = quota
      ? Math.max(r.writes / quota.writePerMinute, r.reads / quota.readPerMinute) * 60
      : undefined;
    const windows =
      quota && r.room
        ? Math.max(
            windowBound(r.writes, quota.writePerMinute, r.room.write),
            windowBound(r.reads, quota.readPerMinute, r.room.read),
          )
        : undefined;
    const ratio = (of: number | undefined) => (of ? `${(r.seconds / of).toFixed(2)}×` : "-");
    return [
      r.mode,
      r.step,
      `${r.seconds.toFixed(1)} s`,
      String(r.reads),
      String(r.writes),
      String(r.statuses["429"] ?? 0),
      r.writes > 0 ? (r.resources / r.writes).toFixed(1) : "-",
      ...(optimum !== undefined
        ? [
            `${optimum.toFixed(0)} s`,
            ratio(optimum),
            windows === undefined ? "-" : `${windows.toFixed(0)} s`,
            ratio(windows),
          ]
        : []),
      ...(r.extra ?? []).map(([, value]) => value),
      Object.entries(r.statuses)
        .map(([status, n]) => `${status}×${n}`)
        .join(" "),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  for (const row of [header, widths.map((w) => "-".repeat(w)), ...table])
    console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
}

/** Each step's calls by route, most first: where the reads and writes of the table went. */
export function printRoutes(rows: readonly Measured[]): void {
  for (const r of rows) {
    const routes = Object.entries(r.byRoute ?? {}).sort(([, a], [, b]) => b - a);
    console.log(`\n${r.mode}, ${r.step}: ${routes.map(([route, n]) => `${route} ×${n}`).join(", ")}`);
  }
}

/** Job polls honour `Retry-After`, capped: an unmetered account has no quota to respect. */
export const cappedPolls: TimeSource = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      setTimeout(resolve, Math.min(ms, 100));
    }),
};
export const noPacing: Pacer = { acquire: async () => {}, observe: () => {} };

/** An http monitor at `monitors.<tag>-<n>`. */
export const benchMonitor = (tag: string, n: number): DesiredResource => ({
  address: `monitors.${tag}-${n}`,
  kind: "monitor",
  members: {
    type: "http",
    name: `${tag} ${n}`,
    url: `https://${tag}-${n}.example.com/health`,
    locations: { pools: ["allworld"] },
  },
});

/**
 * A large account: `monitors` monitors tagged `tag`, `contacts` http contacts, and `subscriptions` alert
 * subscriptions: monitor i to contact (i mod contacts), then (i+1 mod contacts)...
 */
export function largeConfig(counts: {
  tag: string;
  monitors: number;
  contacts: number;
  subscriptions: number;
}): DesiredResource[] {
  const monitors = Array.from({ length: counts.monitors }, (_, n) => benchMonitor(counts.tag, n));
  const contacts = Array.from(
    { length: counts.contacts },
    (_, n): DesiredResource => ({
      address: `contacts.bench-${n}`,
      kind: "contact",
      members: { type: "http", name: `Bench hook ${n}`, address: `https://hooks-${n}.example.com/alert` },
    }),
  );
  const subscriptions = Array.from({ length: counts.subscriptions }, (_, s): DesiredResource => {
    const m = s % counts.monitors;
    const c = (m + Math.floor(s / counts.monitors)) % counts.contacts;
    return {
      address: `alertSubscriptions.bench-${m}-${c}`,
      kind: "alertSubscription",
      members: {
        monitorId: { $ref: `monitors.${counts.tag}-${m}` },
        contactId: { $ref: `contacts.bench-${c}` },
        alertTypes: ["down", "up"],
      },
    };
  });
  return [...contacts, ...monitors, ...subscriptions];
}

/** A port nothing listens on now, for a process the bench starts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}
