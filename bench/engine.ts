/**
 * The four engine figures of issue 5.
 *
 *   npm run bench:engine [-- --monitors 10000 --contacts 1000 --subscriptions 10000 --create 1000]
 *
 * The sandbox is the real CLI in its own process; the engine runs here, over
 * `VigilClient`, with its state in a `MemoryStateStore` (no state file I/O).
 *
 * 1 and 3. An unmetered Enterprise account is brought to the config (monitors,
 *    contacts, alert subscriptions) by one engine apply, which also makes the
 *    state. A no-op plan over that state is then measured: its reads (client
 *    metrics and the sandbox's own count) and this process's CPU time. The
 *    one-GET-per-resource strategy of Terraform-style providers is then run
 *    for real over the same objects: one `GET` by id for each.
 * 2 and 4. A metered Business account (maxBulkItems 1000, 60 reads and 30
 *    writes a minute) gets 1,000 monitors by one engine apply through a client
 *    with its default quota pacer, primed, on real time: its writes, its
 *    429s and its wall time against the quota-limited optimum, and against
 *    the same apply on an unmetered account (the sandbox job's own time).
 */
import { parseArgs } from "node:util";
import { type Operations, operations, VigilClient } from "../src/api/index.ts";
import {
  applyChanges,
  engineKind,
  type KindName,
  MemoryStateStore,
  planChanges,
} from "../src/engine/index.ts";
import {
  benchMonitor,
  cappedPolls,
  inBatches,
  largeAccountOptions,
  largeConfig,
  noPacing,
  startSandbox,
} from "./lib.ts";

const { values: args } = parseArgs({
  options: {
    ...largeAccountOptions,
    create: { type: "string", default: "1000" },
  },
});
const monitorCount = Number(args.monitors);
const contactCount = Number(args.contacts);
const subscriptionCount = Number(args.subscriptions);
const createCount = Number(args.create);

const sandbox = await startSandbox({ data: false, connections: 32 });
const admin = (method: string, path: string, body?: unknown) =>
  sandbox.call(method, path, sandbox.adminToken, body);
const sandboxStats = async (): Promise<{
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
}> => admin("GET", "/_sandbox/stats");
/** Requests the sandbox answered, the admin routes left out. */
const publicRequests = (byRoute: Record<string, number>) =>
  Object.entries(byRoute)
    .filter(([route]) => !route.includes("/_sandbox/"))
    .reduce((sum, [, n]) => sum + n, 0);

const counts = { monitors: monitorCount, contacts: contactCount, subscriptions: subscriptionCount };

const cpuSeconds = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1e6;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const minutes = (sec: number) => (sec >= 120 ? `${(sec / 60).toFixed(1)} min` : `${sec.toFixed(1)} s`);
const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");

// --- Figures 1 and 3: the no-op plan over a large account --------------------------------------
const bigToken = await sandbox.unmeteredAccount();
const bigClient = new VigilClient({
  baseUrl: sandbox.url,
  token: bigToken,
  pacer: noPacing,
  time: cappedPolls,
  connections: 32,
});
const bigOps = operations(bigClient);
const desired = largeConfig({ tag: "bench-plan", ...counts });
const store = new MemoryStateStore();

const seedStart = performance.now();
const seeded = await applyChanges({ ops: bigOps, store, desired, time: cappedPolls });
const seedMs = performance.now() - seedStart;
if (seeded.result.failures.length > 0) {
  throw new Error(`seeding failed: ${JSON.stringify(seeded.result.failures.slice(0, 3))}`);
}
const seedCalls = bigClient.metrics.snapshot();

await admin("DELETE", "/_sandbox/stats");
const beforePlan = bigClient.metrics.snapshot();
const cpuStart = process.cpuUsage();
const planStart = performance.now();
let noopCheckReads = 0;
const noop = await planChanges({
  ops: bigOps,
  store,
  desired,
  time: cappedPolls,
  onAccountReads: (n) => {
    noopCheckReads = n;
  },
});
const planMs = performance.now() - planStart;
const planCpu = cpuSeconds(process.cpuUsage(cpuStart));
const afterPlan = bigClient.metrics.snapshot();
const planStats = await sandboxStats();
const planReads = (afterPlan.byClass.read ?? 0) - (beforePlan.byClass.read ?? 0);
const planWrites = (afterPlan.byClass.write ?? 0) - (beforePlan.byClass.write ?? 0);
const planRoutes = Object.fromEntries(
  Object.entries(afterPlan.byRoute)
    .map(([route, n]) => [route, n - (beforePlan.byRoute[route] ?? 0)] as const)
    .filter(([, n]) => n > 0),
);
const notNoop = noop.plan.actions.filter((a) => a.action !== "no-op");

