/**
 * Throughput of `GET /monitor/{id}` through `VigilClient`, and the same
 * requests with raw undici, at concurrency 1, 8 and 32: the client's overhead.
 * Then the Trial burst: 100 concurrent reads paced by the client's own quota
 * pacer on a metered Trial account, with the 429s the sandbox counted.
 *
 *   npm run bench:client [-- --duration 3 --monitors 200]
 *
 * The sandbox is the real CLI in its own process. The throughput runs use an
 * unmetered account, so no quota paces the calls and the client gets a
 * pass-through pacer: what is measured is the transport, retry loop, metrics
 * and error mapping. The Trial burst runs on the sandbox clock, so its ten
 * minutes of quota pass in seconds.
 */
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { type Pacer, VigilClient } from "../src/api/index.ts";
import { QuotaPacer } from "../src/api/pacing.ts";
import { inBatches, SandboxTime, startSandbox } from "./lib.ts";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "3" },
    monitors: { type: "string", default: "200" },
  },
});
const durationMs = Number(args.duration) * 1000;
const concurrencies = [1, 8, 32];

const sandbox = await startSandbox({ data: false, connections: 32 });
const token = await sandbox.unmeteredAccount();
const created = await inBatches(Number(args.monitors), (n) =>
  sandbox.call("POST", "/monitor", token, {
    type: "http",
    url: `https://bench-client-${n}.example.com/`,
    locations: { pools: ["allworld"] },
  }),
);
const ids: string[] = created.map((m) => m.id);
const pick = () => ids[Math.floor(Math.random() * ids.length)]!;

/**
 * Runs `concurrency` loops of `one()` for the duration; answers requests per
 * second and this process's CPU time per request in microseconds. The sandbox
 * is the bottleneck on one machine, so the CPU time is the sharper measure of
 * what the client adds.
 */
async function drive(concurrency: number, one: () => Promise<void>): Promise<{ rps: number; cpuUs: number }> {
  // Warm the connections first so both sides start with open sockets.
  await Promise.all(Array.from({ length: concurrency }, one));
  let done = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const end = start + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await one();
        done++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { rps: done / seconds, cpuUs: (used.user + used.system) / done };
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

const passThrough: Pacer = { acquire: async () => {}, observe: () => {} };
const client = new VigilClient({ baseUrl: sandbox.url, token, pacer: passThrough, connections: 32 });
const raw = new Pool(sandbox.url, { connections: 32, pipelining: 1 });

const rounds = 3;
const rows: Record<string, number | string>[] = [];
for (const concurrency of concurrencies) {
  const rawRuns: { rps: number; cpuUs: number }[] = [];
  const clientRuns: { rps: number; cpuUs: number }[] = [];
  // Alternate the two sides so that the sandbox's warm-up and drift fall on both alike.
  for (let round = 0; round < rounds; round++) {
    rawRuns.push(
      await drive(concurrency, async () => {
        const res = await raw.request({
          method: "GET",
          path: `/monitor/${pick()}`,
          headers: { authorization: `Bearer ${token}` },
        });
        const body = JSON.parse(await res.body.text());
        if (res.statusCode !== 200 || !body.id) throw new Error(`raw: ${res.statusCode}`);
      }),
    );
    clientRuns.push(
      await drive(concurrency, async () => {
        await client.call({
          method: "GET",
          path: `/monitor/${pick()}`,
          route: "GET /monitor/{id}",
          quotaClass: "read",
        });
      }),
    );
  }
  const clientRps = median(clientRuns.map((r) => r.rps));
  const rawRps = median(rawRuns.map((r) => r.rps));
  const clientCpu = median(clientRuns.map((r) => r.cpuUs));
  const rawCpu = median(rawRuns.map((r) => r.cpuUs));
  rows.push({
    concurrency,
    "client req/s": Math.round(clientRps),
    "raw req/s": Math.round(rawRps),
    "throughput cost": `${(((rawRps - clientRps) / rawRps) * 100).toFixed(1)} %`,
    "client CPU µs/req": Math.round(clientCpu),
    "raw CPU µs/req": Math.round(rawCpu),
  });
}

const stats = client.metrics.snapshot();
await client.close();
await raw.close();

/** The Trial burst of issue 4: what the sandbox counted, what the client retried, and how long it took. */
async function trialBurst() {
  const reads = 100;
  const admin = (method: string, path: string, body?: unknown) =>
    sandbox.call(method, path, sandbox.adminToken, body);
  const { token: trialToken } = await admin("POST", "/_sandbox/accounts", { plan: "trial", metered: true });
  const start = 1_900_000_037; // mid-minute: the quota windows are aligned to the clock, the burst is not
  const time = await SandboxTime.start(
    async (body) => (await admin("POST", "/_sandbox/clock", body)).now,
    start,
  );
  // As in test/api/pacing.test.ts: the sandbox clock's sub-second lag eats up to a second of the default safety margin.
  const pacer = new QuotaPacer({ time, safetyMs: 2000 });
  const trial = new VigilClient({ baseUrl: sandbox.url, token: trialToken, pacer, time });
  try {
    await trial.prime();
    await admin("DELETE", "/_sandbox/stats");
    const answers = await Promise.all(
      Array.from({ length: reads }, () =>
        trial.call({ method: "GET", path: "/account", route: "GET /account", quotaClass: "read" }),
      ),
    );
    const end: number = (await admin("POST", "/_sandbox/clock", {})).now;
    const byStatus: Record<string, number> = (await admin("GET", "/_sandbox/stats")).byStatus;
    const metrics = trial.metrics.snapshot();
    // The Trial plan allows 10 reads a minute.
    const idealSec = (reads / 10) * 60;
    return {
      reads,
      ok: answers.filter((a) => a.status === 200).length,
      byStatus,
      metrics,
      elapsed: end - start,
      idealSec,
    };
  } finally {
    await trial.close();
  }
}
const burst = await trialBurst();
await sandbox.stop();

console.log(
  `GET /monitor/{id}, ${ids.length} monitors, median of ${rounds} alternating runs of ${args.duration} s per cell`,
);
console.table(rows);
console.log(
  `client: ${stats.calls} calls, ${stats.retries} retries, statuses ${JSON.stringify(stats.byStatus)}`,
);

console.log(
  `\nTrial burst: ${burst.reads} concurrent GET /account on a metered Trial account, paced by the client on the sandbox clock`,
);
console.log(
  `  answers: ${burst.ok} of ${burst.reads} succeeded; sandbox stats byStatus ${JSON.stringify(burst.byStatus)}`,
);
console.log(`  429 answers (sandbox stats): ${burst.byStatus["429"] ?? 0}`);
console.log(
  `  client retries: ${burst.metrics.retries}; pacing waits: ${burst.metrics.pacingWaits.count} (${Math.round(burst.metrics.pacingWaits.totalMs / 1000)} s summed over the concurrent calls)`,
);
console.log(
  `  elapsed sandbox clock: ${burst.elapsed} s vs ${burst.idealSec} s ideal at 10 reads a minute (${((burst.elapsed / burst.idealSec) * 100).toFixed(1)} %)`,
);
