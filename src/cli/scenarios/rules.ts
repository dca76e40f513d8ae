/**
 * What `vigil test` judges on the routing matrix (src/routing, `vigil routes`) rather than by running: a
 * file's `rules:` over every monitor, and `never:` entries that nothing in the configuration could ever
 * break (a warning: such an entry passes whatever the scenario does, which is seldom what was meant).
 */
import type { DesiredResource } from "../../engine/model.ts";
import {
  describeReason,
  pagesOnDown,
  type Route,
  type RoutingMatrix,
  routingMatrix,
} from "../../routing/index.ts";
import { article, shown } from "./check.ts";
import { isContactMatch, type Position, type Scenario, type Suite, type TestDiagnostic } from "./model.ts";

export interface RuleResult {
  rule: "everyMonitorAlerts" | "maxDelay";
  /** How the rule reads: `every enabled monitor alerts a confirmed contact on down`. */
  title: string;
  place?: Position;
  passed: boolean;
  /** One line per monitor that breaks it. */
  failures: string[];
}

/** The matrix of the configuration as a test file sees it: its contacts confirmed as it says. */
export function matrixFor(resources: readonly DesiredResource[], suite: Suite): RoutingMatrix {
  return routingMatrix(resources, {
    ...(suite.confirmed && { confirmed: new Set(suite.confirmed) }),
    now: Math.min(...suite.scenarios.map((s) => s.start), Math.floor(Date.now() / 1000)),
  });
}

const why = (r: Route) =>
  `${r.contact} (${r.channel})${r.alertTypes.includes("down") ? "" : " asks for no down alerts"}${
    r.reason ? `: ${describeReason(r.reason)}` : ""
  }`;

/** The file's rules, judged for every enabled monitor. */
export function judgeRules(suite: Suite, matrix: RoutingMatrix): RuleResult[] {
  const results: RuleResult[] = [];
  const enabled = matrix.monitors.filter((m) => m.enabled);
  const { everyMonitorAlerts, maxDelay } = suite.rules;
  if (everyMonitorAlerts?.value) {
    const failures = enabled.flatMap((m) => {
      if (m.routes.some(pagesOnDown)) return [];
      const contacts = m.routes.filter((r) => r.contact !== null);
      return [
        contacts.length === 0
          ? `${m.monitor}: no contact is subscribed to its alerts`
          : `${m.monitor}: reaches no confirmed contact on down: ${contacts.map(why).join("; ")}`,
      ];
    });
    results.push({
      rule: "everyMonitorAlerts",
      title: "every enabled monitor reaches a confirmed contact on down",
      ...(everyMonitorAlerts.place && { place: everyMonitorAlerts.place }),
      passed: failures.length === 0,
      failures,
    });
  }
  if (maxDelay) {
    const limit = maxDelay.value;
    const failures = enabled.flatMap((m) => {
      const delays = m.routes.filter(pagesOnDown).map((r) => r.delayMinutes * 60);
      // A monitor that pages nobody is everyMonitorAlerts' to judge: it has no earliest alert.
      if (delays.length === 0) return [];
      const earliest = Math.min(...delays);
      if (earliest <= limit) return [];
      const first = m.routes
        .filter((r) => pagesOnDown(r) && r.delayMinutes * 60 === earliest)
        .map((r) => r.contact);
      return [
        `${m.monitor}: its earliest down alert comes ${shown(earliest)} after the failure (${first.join(", ")}), more than ${shown(limit)}`,
      ];
    });
    results.push({
      rule: "maxDelay",
      title: `every enabled monitor that pages on down does so within ${shown(limit)}`,
      ...(maxDelay.place && { place: maxDelay.place }),
      passed: failures.length === 0,
      failures,
    });
  }
  return results;
}

/** The monitors a scenario's steps take down or up. */
const touched = (scenario: Scenario) => [...new Set(scenario.steps.flatMap((s) => [...s.down, ...s.up]))];

/** Warnings for `never:` entries no notification could break, each saying why. */
export function neverWarnings(suite: Suite, matrix: RoutingMatrix): TestDiagnostic[] {
  const warnings: TestDiagnostic[] = [];
  suite.scenarios.forEach((scenario, i) => {
    const monitors = touched(scenario);
    scenario.never.forEach((never, j) => {
      const reason = unbreakable(never.match, monitors, matrix);
      if (reason)
        warnings.push({
          ...(never.place && { at: never.place }),
          path: `scenarios[${i}].never[${j}]`,
          message: `nothing in the configuration could break this never: ${reason}`,
        });
    });
  });
  return warnings;
}

function unbreakable(
  match: Suite["scenarios"][number]["never"][number]["match"],
  monitors: string[],
  matrix: RoutingMatrix,
): string | undefined {
  if (monitors.length === 0) return "the scenario takes no monitor down or up";
  const about = match.monitor === undefined ? monitors : monitors.filter((m) => m === match.monitor);
  if (about.length === 0) return `the scenario never takes ${match.monitor} down or up`;
  const rows = matrix.monitors.filter((m) => about.includes(m.monitor));
  const listed = about.join(", ");
  if (rows.every((m) => !m.enabled))
    return `${listed} ${about.length === 1 ? "is" : "are"} paused: paused monitors alert nobody`;
  if (isContactMatch(match)) {
    const routes = rows.flatMap((m) => m.routes.filter((r) => r.contact === match.contact));
    if (routes.length === 0)
      return `${match.contact} is subscribed to none of the monitors the scenario touches (${listed})`;
    const live = routes.filter((r) => r.outcome !== "none");
    if (live.length === 0) return `its subscriptions send nothing: ${describeReason(routes[0]!.reason!)}`;
    if (match.alert !== undefined && !live.some((r) => r.alertTypes.includes(match.alert!)))
      return `${match.contact}'s subscriptions to ${listed} ask for ${[...new Set(live.flatMap((r) => r.alertTypes))].join(", ")}, not ${match.alert}`;
    if (match.channel !== undefined && !live.some((r) => r.channel === match.channel))
      return `${match.contact} is ${article(live[0]!.channel)} ${live[0]!.channel} contact, never reached by ${match.channel}`;
    if (match.outcome !== undefined && !live.some((r) => r.outcome === match.outcome))
      return match.outcome === "blocked"
        ? `${match.contact}'s notifications about ${listed} are sent, never blocked`
        : `${match.contact}'s notifications about ${listed} are all blocked: ${describeReason(live[0]!.reason!)}`;
    return undefined;
  }
  const routes = rows.flatMap((m) => m.routes.filter((r) => r.webhook === match.webhook));
  if (routes.length === 0)
    return `${match.webhook} hears of none of the monitors the scenario touches (${listed}): its scope or its events leave them out`;
  const live = routes.filter((r) => r.outcome !== "none");
  if (live.length === 0) return describeReason(routes[0]!.reason!);
  if (match.event !== undefined && !live.some((r) => r.events?.includes(match.event!)))
    return `${match.webhook} subscribes to ${[...new Set(live.flatMap((r) => r.events ?? []))].join(", ")} about these monitors, not ${match.event}`;
  return undefined;
}
