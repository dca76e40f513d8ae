/**
 * Webhook delivery throughput of the sandbox, end to end.
 *
 *   npm run bench:webhooks [-- --webhooks 20 --monitors 2000 --data]
 *
 * Starts the real CLI (`vigil sandbox --allow-insecure-webhooks`) as its own
 * process, runs a plain node:http receiver on 127.0.0.1 in this process, and
 * subscribes `webhooks` webhooks (one account, all scope) to `monitor.created`.
 * Then it creates `monitors` monitors through the API (64 at a time): each
 * create queues one delivery per webhook. It prints deliveries per second
 * from the first create to the last delivery received, and the latency from
 * each create's answer to the arrival of each of its deliveries.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { Pool } from "undici";

const { values: args } = parseArgs({
  options: {
    webhooks: { type: "string", default: "20" },
    monitors: { type: "string", default: "2000" },
    data: { type: "boolean", default: false },
  },
});
const webhookCount = Number(args.webhooks);
const monitorCount = Number(args.monitors);
const expected = webhookCount * monitorCount;

// The receiver: counts arrivals and notes, per monitor, when each delivery arrived.
const arrivals = new Map<string, number[]>();
let received = 0;
let lastArrival = 0;
let allArrived: () => void = () => {};
const done = new Promise<void>((resolve) => {
  allArrived = resolve;
});
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = performance.now();
    const envelope = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const list = arrivals.get(envelope.data.id) ?? [];
    list.push(at);
    arrivals.set(envelope.data.id, list);
    res.writeHead(204).end();
    received++;
    lastArrival = at;
    if (received === expected) allArrived();
  });
});
receiver.keepAliveTimeout = 60_000;
receiver.listen(0, "127.0.0.1");
await once(receiver, "listening");
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

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
    "--allow-insecure-webhooks",
    ...(dataDir ? ["--data", join(dataDir, "sandbox.db")] : []),
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
const [firstLine] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
const { url, adminToken } = JSON.parse(firstLine) as { url: string; adminToken: string };

const pool = new Pool(url, { connections: 64 });
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
for (let i = 0; i < webhookCount; i++) {
  await call("POST", "/webhook", token, {
    url: `${receiverUrl}/hook/${i}`,
    events: ["monitor.created"],
    scope: { all: true },
  });
}

const answeredAt = new Map<string, number>();
const started = performance.now();
for (let next = 0; next < monitorCount; ) {
  const batch = Array.from({ length: Math.min(64, monitorCount - next) }, (_, i) => next + i);
  next += batch.length;
  await Promise.all(
    batch.map(async (n) => {
      const m = await call("POST", "/monitor", token, {
        type: "http",
        url: `https://bench-${n}.example.com/health`,
        locations: { pools: ["allworld"] },
      });
      answeredAt.set(m.id, performance.now());
    }),
  );
}
const createsDone = performance.now();
const timeout = setTimeout(() => {
  console.error(`timed out: ${received} of ${expected} deliveries arrived`);
  process.exit(1);
}, 120_000);
await done;
clearTimeout(timeout);

const latencies: number[] = [];
for (const [id, times] of arrivals) {
  const answered = answeredAt.get(id)!;
  for (const at of times) latencies.push(Math.max(0, at - answered));
}
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
const seconds = (lastArrival - started) / 1000;

await pool.close();
child.kill("SIGTERM");
await once(child, "exit");
receiver.closeAllConnections();
receiver.close();
if (dataDir) rmSync(dataDir, { recursive: true, force: true });

const rate = Math.round(expected / seconds);
console.log(
  `webhooks bench: ${webhookCount} webhooks x ${monitorCount} monitor creates = ${expected} deliveries, ${args.data ? "SQLite data file" : "in memory"}`,
);
console.log(
  `creates took ${((createsDone - started) / 1000).toFixed(2)} s; last delivery after ${seconds.toFixed(2)} s`,
);
console.log(`throughput: ${rate} deliveries/s end to end`);
console.log(
  `latency (create answered -> delivery received): p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms`,
);
console.log(`target >= 2000 deliveries/s: ${rate >= 2000 ? "met" : "MISSED"}`);
