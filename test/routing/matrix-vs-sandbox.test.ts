import { rm } from "node:fs/promises";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { operations, VigilClient } from "../../src/api/index.ts";
import { applyChanges, MemoryStateStore } from "../../src/engine/index.ts";
import { loadConfig } from "../../src/gitops/load.ts";
import { reminderIntervalSec, week as windowWeek } from "../../src/kinds/index.ts";
import { expectedNotifications, type MonitorRouting, routingMatrix } from "../../src/routing/index.ts";
import { workspace } from "../cli/vigil.ts";
import type { Client, TestSandbox } from "../helpers/sandbox.ts";
import { closeWithReceiver, type Receiver, startWithReceiver } from "../sandbox/webhooks/receiver.ts";
import { anchor, edgeScenario, type Scenario, scenarioArb, week } from "./random-config.ts";

/**
 * One set of rules: random configurations are applied to a real sandbox, every monitor is taken down in turn
 * on its clock, and the notifications and webhook deliveries the sandbox records are those the routing
 * matrix predicts: the same recipients, alert types (or events), outcomes and channels, at the same minute.
 * `ROUTES_SEED` replays a run; a failure prints its seed and the smallest configuration that fails.
 */
const seed = Number(process.env.ROUTES_SEED ?? 20290229);
const runs = Number(process.env.ROUTES_RUNS ?? 6);

let sb: TestSandbox;
let rx: Receiver;
const dirs: string[] = [];
beforeAll(async () => ({ sb, rx } = await startWithReceiver()));
afterAll(async () => {
  await closeWithReceiver(sb, rx);
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

it("the week of the configurations' windows is the sandbox's", () => expect(week).toBe(windowWeek));

it("the sandbox sends what the routing matrix says, for every monitor of random configurations", {
  timeout: 180_000,
}, async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      const { seen, starts } = await simulate(scenario);
      if (process.env.ROUTES_DEBUG) console.log(JSON.stringify(scenario), seen.sort());
      expect(seen.sort()).toEqual((await predict(scenario, starts)).sort());
    }),
    { seed, numRuns: runs, endOnFailure: true, examples: [[edgeScenario]] },
  );
});

/** One observed or predicted notification, in minutes from the confirmed failure. */
type Seen = string;
const seen = (
  minute: number,
  monitor: string,
  who: string,
  what: string,
  outcome: string,
  channel: string,
): Seen => `${monitor} +${minute}m ${who} ${what} ${outcome} ${channel}`;

async function load(scenario: Scenario) {
  const dir = await workspace({ "monitoring.yaml": JSON.stringify(withHook(scenario.config)) });
  dirs.push(dir);
  const config = await loadConfig([dir]);
  expect(config.diagnostics).toEqual([]);
  return { resources: config.resources };
}

/** The webhook posts to the receiver: deliveries succeed, so the webhook stays enabled. */
function withHook(config: Record<string, any>) {
  if (!config.webhooks) return config;
  return { ...config, webhooks: { hook: { ...config.webhooks.hook, url: `${rx.base}/routes` } } };
}

/** What the matrix says each outage sends, from the moment the sandbox confirmed it down. */
async function predict(scenario: Scenario, starts: readonly number[]): Promise<Seen[]> {
  const { resources } = await load(scenario);
  const matrix = routingMatrix(resources, { confirmed: new Set(scenario.confirmed), now: anchor - 86400 });
  return matrix.monitors.flatMap((row, i) => {
    const downAt = starts[i] ?? anchor + i * week;
    const upAt = downAt + scenario.outages[i]! * 60;
    return expectedNotifications(row, { downAt, upAt, until: upAt }).map((n) =>
      seen(
        Math.round((n.at - downAt) / 60),
        n.monitor,
        n.contact ?? n.webhook!,
        n.event ?? n.alertType!,
        n.outcome,
        n.channel,
      ),
    );
  });
}

