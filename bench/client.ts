/**
 * Throughput of `GET /monitor/{id}` through `VigilClient`, and the same
 * requests with raw undici, at concurrency 1, 8 and 32: the client's overhead.
 *
 *   npm run bench:client [-- --duration 3 --monitors 200]
 *
 * The sandbox is the real CLI in its own process with an unmetered account,
 * so no quota paces the calls and the client gets a pass-through pacer: what
 * is measured is the transport, retry loop, metrics and error mapping.
 */
import { parseArgs } from "node:util";
import { Pool } from "undici";
import { type Pacer, VigilClient } from "../src/api/index.ts";
import { inBatches, startSandbox } from "./lib.ts";

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
await sandbox.stop();

console.log(
  `GET /monitor/{id}, ${ids.length} monitors, median of ${rounds} alternating runs of ${args.duration} s per cell`,
);
console.table(rows);
console.log(
  `client: ${stats.calls} calls, ${stats.retries} retries, statuses ${JSON.stringify(stats.byStatus)}`,
);
