import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Notification, ScenarioResult } from "../../../src/cli/scenarios/judge.ts";
import { configNames, readSuites } from "../../../src/cli/scenarios/read.ts";
import { runSuites, type SuiteRun } from "../../../src/cli/scenarios/run.ts";
import { formatDiagnostic, loadConfig } from "../../../src/gitops/load.ts";
import { configuration, removeRepos, repo } from "./scenarios-setup.ts";

/**
 * Every alert rule, as `vigil test` sees it through the sandbox's own incident machine (docs/testing.md,
 * "What happens in a scenario"): delays, an unconfirmed contact, recovery before a delay, reminders, a
 * paused monitor, a weekly maintenance window that suppresses alerts, webhook deliveries. One configuration
 * applied once; each scenario from a restore of it. Times are exact: the clock is virtual.
 */
const monday = `start: 2026-03-02T09:00:00Z
confirmed: [phone, team]
scenarios:
  - name: each contact hears after its own delay
    steps:
      - { at: 0m, down: [api] }
      - { at: 20m, up: [api] }
    expect:
      - { at: 0m, contact: pager, alert: down, within: 0 }
      - { at: 5m, contact: phone, alert: down, within: 0, channel: sms, outcome: sent }
      - { at: 10m, contact: team, alert: down, within: 0 }
      - { at: 20m, contact: pager, alert: up, within: 0 }
      - { at: 20m, contact: phone, alert: up, within: 0 }
      - { at: 0m, webhook: bot, event: incident.opened, within: 0, monitor: api }
      - { at: 0m, webhook: bot, event: monitor.down, within: 0 }
      - { at: 20m, webhook: bot, event: monitor.up, within: 0 }
    never:
      - { contact: team, alert: up }
      - { contact: pager, alert: repeatedlyDown }
  - name: a recovery before a contact's delay reaches nobody after it
    steps:
      - { at: 0m, down: [api] }
      - { at: 3m, up: [api] }
    until: 30m
    expect:
      - { at: 0m, contact: pager, alert: down, within: 0 }
      - { at: 3m, contact: pager, alert: up, within: 0 }
    never:
      - { contact: phone }
      - { contact: team }
  - name: an unconfirmed contact's notification is blocked
    steps: [{ at: 0m, down: [web] }]
    expect:
      - { at: 0m, contact: boss, alert: down, outcome: blocked, within: 0 }
    never:
      - { contact: boss, outcome: sent }
  - name: reminders every 30 minutes to the contacts that asked
    steps: [{ at: 0m, down: [api] }]
    until: 65m
    expect:
      - { at: 30m, contact: pager, alert: repeatedlyDown, within: 0 }
      - { at: 60m, contact: pager, alert: repeatedlyDown, within: 0 }
    never:
      - { contact: phone, alert: repeatedlyDown }
  - name: a paused monitor alerts nobody
    steps: [{ at: 0m, down: [batch] }]
    until: 40m
    never:
      - { contact: pager, monitor: batch }
  - name: fails, saying what came instead
    steps: [{ at: 0m, down: [api] }]
    until: 15m
    expect:
      - { at: 2m, contact: phone, alert: down }
      - { at: 0m, contact: pager, alert: down, within: 0 }
      - { at: 1m, contact: pager, alert: down }
    never:
      - { contact: team }
`;

/** Every Sunday 02:00-03:00 UTC (the configuration's deploy window); boss confirmed here (the default: all). */
const sunday = `scenarios:
  - name: the weekly deploy window holds alerts back until it ends
    # Nine weeks after the window's first Sunday, ten minutes into it.
    start: 2026-03-08T02:10:00Z
    steps:
      - { at: 0m, down: [web] }
      - { at: 80m, up: [web] }
    expect:
      - { at: 50m, contact: boss, alert: down, within: 0, outcome: sent }
      - { at: 80m, contact: boss, alert: up, within: 0 }
  - name: outside the window the same outage alerts at once
    start: 2026-03-08T03:10:00Z
    steps: [{ at: 0m, down: [web] }]
    expect:
      - { at: 0m, contact: boss, alert: down, within: 0 }
`;

let runs: SuiteRun[];
beforeAll(async () => {
  const dir = await repo({
    "config.yaml": configuration,
    "monday.test.yaml": monday,
    "sunday.test.yaml": sunday,
  });
  const config = await loadConfig([dir], { env: {} });
  expect(config.diagnostics.map(formatDiagnostic)).toEqual([]);
  const read = await readSuites(
    [join(dir, "monday.test.yaml"), join(dir, "sunday.test.yaml")],
    configNames(config.resources),
  );
  expect(read.problems.map(formatDiagnostic)).toEqual([]);
  runs = await runSuites(config, read.suites);
}, 120_000);
afterAll(removeRepos);

