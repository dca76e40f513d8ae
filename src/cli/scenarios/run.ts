/**
 * Runs the scenarios: the configuration is applied once, through the engine, to an embedded sandbox; each
 * file's contacts are confirmed as it says, and that state is checkpointed; each scenario starts from a
 * restore of it. The runner only moves the virtual clock and says what checks find, at each monitor's
 * interval while it is down; the sandbox's incident machine decides every alert, and the runner reads them
 * back: notifications through the API, webhook deliveries as its in-process receiver took them.
 */
import { type ApiSession, openApiSession } from "../../api/index.ts";
import { realTime, type TimeSource } from "../../api/types.ts";
import { applyChanges, MemoryStateStore } from "../../engine/index.ts";
import type { LoadedConfig } from "../../gitops/load.ts";
import { confirmableContactTypes, monitorTypes } from "../../kinds/index.ts";
import { failureLines } from "../errors.ts";
import { shown } from "./check.ts";
import { judge, type Notification, type ScenarioResult } from "./judge.ts";
import type { Scenario, Suite } from "./model.ts";
import { ScenarioSandbox } from "./sandbox.ts";

/** Checks one scenario may simulate: a bound on a run's time whatever a file asks. */
export const maxChecksPerScenario = 200_000;

/** The configuration could not be applied (the sandbox refused it): the test cannot run (exit 2). */
export class ApplyRefusedError extends Error {
  readonly lines: string[];
  constructor(lines: string[]) {
    super("The sandbox refused the configuration, so no scenario ran.");
    this.name = "ApplyRefusedError";
    this.lines = lines;
  }
}

/** A scenario would simulate more checks than a run takes (exit 2). */
export class ScenarioTooLongError extends Error {}

export interface SuiteRun {
  suite: Suite;
  scenarios: ScenarioResult[];
}

/** Configuration name ↔ sandbox id, per collection. */
interface Ids {
  byName: Map<string, string>;
  byId: Map<string, string>;
}

interface Applied {
  monitors: Ids;
  contacts: Ids;
  webhooks: Ids;
  /** Seconds between checks, by monitor name (a fixed-cadence type's cadence). */
  interval: Map<string, number>;
  enabled: Map<string, boolean>;
  contactTypes: Map<string, string>;
}

const idsOf = (entries: [name: string, id: string][]): Ids => ({
  byName: new Map(entries),
  byId: new Map(entries.map(([name, id]) => [id, name])),
});

export interface RunOptions {
  /** Told of each scenario once it has run. */
  onScenario?: (suite: Suite, result: ScenarioResult) => void;
}

export async function runSuites(
  config: LoadedConfig,
  suites: readonly Suite[],
  options: RunOptions = {},
): Promise<SuiteRun[]> {
  const starts = suites.flatMap((s) => s.scenarios.map((c) => c.start));
  if (starts.length === 0) return suites.map((suite) => ({ suite, scenarios: [] }));
  const sandbox = await ScenarioSandbox.start();
  try {
    // The configuration exists before every scenario starts: applied a day before the earliest.
    await sandbox.setClock(Math.min(...starts) - 86400);
    const token = await sandbox.account();
    const session = openApiSession({ baseUrl: sandbox.url, token });
    let applied: Applied;
    try {
      applied = await apply(session, sandbox, config);
    } finally {
      await session.client.close();
    }
    const base = await sandbox.checkpoint();
    const runs: SuiteRun[] = [];
    for (const suite of suites) {
      await sandbox.restore(base);
      await confirm(sandbox, applied, suite.confirmed);
      const ready = await sandbox.checkpoint();
      const results: ScenarioResult[] = [];
      for (const scenario of suite.scenarios) {
        await sandbox.restore(ready);
        const began = performance.now();
        const notes = await drive(sandbox, applied, scenario);
        const notifications = await readNotifications(sandbox, applied, scenario);
        const result = judge(scenario, notifications, notes, performance.now() - began);
        results.push(result);
        options.onScenario?.(suite, result);
      }
      runs.push({ suite, scenarios: results });
    }
    return runs;
  } finally {
    await sandbox.close();
  }
}

