/**
 * The fleet's figures (issue 30):
 *
 *   npm run bench:fleet [-- --accounts 200 --monitors 50 --workers 4 --concurrency 4
 *                          --metered-accounts 8 --metered-windows 45 --sections 1,2]
 *
 * 1. `--accounts` accounts of `--monitors` monitors applied by `--workers` worker processes, against the same
 *    fleet applied one account after another (one worker, one job at a time), in the same run on fresh
 *    accounts and a fresh state: the wall times and their ratio; per account, the time from enqueue to its
 *    reconcile (p50, p99, max); the queue's lag (p50, p99); the peak RSS of each worker.
 * 2. `--metered-accounts` accounts on the Business plan (60 reads and 30 writes a minute), metered, on the
 *    same workers, each applying `--monitors` monitors and `--metered-windows` maintenance windows. Monitors
 *    go in bulk (one write for all of them); a maintenance window has no bulk route, so each is one write,
 *    and an account's apply needs about windows / 30 minutes: paced by its quota. Per account: its reads
 *    and writes a minute against the quota over its job's span (utilisation), and the 429s met; the
 *    workers' and the sandbox's CPU busy share over the section. High utilisation with idle workers says
 *    the quota, not the workers, is the limit.
 *
 * PostgreSQL is a throwaway cluster; the sandbox runs in its own process; workers and `vigil fleet` are the
 * real CLI.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  type LoggedRequest,
  loggingProxy,
  monitorsYaml,
  runFleetCli,
  startWorkerProcess,
  until,
  type WorkerProcess,
  writeFleet,
} from "../test/fleet/helpers.ts";
import { startPostgres } from "../test/helpers/postgres.ts";
import { percentile, startSandbox } from "./lib.ts";

const { values: args } = parseArgs({
  options: {
    accounts: { type: "string", default: "200" },
    monitors: { type: "string", default: "50" },
    workers: { type: "string", default: "4" },
    concurrency: { type: "string", default: "4" },
    "metered-accounts": { type: "string", default: "8" },
    "metered-windows": { type: "string", default: "45" },
    sections: { type: "string", default: "1,2" },
  },
});
const accountCount = Number(args.accounts);
const monitorCount = Number(args.monitors);
const workerCount = Number(args.workers);
const concurrency = Number(args.concurrency);
const sections = new Set(args.sections.split(",").map(Number));
const meteredWindows = Number(args["metered-windows"]);
for (const [flag, n] of Object.entries({
  accountCount,
  monitorCount,
  workerCount,
  concurrency,
  meteredWindows,
}))
  if (!Number.isInteger(n) || n < (flag === "meteredWindows" ? 0 : 1)) throw new Error(`bad --${flag}: ${n}`);

const pg = await startPostgres();
const sandbox = await startSandbox({ data: false, connections: 64 });

interface Result {
  account: string;
  ok: boolean;
  message?: string;
  finishedAt: string;
  lagSeconds: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** CPU seconds a process has used so far (Linux: utime + stime, at the kernel's USER_HZ of 100). */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** `count` one-hour maintenance windows on monitor m0, each a single write (the API has no bulk route). */
function windowsYaml(count: number): string {
  const lines = ["maintenance:"];
  const start = Date.UTC(2030, 0, 6, 2) / 1000;
  for (let i = 0; i < count; i++)
    lines.push(
      `  w${i}:`,
      `    name: Window ${i}`,
      `    from: ${start + i * 86_400}`,
      `    to: ${start + i * 86_400 + 3600}`,
      "    monitors: [m0]",
    );
  return `${lines.join("\n")}\n`;
}

/** Peak resident set of a process so far (Linux: VmHWM), in MiB. */
function peakRssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

async function accounts(n: number, prefix: string, body: Record<string, unknown>) {
  const made: { name: string; token: string }[] = [];
  for (let i = 0; i < n; i++) {
    const { token } = (await sandbox.call("POST", "/_sandbox/accounts", sandbox.adminToken, body)) as {
      token: string;
    };
    made.push({ name: `${prefix}-${String(i).padStart(3, "0")}`, token });
  }
  return made;
}

/** One fleet apply of fresh accounts on `workers` workers of `jobs` jobs each; the run's figures. */
async function run(
  label: string,
  schema: string,
  fleetAccounts: { name: string; token: string }[],
  workers: number,
  jobs: number,
  log?: LoggedRequest[],
  config?: string,
) {
  const stateUrl = pg.url(schema);
  const env: Record<string, string> = { VIGIL_ENDPOINT: sandbox.url };
  for (const a of fleetAccounts) env[`TOKEN_${a.name.replaceAll("-", "_")}`] = a.token;
  const started: WorkerProcess[] = [];
  const proxies: Awaited<ReturnType<typeof loggingProxy>>[] = [];
  for (let i = 0; i < workers; i++) {
    // With a log, each worker reaches the sandbox through a proxy that records its requests.
    const proxy = log ? await loggingProxy(sandbox.url, `w${i}`, log) : undefined;
    if (proxy) proxies.push(proxy);
    started.push(
      startWorkerProcess(["--state", stateUrl, "--concurrency", String(jobs)], {
        ...env,
        ...(proxy && { VIGIL_ENDPOINT: proxy.url }),
      }),
    );
  }
  for (const w of started) await until(() => w.log().includes("Worker ready"), "a worker to start", 60_000);
  const { file } = await writeFleet(
    fleetAccounts.map((a) => ({ name: a.name, monitors: monitorCount, ...(config && { config }) })),
  );
  const pids = [...started.map((w) => w.child.pid), sandbox.pid];
  const cpuBefore = pids.map(cpuSeconds);
  const t0 = Date.now();
  const applied = await runFleetCli(["apply", file, "--state", stateUrl, "--json"], {});
  const wallMs = Date.now() - t0;
  const cpu = pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]!);
  const results = (JSON.parse(applied.stdout) as { accounts: Result[] }).accounts;
  const rss = started.map((w) => peakRssMiB(w.child.pid));
  for (const w of started) w.child.kill("SIGTERM");
  await Promise.all(started.map((w) => w.exited));
  await Promise.all(proxies.map((p) => p.close()));
  const failed = results.filter((r) => !r.ok);
  const reconcile = results.map((r) => Date.parse(r.finishedAt) - t0);
  const lags = results.map((r) => r.lagSeconds * 1000);
  console.log(
    `${label}: ${results.length - failed.length}/${results.length} accounts in ${seconds(wallMs)}; ` +
      `time to first reconcile p50 ${seconds(percentile(reconcile, 50))}, p99 ${seconds(percentile(reconcile, 99))}, max ${seconds(Math.max(...reconcile))}; ` +
      `queue lag p50 ${seconds(percentile(lags, 50))}, p99 ${seconds(percentile(lags, 99))}; ` +
      `peak RSS per worker ${rss.map((m) => `${m.toFixed(0)} MiB`).join(", ")}`,
  );
  for (const f of failed.slice(0, 3)) console.log(`  failed: ${f.account}: ${f.message}`);
  const busy = (s: number) => `${((100 * s) / (wallMs / 1000)).toFixed(0)}%`;
  console.log(
    `  CPU busy share over the run (CPU time / wall time, 100% = one core): workers ${cpu
      .slice(0, -1)
      .map(busy)
      .join(", ")}; sandbox ${busy(cpu.at(-1)!)}`,
  );
  return { wallMs, results };
}

