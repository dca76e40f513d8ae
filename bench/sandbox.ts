/**
 * Sandbox read throughput with 10,000 monitors in one account.
 *
 *   npm run bench:sandbox [-- --monitors 10000 --duration 10 --data]
 *
 * Starts the real CLI (`vigil sandbox`) as its own process, seeds monitors
 * through the public API, then drives it with autocannon from this process
 * (load generator and server share the machine, as the targets assume), and
 * prints requests/s and latency percentiles per scenario.
 */
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { inBatches, startSandbox } from "./lib.ts";

const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "10000" },
    duration: { type: "string", default: "10" },
    data: { type: "boolean", default: false },
  },
});
const monitorCount = Number(args.monitors);
const duration = Number(args.duration);

const sandbox = await startSandbox({ data: args.data, connections: 16 });
const { url } = sandbox;
const token = await sandbox.unmeteredAccount();

const seedStart = performance.now();
const pools = ["allworld", "westeurope", "northamerica", "asia"];
const created = await inBatches(monitorCount, (n) =>
  sandbox.call("POST", "/monitor", token, {
    type: "http",
    url: `https://bench-${n}.example.com/health`,
    name: `Bench ${n}`,
    interval: 60,
    tags: [`team-${n % 10}`, "bench"],
    locations: { pools: [pools[n % pools.length]] },
    settings: {
      method: "G",
      timeout: 10000 + (n % 50),
      keywords: "ok",
      headers: [{ name: "X-Bench", value: String(n) }],
    },
  }),
);
const ids: string[] = created.map((m) => m.id);
const seedSeconds = (performance.now() - seedStart) / 1000;

interface Figures {
  scenario: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(scenario: string, connections: number, path: () => string): Promise<Figures> {
  const result = await autocannon({
    url,
    connections,
    duration,
    headers: { authorization: `Bearer ${token}` },
    requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: path() }) }],
  });
  return {
    scenario,
    connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

const figures = [
  await measure("GET /monitor/{id}", 32, () => `/monitor/${ids[Math.floor(Math.random() * ids.length)]}`),
  await measure("GET /monitor?limit=500&expand=settings", 4, () => "/monitor?limit=500&expand=settings"),
];

const page = await sandbox.call("GET", "/monitor?limit=500&expand=settings", token);
await sandbox.stop();

console.log(
  `sandbox bench: ${monitorCount} monitors seeded in ${seedSeconds.toFixed(1)} s (${Math.round(monitorCount / seedSeconds)}/s through POST /monitor), ${args.data ? "SQLite data file" : "in memory"}, ${duration} s per scenario`,
);
console.log(`500-row page with settings: ${Buffer.byteLength(JSON.stringify(page))} bytes`);
console.table(figures);
const [single, list] = figures as [Figures, Figures];
const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
console.log(`target GET /monitor/{id} >= 5000 req/s: ${single.rps} req/s, ${verdict(single.rps >= 5000)}`);
console.log(`target 500-row page p50 < 50 ms: ${list.p50} ms, ${verdict(list.p50 < 50)}`);
if (single.non2xx + list.non2xx > 0) {
  console.log(`error: ${single.non2xx + list.non2xx} non-2xx answers`);
  process.exitCode = 1;
}