/**
 * The time the apply waits on: the sandbox is in this process, unmetered and idle but for this run, so a
 * job's suggested pause between polls (a second or more, for a service far away) is cut to 20 ms.
 */
const nearbyTime: TimeSource = {
  now: () => Date.now(),
  sleep: (ms, signal) => realTime.sleep(Math.min(ms, 20), signal),
};

/** Applies the configuration as written (imports left out: the sandbox starts empty) and learns its ids. */
async function apply(session: ApiSession, sandbox: ScenarioSandbox, config: LoadedConfig): Promise<Applied> {
  await session.client.prime();
  const store = new MemoryStateStore();
  const outcome = await applyChanges({
    ops: session.ops,
    store,
    time: nearbyTime,
    desired: config.resources,
    allowEmpty: true,
    secrets: config.secrets,
  });
  if (outcome.result.failures.length > 0)
    throw new ApplyRefusedError(outcome.result.failures.flatMap((f) => failureLines(f, config.locate)));
  const collections = { monitors: [], contacts: [], webhooks: [] } as Record<string, [string, string][]>;
  for (const [address, r] of Object.entries(store.saved?.resources ?? {})) {
    const dot = address.indexOf(".");
    const list = collections[address.slice(0, dot)];
    if (list && r.id && !address.slice(dot + 1).includes(".")) list.push([address.slice(dot + 1), r.id]);
  }
  const monitors = idsOf(collections.monitors!);
  const rows = await sandbox.list<{ id: string; type: string; interval: number; enabled: boolean }>(
    "/monitor",
    {
      fields: "id,type,interval,enabled",
    },
  );
  const interval = new Map<string, number>();
  const enabled = new Map<string, boolean>();
  for (const row of rows) {
    const name = monitors.byId.get(row.id);
    if (name === undefined) continue;
    const type = monitorTypes[row.type as keyof typeof monitorTypes];
    interval.set(name, type?.fixedInterval ?? row.interval);
    enabled.set(name, row.enabled);
  }
  const contactTypes = new Map<string, string>();
  for (const r of config.resources)
    if (r.kind === "contact")
      contactTypes.set(r.address.slice(r.address.indexOf(".") + 1), String(r.members.type));
  return {
    monitors,
    contacts: idsOf(collections.contacts!),
    webhooks: idsOf(collections.webhooks!),
    interval,
    enabled,
    contactTypes,
  };
}

/** Confirms the file's confirmed contacts (all by default) the way a person does: with the code they got. */
async function confirm(sandbox: ScenarioSandbox, applied: Applied, confirmed: readonly string[] | undefined) {
  const codes = new Map<string, string>();
  for (const message of await sandbox.outbox())
    if (message.kind === "confirmation" && typeof message.contactId === "string")
      codes.set(message.contactId, String(message.code));
  for (const [name, type] of applied.contactTypes) {
    if (!(confirmableContactTypes as readonly string[]).includes(type)) continue;
    if (confirmed !== undefined && !confirmed.includes(name)) continue;
    const id = applied.contacts.byName.get(name);
    const code = id && codes.get(id);
    // A contact confirmed already (an address confirmed on another contact) has no code waiting.
    if (id && code) await sandbox.call("POST", `/contact/${id}/confirmation/verify`, { code });
  }
}

/**
 * Moves the scenario along: at each moment (a step, or a check of a monitor that is down) the clock is moved
 * there, each timer on the way firing at its own moment; then the step's outcomes, then the checks due.
 * What falls due at a moment therefore happens before a step at that moment. The checks of one moment go
 * to the sandbox together, each monitor's in its own order: monitors do not wait on one another. Answers
 * notes on what the scenario asked that the service would not do (checks of a paused monitor).
 */