// The account checks of a plan that writes: one monitor renamed, so one write to judge. The catalogue and
// the pools are read once each, whatever the number of resources; GET /account is the refresh's own.
const renamed = desired.findIndex((r) => r.kind === "monitor");
const oneChange = desired.map((r, i) =>
  i === renamed ? { ...r, members: { ...r.members, name: "renamed" } } : r,
);
let changedCheckReads = 0;
const beforeChanged = bigClient.metrics.snapshot();
await planChanges({
  ops: bigOps,
  store,
  desired: oneChange,
  time: cappedPolls,
  onAccountReads: (n) => {
    changedCheckReads = n;
  },
});
const changedReads = (bigClient.metrics.snapshot().byClass.read ?? 0) - (beforeChanged.byClass.read ?? 0);

/** Terraform-style refresh: one GET by id for every resource in the state, 64 in flight. */
async function getEach(ops: Operations): Promise<{ reads: number; ms: number }> {
  const resources = Object.values(store.saved!.resources);
  await admin("DELETE", "/_sandbox/stats");
  const start = performance.now();
  await inBatches(resources.length, (n) => {
    const r = resources[n]!;
    return engineKind(r.kind as KindName).getOne(ops, { id: r.id });
  });
  const ms = performance.now() - start;
  return { reads: publicRequests((await sandboxStats()).byRoute), ms };
}
const perResource = await getEach(bigOps);
await bigClient.close();

// --- Figures 2 and 4: 1,000 monitors on a metered Business account, paced ----------------------
const { token: businessToken } = await admin("POST", "/_sandbox/accounts", {
  plan: "business",
  metered: true,
});
const businessClient = new VigilClient({ baseUrl: sandbox.url, token: businessToken });
await businessClient.prime();
const businessOps = operations(businessClient);
const { limits } = (await businessOps.account.get()) as { limits: { maxBulkItems: number } };
const createDesired = Array.from({ length: createCount }, (_, n) => benchMonitor("bench-apply", n));
await admin("DELETE", "/_sandbox/stats");
const beforeApply = businessClient.metrics.snapshot();
const applyStart = performance.now();
const applied = await applyChanges({
  ops: businessOps,
  store: new MemoryStateStore(),
  desired: createDesired,
});
const applyMs = performance.now() - applyStart;
const afterApply = businessClient.metrics.snapshot();
const applyStats = await sandboxStats();
// Read after the measurement: the account holds each monitor once.
const liveMonitors = (await businessOps.monitor.all()).length;
await businessClient.close();

/**
 * The same apply without quotas (an unmetered Business account, no pacer, job
 * polls at their `Retry-After`): the floor the sandbox's job sets, whatever the quota.
 */
async function unpacedApplyMs(): Promise<number> {
  const { token } = await admin("POST", "/_sandbox/accounts", { plan: "business", metered: false });
  const client = new VigilClient({ baseUrl: sandbox.url, token, pacer: noPacing });
  try {
    const start = performance.now();
    const outcome = await applyChanges({
      ops: operations(client),
      store: new MemoryStateStore(),
      desired: createDesired,
    });
    if (outcome.result.failures.length > 0) throw new Error("the unpaced apply failed");
    return performance.now() - start;
  } finally {
    await client.close();
  }
}
const unpacedMs = await unpacedApplyMs();
await sandbox.stop();

const applyReads = (afterApply.byClass.read ?? 0) - (beforeApply.byClass.read ?? 0);
const applyWrites = (afterApply.byClass.write ?? 0) - (beforeApply.byClass.write ?? 0);
const client429 = (afterApply.byStatus["429"] ?? 0) - (beforeApply.byStatus["429"] ?? 0);
const sandbox429 = applyStats.byStatus["429"] ?? 0;
const applyRoutes = Object.fromEntries(
  Object.entries(afterApply.byRoute)
    .map(([route, n]) => [route, n - (beforeApply.byRoute[route] ?? 0)] as const)
    .filter(([, n]) => n > 0),
);
// Business quotas: 60 reads and 30 writes a minute. The optimum spends each class at exactly its rate.
const readsPerMin = 60;
const writesPerMin = 30;
const optimumSec = (reads: number, writes: number) =>
  Math.max(reads / readsPerMin, writes / writesPerMin) * 60;
