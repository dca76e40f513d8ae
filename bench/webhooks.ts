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
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { inBatches, startSandbox } from "./lib.ts";

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

const sandbox = await startSandbox({
  data: args.data,
  connections: 64,
  flags: ["--allow-insecure-webhooks"],
});
const token = await sandbox.unmeteredAccount();
for (let i = 0; i < webhookCount; i++) {
  await sandbox.call("POST", "/webhook", token, {
    url: `${receiverUrl}/hook/${i}`,
    events: ["monitor.created"],
    scope: { all: true },
  });
}

const answeredAt = new Map<string, number>();
const started = performance.now();
await inBatches(monitorCount, async (n) => {
  const m = await sandbox.call("POST", "/monitor", token, {
    type: "http",
    url: `https://bench-${n}.example.com/health`,
    locations: { pools: ["allworld"] },
  });
  answeredAt.set(m.id, performance.now());
});
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

await sandbox.stop();
receiver.closeAllConnections();
receiver.close();

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