async function drive(sandbox: ScenarioSandbox, applied: Applied, scenario: Scenario): Promise<string[]> {
  const notes: string[] = [];
  await sandbox.setClock(scenario.start);
  /** Monitors that are down, with the moment of their next check (seconds from the start). */
  const down = new Map<string, number>();
  let checks = 0;
  let next = 0;
  for (;;) {
    const stepAt = scenario.steps[next]?.at;
    const checkAt = down.size > 0 ? Math.min(...down.values()) : undefined;
    const at = Math.min(stepAt ?? Number.POSITIVE_INFINITY, checkAt ?? Number.POSITIVE_INFINITY);
    if (!Number.isFinite(at) || at > scenario.end) break;
    await sandbox.advanceTo(scenario.start + at);
    /** This moment's checks, by monitor, in the order the steps give them. */
    const outcomes = new Map<string, ("up" | "down")[]>();
    for (; scenario.steps[next]?.at === at; next++) {
      const step = scenario.steps[next]!;
      for (const [names, state] of [
        [step.down, "down"],
        [step.up, "up"],
      ] as const)
        for (const name of names) {
          if (!applied.enabled.get(name)) {
            notes.push(
              `${name} is paused: it runs no checks, so taking it ${state} at ${shown(at)} changes nothing`,
            );
            continue;
          }
          outcomes.set(name, [...(outcomes.get(name) ?? []), state]);
          if (state === "down") down.set(name, at + applied.interval.get(name)!);
          else down.delete(name);
        }
    }
    for (const [name, due] of down)
      if (due === at && !outcomes.has(name)) {
        outcomes.set(name, ["down"]);
        down.set(name, at + applied.interval.get(name)!);
      }
    for (const states of outcomes.values()) checks += states.length;
    if (checks > maxChecksPerScenario)
      throw new ScenarioTooLongError(
        `the scenario ${JSON.stringify(scenario.name)} would simulate more than ${maxChecksPerScenario.toLocaleString("en")} checks; shorten it (until:) or its outages`,
      );
    await Promise.all(
      [...outcomes].map(async ([name, states]) => {
        for (const state of states) await sandbox.outcome(applied.monitors.byName.get(name)!, state);
      }),
    );
  }
  await sandbox.advanceTo(scenario.start + scenario.end);
  await sandbox.settle();
  return [...new Set(notes)];
}

/** What reached contacts (alerts and reminders) and webhooks (signed deliveries) from start to end. */
async function readNotifications(
  sandbox: ScenarioSandbox,
  applied: Applied,
  scenario: Scenario,
): Promise<Notification[]> {
  const from = scenario.start;
  const to = scenario.start + scenario.end;
  const names = (ids: readonly string[]) => ids.flatMap((id) => applied.monitors.byId.get(id) ?? []);
  const out: Notification[] = [];
  for (const row of await sandbox.notifications(from, to)) {
    if (row.kind !== "alert" && row.kind !== "reminder") continue;
    const contact = applied.contacts.byId.get(row.contactId);
    if (contact === undefined) continue;
    out.push({
      at: row.time - from,
      contact,
      alert: row.event as Notification["alert"],
      channel: row.channel,
      outcome: row.outcome === "sent" ? "sent" : "blocked",
      ...(row.reason && { reason: row.reason }),
      monitors: names(row.monitorIds),
    });
  }
  for (const d of sandbox.deliveries.values()) {
    const webhook = applied.webhooks.byId.get(d.webhookId);
    if (webhook === undefined || !d.signed || d.occurredAt < from || d.occurredAt > to) continue;
    out.push({
      at: d.occurredAt - from,
      webhook,
      event: d.event,
      channel: "webhook",
      outcome: "sent",
      monitors: names(d.monitorIds),
    });
  }
  // One order whatever the ids: by time, contacts before webhooks, then by name and type.
  const key = (n: Notification) =>
    `${n.contact === undefined ? 1 : 0}\u0000${n.contact ?? n.webhook}\u0000${n.alert ?? n.event}`;
  return out.sort((a, b) => a.at - b.at || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