async function simulate(scenario: Scenario): Promise<{ seen: Seen[]; starts: number[] }> {
  const { resources } = await load(scenario);
  const account = await sb.account({ plan: "enterprise" });
  const store = new MemoryStateStore();
  const client = new VigilClient({ baseUrl: sb.url, token: account.token });
  await client.prime();
  try {
    const applied = await applyChanges({ ops: operations(client), store, desired: resources });
    expect(applied.result.failures).toEqual([]);
  } finally {
    await client.close();
  }
  // Top-level objects only (`monitors.m0`), not the subscriptions nested under them.
  const ids = new Map(
    Object.entries(store.saved!.resources)
      .filter(([address]) => address.split(".").length === 2)
      .map(([address, r]) => [r.id!, address.split(".")[1]!]),
  );
  const idOf = (name: string) => [...ids].find(([, n]) => n === name)![0];
  await confirm(account, scenario.confirmed.map(idOf));

  const matrix = routingMatrix(resources, { now: anchor - 86400 });
  const out: Seen[] = [];
  const starts: number[] = [];
  for (const [i, row] of matrix.monitors.entries()) {
    const downAt = anchor + i * week;
    await sb.setClock(downAt);
    const down = await sb.admin.post(`/_sandbox/monitor/${idOf(row.monitor)}/outcome`, { state: "down" });
    if (!row.enabled) {
      // A paused monitor runs no checks, so nothing can alert.
      expect(down.body.errors?.[0]?.reason).toBe("monitor_paused");
      continue;
    }
    expect(down.status, down.text).toBe(200);
    const start = (await account.get(`/monitor/incident/${down.body.incidentId}`)).body.start as number;
    starts[i] = start;
    const upAt = start + scenario.outages[i]! * 60;
    for (const t of moments(row, start, upAt)) await sb.setClock(t);
    expect(
      (await sb.admin.post(`/_sandbox/monitor/${idOf(row.monitor)}/outcome`, { state: "up" })).status,
    ).toBe(200);
    out.push(...(await recorded(account, ids, row.monitor, start, down.body.incidentId)));
  }
  return { seen: out, starts };
}

/**
 * The moments the timer runs at: every moment the configuration could make something due (each alert delay,
 * each reminder tier, each start and end of a window), every ten minutes besides, and the recovery.
 */
function moments(row: MonitorRouting, start: number, upAt: number): number[] {
  const at = new Set<number>([upAt]);
  for (let t = start; t <= upAt; t += 600) at.add(t);
  for (const r of row.routes) at.add(start + r.delayMinutes * 60);
  at.add(start + row.downDelayMinutes * 60);
  for (let t = start + reminderIntervalSec; t <= upAt; t += reminderIntervalSec) at.add(t);
  for (const h of row.heldBy)
    for (let k = 0; h.from + k * week <= upAt && k <= (h.repeat === "weekly" ? 60 : 0); k++)
      for (const edge of [h.from + k * week, h.to + k * week]) at.add(edge);
  return [...at].filter((t) => t > start && t <= upAt).sort((a, b) => a - b);
}

async function confirm(account: Client, contactIds: readonly string[]) {
  const outbox = await sb.outbox();
  for (const id of contactIds) {
    const code = outbox.find((m) => m.contactId === id && m.kind === "confirmation")?.code;
    const res = await account.post(`/contact/${id}/confirmation/verify`, { code });
    expect(res.status, res.text).toBe(200);
  }
}

/** What the sandbox recorded for one outage: notifications to contacts and deliveries to the webhook. */
async function recorded(
  account: Client,
  names: ReadonlyMap<string, string>,
  monitor: string,
  start: number,
  incidentId: string,
): Promise<Seen[]> {
  const minute = (t: number) => Math.round((t - start) / 60);
  const notes = await account.get(`/contact/notification?kind=alert,reminder&from=${start}&limit=500`);
  expect(notes.status, notes.text).toBe(200);
  const out = (notes.body.data as any[]).map((n) =>
    seen(minute(n.time), monitor, names.get(n.contactId)!, n.event, n.outcome, n.channel),
  );
  const hooks = (await account.get("/webhook")).body.data as any[];
  for (const hook of hooks) {
    const rows = (await account.get(`/webhook/${hook.id}/delivery?limit=500`)).body.data as any[];
    for (const d of rows.filter((d) => d.resourceId === incidentId))
      out.push(seen(minute(d.occurredAt), monitor, names.get(hook.id)!, d.event, "sent", "webhook"));
  }
  return out;
}
