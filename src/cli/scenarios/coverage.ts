/**
 * `vigil test --coverage`: how much of the configuration the scenarios prove. Three parts, counted together
 * for the percentage: the enabled monitors some scenario takes down, the contacts some expectation (`expect:`
 * or `never:`) names, and the alert subscriptions some scenario exercised (a notification went to the
 * contact about the monitor).
 */
import type { DesiredResource } from "../../engine/model.ts";
import { isContactMatch } from "./model.ts";
import type { SuiteRun } from "./run.ts";

export interface CoveragePart {
  covered: number;
  total: number;
  /** What is not covered: names, or `monitor → contact` for subscriptions. */
  uncovered: string[];
}

export interface CoverageReport {
  /** Covered items of the three parts over all their items, 0-100 (100 when there are none). */
  percent: number;
  monitors: CoveragePart;
  contacts: CoveragePart;
  subscriptions: CoveragePart;
}

const nameOf = (address: string) => address.slice(address.indexOf(".") + 1);
const refName = (value: unknown) =>
  typeof value === "object" && value !== null && typeof (value as { $ref?: unknown }).$ref === "string"
    ? nameOf((value as { $ref: string }).$ref)
    : undefined;

function part(all: readonly string[], covered: ReadonlySet<string>): CoveragePart {
  const unique = [...new Set(all)];
  const uncovered = unique.filter((name) => !covered.has(name));
  return { covered: unique.length - uncovered.length, total: unique.length, uncovered };
}

export function coverageOf(resources: readonly DesiredResource[], runs: readonly SuiteRun[]): CoverageReport {
  const monitors: string[] = [];
  const contacts: string[] = [];
  const subscriptions: string[] = [];
  for (const r of resources) {
    if (r.kind === "monitor" && r.members.enabled !== false) monitors.push(nameOf(r.address));
    else if (r.kind === "contact") contacts.push(nameOf(r.address));
    else if (r.kind === "alertSubscription") {
      const monitor = refName(r.members.monitorId);
      const contact = refName(r.members.contactId);
      if (monitor && contact) subscriptions.push(`${monitor} → ${contact}`);
    }
  }
  const takenDown = new Set<string>();
  const named = new Set<string>();
  const exercised = new Set<string>();
  for (const run of runs)
    for (const result of run.scenarios) {
      for (const step of result.scenario.steps) for (const m of step.down) takenDown.add(m);
      for (const entry of [...result.scenario.expect, ...result.scenario.never])
        if (isContactMatch(entry.match)) named.add(entry.match.contact);
      for (const n of result.notifications)
        if (n.contact !== undefined) for (const m of n.monitors) exercised.add(`${m} → ${n.contact}`);
    }
  const parts = {
    monitors: part(monitors, takenDown),
    contacts: part(contacts, named),
    subscriptions: part(subscriptions, exercised),
  };
  const total = parts.monitors.total + parts.contacts.total + parts.subscriptions.total;
  const covered = parts.monitors.covered + parts.contacts.covered + parts.subscriptions.covered;
  return { percent: total === 0 ? 100 : (covered / total) * 100, ...parts };
}
