/**
 * `npm run bench:watch`: what `vigil watch` costs and how fast it sees drift.
 *
 * - Event latency: an out-of-band PATCH until its transition, through the
 *   sandbox's signed webhook to the watcher's listener (real time).
 * - On a metered Business account, on the sandbox clock: reads per hour after
 *   start-up for 600 and for 21,000 resources, how long a poll-only edit (an
 *   alert subscription) takes to be seen, and the watcher's heap after an hour.
 *
 * The sandbox runs as its own process, so this process's heap is the watcher's
 * (and its client's). Options: `-- --hours 24` (simulated hours per scenario),
 * `--skip-large`.
 */
import { randomBytes } from "node:crypto";
import { operations, QuotaPacer, type TimeSource, VigilClient } from "../src/api/index.ts";
import { applyChanges, type DesiredResource, MemoryStateStore } from "../src/engine/index.ts";
import { SharePacer } from "../src/watch/budget.ts";
import { startWatch } from "../src/watch/run.ts";
import { freePort, MemoryRecords, SandboxTime, startSandbox } from "./lib.ts";

const args = process.argv.slice(2);
const hours = Number(args[args.indexOf("--hours") + 1]) || 24;
const skipLarge = args.includes("--skip-large");

const quick: TimeSource = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 50))),
};

const sandbox = await startSandbox({ data: false, connections: 8, flags: ["--allow-insecure-webhooks"] });
const admin = (method: string, path: string, body?: unknown) =>
  sandbox.call(method, path, sandbox.adminToken, body);

function monitor(i: number): DesiredResource {
  return {
    address: `monitors.m${i}`,
    kind: "monitor",
    members: {
      type: "http",
      url: `https://m${i}.example.com/`,
      name: `m${i}`,
      interval: 300,
      locations: { pools: ["allworld"] },
    },
  };
}

async function eventLatency(): Promise<number[]> {
  const token = await sandbox.unmeteredAccount();
  const port = await freePort();
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const desired: DesiredResource[] = [
    ...Array.from({ length: 5 }, (_, i) => monitor(i)),
    {
      address: "webhooks.watcher",
      kind: "webhook",
      members: {
        url: `http://127.0.0.1:${port}/events`,
        events: ["monitor.updated"],
        scope: { all: true },
        secret,
      },
    },
  ];
  const client = new VigilClient({ baseUrl: sandbox.url, token, time: quick });
  const ops = operations(client);
  const store = new MemoryStateStore();
  await applyChanges({ ops, store, desired, time: quick });
  const waiting = new Map<string, (at: number) => void>();
  const watch = await startWatch({
    ops,
    clientMetrics: client.metrics,
    store,
    records: new MemoryRecords(),
    desired,
    cadence: { everyMs: 300_000, fullEveryMs: 3_600_000 },
    share: 0.1,
    listen: { host: "127.0.0.1", port },
    secret,
    out: (line) => {
      const t = JSON.parse(line);
      waiting.get(t.address)?.(performance.now());
    },
    log: () => {},
  });
  while (!watch.watcher.ready) await new Promise((r) => setTimeout(r, 20));
  const latencies: number[] = [];
  for (let i = 0; i < 40; i++) {
    const address = `monitors.m${i % 5}`;
    const id = store.saved!.resources[address]!.id!;
    const seen = new Promise<number>((done) => waiting.set(address, done));
    const sent = performance.now();
    // Odd rounds drift, even rounds put it back: each is one transition.
    await ops.monitor.update(id, { name: i % 10 < 5 ? `edited ${i}` : `m${i % 5}` });
    latencies.push((await seen) - sent);
  }
  await watch.stop();
  await client.close();
  return latencies;
}

