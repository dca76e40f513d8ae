/**
 * Issue 17: the destroy of many monitors of one kind.
 *
 *   npm run bench:destroy [-- --monitors 2000]
 *
 * The sandbox is the real CLI in its own process; the engine runs here over
 * `VigilClient`, the state in memory. For each of an unmetered and a metered
 * Business account (maxBulkItems 1000; 60 reads and 30 writes a minute), the
 * monitors are created by one engine apply, then destroyed by another
 * (`destroy: true`, an empty config), through the client's default quota pacer
 * on the metered one. Printed: the destroy's writes and reads by route, its
 * wall time, and what one DELETE per monitor would cost at the same quota.
 */
import { parseArgs } from "node:util";
import { operations, type Pacer, VigilClient } from "../src/api/index.ts";
import { applyChanges, type DesiredResource, MemoryStateStore } from "../src/engine/index.ts";
import { startSandbox } from "./lib.ts";

const { values: args } = parseArgs({ options: { monitors: { type: "string", default: "2000" } } });
const count = Number(args.monitors);

const sandbox = await startSandbox({ data: false, connections: 32 });
const admin = (method: string, path: string, body?: unknown) =>
  sandbox.call(method, path, sandbox.adminToken, body);
const noPacing: Pacer = { acquire: async () => {}, observe: () => {} };

const desired = Array.from(
  { length: count },
  (_, n): DesiredResource => ({
    address: `monitors.bench-destroy-${n}`,
    kind: "monitor",
    members: {
      type: "http",
      name: `bench destroy ${n}`,
      url: `https://destroy-${n}.example.com/health`,
      locations: { pools: ["allworld"] },
    },
  }),
);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const minutes = (sec: number) => (sec >= 120 ? `${(sec / 60).toFixed(1)} min` : `${sec.toFixed(1)} s`);

async function destroyOn(metered: boolean) {
  const { token } = await admin("POST", "/_sandbox/accounts", { plan: "business", metered });
  const client = new VigilClient({ baseUrl: sandbox.url, token, ...(metered ? {} : { pacer: noPacing }) });
  try {
    if (metered) await client.prime();
    const ops = operations(client);
    const store = new MemoryStateStore();
    const created = await applyChanges({ ops, store, desired });
    if (created.result.failures.length > 0) throw new Error("creating the monitors failed");
    const before = client.metrics.snapshot();
    const start = performance.now();
    const destroyed = await applyChanges({ ops, store, desired: [], destroy: true });
    const ms = performance.now() - start;
    const after = client.metrics.snapshot();
    const routes = Object.fromEntries(
      Object.entries(after.byRoute)
        .map(([route, n]) => [route, n - (before.byRoute[route] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    );
    const left = (await ops.monitor.all()).length;
    return {
      ms,
      writes: (after.byClass.write ?? 0) - (before.byClass.write ?? 0),
      reads: (after.byClass.read ?? 0) - (before.byClass.read ?? 0),
      status429: (after.byStatus["429"] ?? 0) - (before.byStatus["429"] ?? 0),
      routes,
      deleted: destroyed.result.done.filter((d) => d.action === "delete").length,
      failures: destroyed.result.failures.length,
      left,
    };
  } finally {
    await client.close();
  }
}

const unmetered = await destroyOn(false);
const business = await destroyOn(true);
await sandbox.stop();

for (const [label, r] of [
  ["unmetered Business", unmetered],
  ["metered Business (60 reads, 30 writes a minute), paced", business],
] as const) {
  console.log(
    `destroy of ${count} monitors, ${label}: ${r.writes} writes, ${r.reads} reads, wall ${seconds(r.ms)}, ${r.deleted} deleted, ${r.failures} failures, ${r.left} left, 429s ${r.status429}; calls by route ${JSON.stringify(r.routes)}`,
  );
}
const singleSec = (count / 30) * 60;
console.log(
  `one DELETE /monitor/{id} per monitor instead: ${count} writes, at least ${minutes(singleSec)} at 30 writes a minute`,
);
const target = Math.ceil(count / 1000) * 2;
console.log(
  `writes target (a validate and a delete per ${1000} monitors): <= ${target}: ${business.writes <= target && unmetered.writes <= target && business.left === 0 && unmetered.left === 0 ? "PASS" : "FAIL"}`,
);
