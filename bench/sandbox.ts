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
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { Pool } from "undici";

const { values: args } = parseArgs({
  options: {
    monitors: { type: "string", default: "10000" },
    duration: { type: "string", default: "10" },
    data: { type: "boolean", default: false },
  },
});
const monitorCount = Number(args.monitors);
const duration = Number(args.duration);

const dataDir = args.data ? mkdtempSync(join(tmpdir(), "vigil-bench-")) : undefined;
const cli = join(import.meta.dirname, "../src/cli/main.ts");
const child = spawn(
  process.execPath,
  [
    "--disable-warning=ExperimentalWarning",
    cli,
    "sandbox",
    "--port",
    "0",
    ...(dataDir ? ["--data", join(dataDir, "sandbox.db")] : []),
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const [firstLine] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
const { url, adminToken } = JSON.parse(firstLine) as { url: string; adminToken: string };

const pool = new Pool(url, { connections: 16 });
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

// Quotas would answer 429 long before any load: benchmark an unmetered account (docs/sandbox.md).
const { token } = await call("POST", "/_sandbox/accounts", adminToken, {
  plan: "enterprise",
  metered: false,
});

const seedStart = performance.now();
const ids: string[] = [];
const pools = ["allworld", "westeurope", "northamerica", "asia"];
for (let next = 0; next < monitorCount; ) {
  const batch = Array.from({ length: Math.min(64, monitorCount - next) }, (_, i) => next + i);
  next += batch.length;
  const created = await Promise.all(
    batch.map((n) =>
      call("POST", "/monitor", token, {
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
    ),
  );
  for (const m of created) ids.push(m.id);
}
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

const page = await call("GET", "/monitor?limit=500&expand=settings", token);
await pool.close();
child.kill("SIGTERM");
await once(child, "exit");
if (dataDir) rmSync(dataDir, { recursive: true, force: true });

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