async function budgetScenario(
  label: string,
  desired: DesiredResource[],
  subscription: { monitor: string; contact: string },
) {
  const { token } = await admin("POST", "/_sandbox/accounts", { plan: "business", metered: true });
  const time = await SandboxTime.start(
    (body) => admin("POST", "/_sandbox/clock", body).then((b) => b.now),
    Math.floor(Date.now() / 1000),
  );
  const setup = new VigilClient({ baseUrl: sandbox.url, token, time, pacer: new QuotaPacer({ time }) });
  await setup.prime();
  const store = new MemoryStateStore();
  const applied = await applyChanges({ ops: operations(setup), store, desired, time });
  if (applied.result.failures.length > 0)
    throw new Error(JSON.stringify(applied.result.failures.slice(0, 3)));
  await setup.close();

  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const pacer = new SharePacer(0.1, time);
  const client = new VigilClient({ baseUrl: sandbox.url, token, time, pacer });
  await client.prime();
  const seen: { address: string; at: number }[] = [];
  const logs: string[] = [];
  const watch = await startWatch({
    ops: operations(client),
    clientMetrics: client.metrics,
    store,
    records: new MemoryRecords(),
    desired,
    cadence: { everyMs: 300_000, fullEveryMs: 3_600_000 },
    share: 0.1,
    pacing: pacer,
    time,
    out: (line) => {
      const t = JSON.parse(line);
      seen.push({ address: t.address, at: Date.parse(t.time) });
    },
    log: (line) => logs.push(line),
  });
  while (!watch.watcher.ready) await new Promise((r) => setTimeout(r, 20));
  const readyAt = time.now();
  const startupReads = client.metrics.snapshot().byClass.read ?? 0;
  const m = store.saved!.resources[subscription.monitor]!.id!;
  const c = store.saved!.resources[subscription.contact]!.id!;
  await sandbox.call("PUT", `/monitor/${m}/alert/${c}`, token, { alertTypes: ["down"] });
  const editedAt = time.now();
  let heapAfterHour: number | undefined;
  while (time.now() - readyAt < hours * 3_600_000) {
    if (heapAfterHour === undefined && time.now() - readyAt >= 3_600_000) {
      globalThis.gc?.();
      heapAfterHour = process.memoryUsage().heapUsed;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  await watch.stop();
  await watch.done;
  const stats = client.metrics.snapshot();
  const reads = (stats.byClass.read ?? 0) - startupReads;
  const simulated = (time.now() - readyAt) / 3_600_000;
  const found = seen.find((s) => s.address.endsWith(".alerts.oncall"));
  const plan = watch.watcher.cadence;
  await client.close();
  console.log(`\n${label} (Business, ${hours} simulated hours):`);
  // The watcher's own word on its start-up, on its clock (the bench notices readiness only later).
  for (const l of logs.filter(
    (l) =>
      l.startsWith("Read budget") ||
      l.includes("stretched") ||
      l.startsWith("Cadence") ||
      l.startsWith("Ready"),
  ))
    console.log(`  ${l}`);
  console.log(
    `  start-up: ${startupReads} reads; then ${reads} reads in ${simulated.toFixed(1)} h = ${(reads / simulated).toFixed(1)} reads/hour (budget ${watch.watcher.budget.perHour.toFixed(1)}); 429s: ${stats.byStatus["429"] ?? 0}`,
  );
  console.log(
    `  poll-only edit (alert subscription) seen after ${found ? `${((found.at - editedAt) / 60_000).toFixed(1)} simulated minutes` : "never"} (full refresh every ${(plan.cadence.fullEveryMs / 60_000).toFixed(1)} min)`,
  );
  if (heapAfterHour !== undefined)
    console.log(
      `  watcher heap after 1 simulated hour: ${((heapAfterHour - heapBefore) / 1048576).toFixed(1)} MB above the process's baseline (${(heapAfterHour / 1048576).toFixed(1)} MB in all)`,
    );
}

const contact: DesiredResource = {
  address: "contacts.oncall",
  kind: "contact",
  members: { type: "http", address: "https://hooks.example.com/oncall", name: "On call" },
};
const alert = (i: number, c = "oncall"): DesiredResource => ({
  address: `monitors.m${i}.alerts.${c}`,
  kind: "alertSubscription",
  members: {
    monitorId: { $ref: `monitors.m${i}` },
    contactId: { $ref: `contacts.${c}` },
    alertTypes: ["down", "up"],
  },
});

try {
  const latencies = (await eventLatency()).sort((a, b) => a - b);
  const q = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(0);
  console.log(
    `Event-driven detection, PATCH answered → transition printed (${latencies.length} edits): p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`,
  );

  await budgetScenario(
    "600 resources (600 monitors, 1 contact, 1 subscription)",
    [contact, ...Array.from({ length: 600 }, (_, i) => monitor(i)), alert(0)],
    {
      monitor: "monitors.m0",
      contact: "contacts.oncall",
    },
  );
  if (!skipLarge) {
    const contacts: DesiredResource[] = Array.from({ length: 1000 }, (_, i) => ({
      address: i === 0 ? "contacts.oncall" : `contacts.c${i}`,
      kind: "contact",
      members: { type: "http", address: `https://hooks.example.com/c${i}`, name: `c${i}` },
    }));
    const monitors = Array.from({ length: 10_000 }, (_, i) => monitor(i));
    const alerts = Array.from({ length: 10_000 }, (_, i) =>
      alert(i, i === 0 ? "oncall" : `c${1 + (i % 999)}`),
    );
    await budgetScenario(
      "21,000 resources (10,000 monitors, 10,000 subscriptions, 1,000 contacts)",
      [...contacts, ...monitors, ...alerts],
      {
        monitor: "monitors.m0",
        contact: "contacts.oncall",
      },
    );
  }
} finally {
  await sandbox.stop();
}