const result = (name: string): ScenarioResult => {
  const found = runs.flatMap((r) => r.scenarios).find((s) => s.scenario.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};

/** `pager down@0s sent`, `bot monitor.down@0s`: what a scenario sent, by time. */
const said = (ns: readonly Notification[]) =>
  ns.map((n) =>
    n.contact !== undefined
      ? `${n.contact} ${n.alert}@${n.at}s ${n.outcome}${n.reason ? ` (${n.reason})` : ""}`
      : `${n.webhook} ${n.event}@${n.at}s`,
  );

describe("vigil test runs each scenario on the sandbox's own alert rules", () => {
  it("each contact hears after its own delay; up alerts go to those the outage reached", () => {
    const r = result("each contact hears after its own delay");
    expect(r.passed).toBe(true);
    expect(said(r.notifications)).toEqual([
      "pager down@0s sent",
      "bot incident.opened@0s",
      "bot monitor.down@0s",
      "phone down@300s sent",
      "team down@600s sent",
      "pager up@1200s sent",
      "phone up@1200s sent",
      "bot monitor.up@1200s",
    ]);
    // The times carry the clock's own moments: the first alert at the start, to the second.
    expect(r.notifications[0]).toMatchObject({ at: 0, monitors: ["api"], channel: "http" });
  });

  it("a recovery before a contact's delay: that contact hears nothing, then or after", () => {
    const r = result("a recovery before a contact's delay reaches nobody after it");
    expect(r.passed).toBe(true);
    expect(said(r.notifications.filter((n) => n.contact))).toEqual([
      "pager down@0s sent",
      "pager up@180s sent",
    ]);
  });

  it("an unconfirmed contact gets a blocked notification, and no message", () => {
    const r = result("an unconfirmed contact's notification is blocked");
    expect(r.passed).toBe(true);
    expect(said(r.notifications.filter((n) => n.contact))).toEqual(["boss down@0s blocked (unconfirmed)"]);
  });

  it("reminders every 30 minutes while down, to the contacts subscribed to them", () => {
    const r = result("reminders every 30 minutes to the contacts that asked");
    expect(r.passed).toBe(true);
    expect(said(r.notifications.filter((n) => n.alert === "repeatedlyDown"))).toEqual([
      "pager repeatedlyDown@1800s sent",
      "pager repeatedlyDown@3600s sent",
    ]);
  });

  it("a paused monitor runs no checks and alerts nobody, and the run says so", () => {
    const r = result("a paused monitor alerts nobody");
    expect(r.passed).toBe(true);
    expect(r.notifications).toEqual([]);
    expect(r.notes).toEqual(["batch is paused: it runs no checks, so taking it down at 0 changes nothing"]);
  });

  it("a weekly window with suppressAlerts holds alerts back until it ends, in its ninth week as in its first", () => {
    const held = result("the weekly deploy window holds alerts back until it ends");
    expect(held.passed).toBe(true);
    expect(said(held.notifications.filter((n) => n.contact))).toEqual([
      "boss down@3000s sent",
      "boss up@4800s sent",
    ]);
    const outside = result("outside the window the same outage alerts at once");
    expect(outside.passed).toBe(true);
  });

  it("a failed expectation keeps the notifications nearest it; a broken never keeps what broke it", () => {
    const r = result("fails, saying what came instead");
    expect(r.passed).toBe(false);
    const [phone, pagerAtZero, pagerAtOne] = r.expectations;
    expect(phone).toMatchObject({ passed: false });
    expect(said(phone!.nearest)).toEqual(["phone down@300s sent"]);
    // One notification meets one expectation: the second pager expectation has none left.
    expect(pagerAtZero).toMatchObject({ passed: true, met: { contact: "pager", at: 0 } });
    expect(pagerAtOne).toMatchObject({ passed: false });
    expect(said(pagerAtOne!.nearest)).toEqual(["pager down@0s sent"]);
    expect(r.nevers).toMatchObject([{ passed: false }]);
    expect(said(r.nevers[0]!.broken)).toEqual(["team down@600s sent"]);
  });

  it("ends a scenario at its latest expectation plus its tolerance, or at until", () => {
    // Tolerances of 0: the end is the last step's and the latest expectation's moment, 20m.
    expect(result("each contact hears after its own delay").scenario.end).toBe(20 * 60);
    expect(result("fails, saying what came instead").scenario.end).toBe(15 * 60);
    // One step and one expectation at 0, with no tolerance: the scenario is that one moment.
    expect(result("an unconfirmed contact's notification is blocked").scenario.end).toBe(0);
  });

  it("starts every scenario from the configuration freshly applied", () => {
    // The first scenario's outage left the api up; the reminder scenario, later in the file, saw a fresh one:
    // its incident opened at its own start and its down alert went out then.
    const r = result("reminders every 30 minutes to the contacts that asked");
    expect(said(r.notifications.filter((n) => n.alert === "down"))).toEqual([
      "pager down@0s sent",
      "phone down@300s sent",
      "team down@600s sent",
    ]);
  });
});
