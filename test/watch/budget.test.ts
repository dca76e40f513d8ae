import { afterAll, beforeAll, expect, it } from "vitest";
import { operations, type TimeSource, VigilClient } from "../../src/api/index.ts";
import { applyChanges, type DesiredResource, MemoryStateStore } from "../../src/engine/index.ts";
import { SharePacer } from "../../src/watch/budget.ts";
import { startWatch } from "../../src/watch/run.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { MemoryRecords } from "./inprocess.ts";

/**
 * The watcher in-process on the sandbox clock: every wait (its cadence, its
 * pacing) moves the clock instead of passing, so a day of watching a metered
 * Business account runs in seconds, with no webhook: polling only.
 */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb?.close());

async function sandboxTime(): Promise<TimeSource> {
  let nowMs = (await sb.advance(0)) * 1000;
  return {
    now: () => nowMs,
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      nowMs = (await sb.advance(Math.ceil(ms / 1000))) * 1000;
    },
  };
}

const monitors = 600;
const desired: DesiredResource[] = [
  {
    address: "contacts.oncall",
    kind: "contact",
    members: { type: "http", address: "https://hooks.example.com/oncall", name: "On call" },
  },
  ...Array.from({ length: monitors }, (_, i) => ({
    address: `monitors.m${i}`,
    kind: "monitor" as const,
    members: {
      type: "http",
      url: `https://m${i}.example.com/`,
      name: `m${i}`,
      interval: 300,
      locations: { pools: ["allworld"] },
    },
  })),
  {
    address: "monitors.m0.alerts.oncall",
    kind: "alertSubscription",
    members: {
      monitorId: { $ref: "monitors.m0" },
      contactId: { $ref: "contacts.oncall" },
      alertTypes: ["down", "up"],
    },
  },
];

it("watches 600 monitors for 24 simulated hours within 10 % of the reads; a subscription edit is seen at the next full refresh", {
  timeout: 300_000,
}, async () => {
  const account = await sb.account({ plan: "business", metered: true });
  const time = await sandboxTime();
  const setup = new VigilClient({ baseUrl: sb.url, token: account.token, time });
  await setup.prime();
  const store = new MemoryStateStore();
  const applied = await applyChanges({ ops: operations(setup), store, desired, time });
  expect(applied.result.failures).toEqual([]);
  await setup.close();

  const pacer = new SharePacer(0.1, time);
  const client = new VigilClient({ baseUrl: sb.url, token: account.token, time, pacer });
  await client.prime();
  const transitions: Record<string, any>[] = [];
  const logs: string[] = [];
  const watch = await startWatch({
    ops: operations(client),
    clientMetrics: client.metrics,
    store,
    records: new MemoryRecords(),
    desired,
    cadence: { everyMs: 5 * 60_000, fullEveryMs: 60 * 60_000 },
    share: 0.1,
    pacing: pacer,
    time,
    out: (line) => transitions.push(JSON.parse(line)),
    log: (line) => logs.push(line),
  });
  await expect.poll(() => watch.watcher.ready, { timeout: 60_000, interval: 50 }).toBe(true);
  const readyAt = time.now();
  const startupReads = client.metrics.snapshot().byClass.read ?? 0;
  const { cadence, budget } = watch.watcher;
  // Business: 100,000 reads a month; 10 % of that is 13.9 reads an hour, tighter than 10 % of 60 a minute.
  expect(budget.tightest?.quota).toBe("read_per_month");
  expect(budget.perHour).toBeCloseTo(13.89, 1);
  expect(cadence.stretched).toBe(true);
  expect(logs.some((l) => l.includes("over the budget; stretched to"))).toBe(true);
  expect(cadence.perHour).toBeLessThanOrEqual(budget.perHour);

  // Someone drops `up` from the subscription: no event and no delta sync reports that.
  const state = store.saved!;
  const m0 = state.resources["monitors.m0"]!.id!;
  const contact = state.resources["contacts.oncall"]!.id!;
  expect((await account.put(`/monitor/${m0}/alert/${contact}`, { alertTypes: ["down"] })).status).toBe(200);
  const editedAt = time.now();

  const day = 24 * 3_600_000;
  await expect.poll(() => time.now() - readyAt >= day, { timeout: 240_000, interval: 100 }).toBe(true);
  await watch.stop();
  await watch.done;
  await client.close();

  const seen = transitions.find((t) => t.address === "monitors.m0.alerts.oncall");
  expect(seen).toMatchObject({
    transition: "drifted",
    seenBy: "poll",
    members: [{ member: "alertTypes", before: ["down", "up"], after: ["down"] }],
  });
  // At the first full refresh after the edit: no sooner than the budget's cadence allows, and no later.
  const seenAt = Date.parse(seen!.time);
  expect(seenAt - readyAt).toBeGreaterThanOrEqual(cadence.cadence.fullEveryMs);
  expect(seenAt - editedAt).toBeLessThanOrEqual(cadence.cadence.fullEveryMs + 60_000);
  expect(transitions).toHaveLength(1);

  const s = client.metrics.snapshot();
  const reads = (s.byClass.read ?? 0) - startupReads;
  const hours = (time.now() - readyAt) / 3_600_000;
  expect(s.byStatus["429"] ?? 0).toBe(0);
  expect(reads / hours).toBeLessThanOrEqual(budget.perHour);
  console.log(
    `600 monitors: ${startupReads} reads to start, then ${reads} in ${hours.toFixed(1)} h = ${(reads / hours).toFixed(1)} reads/hour (budget ${budget.perHour.toFixed(1)}); delta every ${cadence.cadence.everyMs / 1000} s, full every ${cadence.cadence.fullEveryMs / 1000} s`,
  );
});
