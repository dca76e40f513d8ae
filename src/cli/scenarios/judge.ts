/**
 * Judging a scenario on what the sandbox sent: each expectation must be met by a notification of its own
 * (two expectations of one reminder need two reminders), within its tolerance; each `never:` by none at all.
 */
import type { AlertType } from "../../routing/index.ts";
import { type Expectation, isContactMatch, type Match, type Never, type Scenario } from "./model.ts";

/** One notification the scenario caused: to a contact (an alert or reminder), or a delivery to a webhook. */
export interface Notification {
  /** Seconds from the scenario's start. */
  at: number;
  contact?: string;
  webhook?: string;
  alert?: AlertType;
  event?: string;
  channel: string;
  outcome: "sent" | "blocked";
  /** Why it was blocked (`unconfirmed`, `no_gateway`). */
  reason?: string;
  /** The monitors it is about (configuration names). */
  monitors: string[];
}

export interface ExpectationResult {
  expectation: Expectation;
  passed: boolean;
  /** The notification that met it. */
  met?: Notification;
  /** When it failed: the notifications to the same recipient nearest its moment (at most 3). */
  nearest: Notification[];
}

export interface NeverResult {
  never: Never;
  passed: boolean;
  /** The notifications that broke it. */
  broken: Notification[];
}

export interface ScenarioResult {
  scenario: Scenario;
  passed: boolean;
  expectations: ExpectationResult[];
  nevers: NeverResult[];
  /** Everything the scenario sent, by time. */
  notifications: Notification[];
  notes: string[];
  durationMs: number;
}

/** Whether a notification is what `match` asks for (its time aside). */
export function matches(n: Notification, m: Match): boolean {
  if (m.monitor !== undefined && !n.monitors.includes(m.monitor)) return false;
  if (isContactMatch(m))
    return (
      n.contact === m.contact &&
      (m.alert === undefined || n.alert === m.alert) &&
      (m.outcome === undefined || n.outcome === m.outcome) &&
      (m.channel === undefined || n.channel === m.channel)
    );
  return n.webhook === m.webhook && (m.event === undefined || n.event === m.event);
}

const recipientOf = (m: Match) => (isContactMatch(m) ? { contact: m.contact } : { webhook: m.webhook });

export function judge(
  scenario: Scenario,
  notifications: readonly Notification[],
  notes: string[],
  durationMs: number,
): ScenarioResult {
  // Earliest deadline first, each taking the earliest unused notification in its window: a matching of
  // windows to moments that meets every expectation whenever any assignment can.
  const order = scenario.expect.map((_, i) => i);
  order.sort((a, b) => {
    const x = scenario.expect[a]!;
    const y = scenario.expect[b]!;
    return x.at + x.within - (y.at + y.within) || a - b;
  });
  const used = new Set<Notification>();
  const met = new Map<number, Notification>();
  for (const i of order) {
    const e = scenario.expect[i]!;
    const found = notifications.find(
      (n) => !used.has(n) && Math.abs(n.at - e.at) <= e.within && matches(n, e.match),
    );
    if (found) {
      used.add(found);
      met.set(i, found);
    }
  }
  const expectations = scenario.expect.map((expectation, i): ExpectationResult => {
    const found = met.get(i);
    if (found) return { expectation, passed: true, met: found, nearest: [] };
    const recipient = recipientOf(expectation.match);
    const same = notifications.filter((n) =>
      "contact" in recipient ? n.contact === recipient.contact : n.webhook === recipient.webhook,
    );
    const nearest = [...same]
      .sort((a, b) => Math.abs(a.at - expectation.at) - Math.abs(b.at - expectation.at) || a.at - b.at)
      .slice(0, 3)
      .sort((a, b) => a.at - b.at);
    return { expectation, passed: false, nearest };
  });
  const nevers = scenario.never.map((never): NeverResult => {
    const broken = notifications.filter((n) => matches(n, never.match));
    return { never, passed: broken.length === 0, broken };
  });
  return {
    scenario,
    passed: expectations.every((e) => e.passed) && nevers.every((n) => n.passed),
    expectations,
    nevers,
    notifications: [...notifications],
    notes,
    durationMs,
  };
}