const bulkOptimum = optimumSec(applyReads, applyWrites);
const singleOptimum = optimumSec(2, createCount);
const pacedOptimumMs = Math.max(bulkOptimum * 1000, unpacedMs);

// --- Report ------------------------------------------------------------------------------------
console.log(
  `seed: ${desired.length} resources (${monitorCount} monitors, ${contactCount} contacts, ${subscriptionCount} alert subscriptions) applied by the engine in ${seconds(seedMs)}, ${seedCalls.byClass.write ?? 0} writes, ${seedCalls.byClass.read ?? 0} reads; state in memory`,
);
console.log(
  `no-op plan: ${noop.plan.actions.length} actions, ${notNoop.length} not no-op, wall ${seconds(planMs)}, calls by route ${JSON.stringify(planRoutes)}`,
);
const reads1Target = 50;
console.log(
  `1. reads for a no-op plan: ${planReads} (client metrics; sandbox counted ${publicRequests(planStats.byRoute)} requests, ${planWrites} writes), target <= ${reads1Target}: ${verdict(planReads <= reads1Target && notNoop.length === 0)}`,
);
console.log(
  `   account checks included: ${noopCheckReads} reads of their own in the no-op plan (nothing to write, nothing to judge; GET /account is the refresh's); a plan with one write reads ${changedReads}, ${changedCheckReads} of them for the checks (type catalogue and pools, once each), target <= ${reads1Target}: ${verdict(changedReads <= reads1Target)}`,
);
console.log(
  `   one GET per resource (Terraform-style, run for real, 64 in flight, unmetered): ${perResource.reads} reads in ${seconds(perResource.ms)}; ${(perResource.reads / planReads).toFixed(0)}x the plan's reads`,
);
console.log(
  `   at Business quotas (60 reads/min) that is ${minutes((perResource.reads / readsPerMin) * 60)} of reads, against ${minutes((planReads / readsPerMin) * 60)} for the plan`,
);
const writesTarget = Math.ceil(createCount / limits.maxBulkItems) + 5;
console.log(
  `2. writes to create ${createCount} monitors (Business, maxBulkItems ${limits.maxBulkItems}): ${applyWrites} (client metrics), target <= ${writesTarget}: ${verdict(applyWrites <= writesTarget && applied.result.failures.length === 0 && applied.result.done.length === createCount && liveMonitors === createCount)}; the account then holds ${liveMonitors} monitors`,
);
console.log(
  `3. engine CPU time for the no-op plan (this process: refresh, diff, plan; the sandbox excluded): ${planCpu.toFixed(2)} s, target < 5 s: ${verdict(planCpu < 5)}`,
);
console.log(
  `4. wall time to apply ${createCount} monitors on a metered Business account, paced: ${seconds(applyMs)}, ${applyReads} reads + ${applyWrites} writes ${JSON.stringify(applyRoutes)}`,
);
console.log(
  `   429s: ${client429} (client metrics), ${sandbox429} (sandbox stats), target 0: ${verdict(client429 === 0 && sandbox429 === 0)}; retries ${afterApply.retries - beforeApply.retries}; pacing waits ${afterApply.pacingWaits.count - beforeApply.pacingWaits.count} (${seconds(afterApply.pacingWaits.totalMs - beforeApply.pacingWaits.totalMs)}); failures ${applied.result.failures.length}`,
);
console.log(
  `   quota-limited optimum for these calls (each class at its full rate: 60 reads, 30 writes a minute): ${minutes(bulkOptimum)}; the same apply unmetered and unpaced (the sandbox job's own floor): ${seconds(unpacedMs)}; paced wall time / max of the two: ${(applyMs / pacedOptimumMs).toFixed(2)}`,
);
console.log(
  `   one POST /monitor per monitor instead: ${createCount} writes, quota-limited optimum ${minutes(singleOptimum)}`,
);