try {
  console.log(
    `fleet bench: ${accountCount} accounts x ${monitorCount} monitors; ${workerCount} workers x ${concurrency} jobs`,
  );
  if (sections.has(1)) {
    const parallel = await run(
      `${workerCount} workers`,
      "bench_parallel",
      await accounts(accountCount, "p", { plan: "enterprise", metered: false }),
      workerCount,
      concurrency,
    );
    const serial = await run(
      "one after another",
      "bench_serial",
      await accounts(accountCount, "s", { plan: "enterprise", metered: false }),
      1,
      1,
    );
    console.log(
      `ratio: one after another / ${workerCount} workers = ${(serial.wallMs / parallel.wallMs).toFixed(2)}x`,
    );
  }
  if (sections.has(2)) {
    const metered = await accounts(Number(args["metered-accounts"]), "q", {
      plan: "business",
      metered: true,
    });
    const quota = (await sandbox.call("GET", "/account/quota", metered[0]!.token)) as {
      pools: Record<string, { quotas: { scope: string; quota: string; limit: number; windowSec: number }[] }>;
    };
    // The account pool's per-minute windows (the `check` pool, for instant checks, has its own).
    const perMinute = new Map(
      (quota.pools.account?.quotas ?? []).filter((q) => q.windowSec === 60).map((q) => [q.quota, q.limit]),
    );
    const readLimit = perMinute.get("read_per_minute") ?? Number.NaN;
    const writeLimit = perMinute.get("write_per_minute") ?? Number.NaN;
    console.log(
      `metered: ${metered.length} Business accounts of ${monitorCount} monitors and ${meteredWindows} maintenance windows; quota ${readLimit} reads and ${writeLimit} writes a minute`,
    );
    const log: LoggedRequest[] = [];
    const { results } = await run(
      `metered (Business) on ${workerCount} workers`,
      "bench_metered",
      metered,
      workerCount,
      concurrency,
      log,
      monitorsYaml(monitorCount) + windowsYaml(meteredWindows),
    );
    const utilisation: number[] = [];
    let throttled = 0;
    // The service counts in aligned minutes: per account, its calls in each clock minute it was busy.
    const byMinute = (calls: LoggedRequest[]) => {
      const counts = new Map<number, number>();
      for (const c of calls)
        counts.set(Math.floor(c.start / 60_000), (counts.get(Math.floor(c.start / 60_000)) ?? 0) + 1);
      return [...counts.entries()].sort(([a], [b]) => a - b).map(([, n]) => n);
    };
    for (const r of results) {
      const token = metered.find((a) => a.name === r.account)!.token;
      const mine = log.filter((l) => l.token === token);
      if (mine.length === 0) continue;
      const span = (Math.max(...mine.map((l) => l.end)) - Math.min(...mine.map((l) => l.start))) / 60_000;
      const writes = mine.filter((l) => l.method !== "GET" && l.method !== "HEAD");
      const reads = mine.filter((l) => l.method === "GET" || l.method === "HEAD");
      const met429 = mine.filter((l) => l.status === 429).length;
      throttled += met429;
      const writeMinutes = byMinute(writes);
      // The busiest minute's writes against the quota: 100% means the quota was the limit there.
      const use = Math.max(...writeMinutes) / writeLimit;
      utilisation.push(use);
      console.log(
        `  ${r.account}: ${reads.length} reads, ${writes.length} writes in ${(span * 60).toFixed(1)} s; ` +
          `per clock minute: reads ${byMinute(reads).join(", ")} of ${readLimit}, writes ${writeMinutes.join(", ")} of ${writeLimit} ` +
          `(busiest minute ${(100 * use).toFixed(0)}% of the write quota); mean ${(writes.length / span).toFixed(1)} writes/min; 429s: ${met429}`,
      );
    }
    console.log(
      `  write quota used in each account's busiest minute: p50 ${(100 * percentile(utilisation, 50)).toFixed(0)}%, min ${(100 * Math.min(...utilisation)).toFixed(0)}%; 429s met in all: ${throttled}`,
    );
  }
} finally {
  await sandbox.stop();
  await pg.stop();
}
