/**
 * What a `vigil test` run found, as data (the `--json` document, docs/testing.md) and as the human summary:
 * each scenario, each failed expectation with the notifications that did come nearest it, with times.
 */
import { formatIsoTime } from "../../gitops/format.ts";
import { formatDiagnostic } from "../../gitops/load.ts";
import type { Styler } from "../render/style.ts";
import { shown } from "./check.ts";
import type { CoverageReport } from "./coverage.ts";
import type { ExpectationResult, NeverResult, Notification, ScenarioResult } from "./judge.ts";
import { isContactMatch, type Match, type Position, type TestDiagnostic } from "./model.ts";
import type { RuleResult } from "./rules.ts";
import type { SuiteRun } from "./run.ts";

export interface FileReport extends SuiteRun {
  rules: RuleResult[];
}

export interface RunReport {
  files: FileReport[];
  warnings: TestDiagnostic[];
  coverage?: CoverageReport;
  /** `--min-coverage`, when given. */
  minCoverage?: number;
}

/**
 * A scenario's name as a terminal shows it: it is free text from a file a pull request may bring, so every
 * control, format or line-separator character is written as an escape and cannot move the cursor or
 * rewrite what was printed.
 */
export const printable = (text: string) =>
  text.replace(/[\p{C}\p{Zl}\p{Zp}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

const place = (at: Position | undefined) => (at ? `${at.file}:${at.line}:${at.column}` : null);

/** `oncall-phone down`, `incident-bot monitor.down`, with the filters an entry adds. */
export function describeMatch(m: Match): string {
  const about = m.monitor === undefined ? "" : ` about ${m.monitor}`;
  if (!isContactMatch(m)) return `${m.webhook} ${m.event ?? "any event"}${about}`;
  const filters = [m.channel, m.outcome].filter(Boolean).join(", ");
  return `${m.contact} ${m.alert ?? "any alert"}${about}${filters ? ` (${filters})` : ""}`;
}

/** `down at 5m (sms, sent) about checkout-api`. */
export function describeNotification(n: Notification): string {
  const what = n.contact !== undefined ? `${n.contact} ${n.alert}` : `${n.webhook} ${n.event}`;
  const how =
    n.contact !== undefined ? ` (${n.channel}, ${n.outcome}${n.reason ? `: ${n.reason}` : ""})` : "";
  const about = n.monitors.length > 0 ? ` about ${n.monitors.join(", ")}` : "";
  return `${what} at ${shown(n.at)}${how}${about}`;
}

const notificationJson = (n: Notification, start: number) => ({
  at: shown(n.at),
  atSec: n.at,
  time: formatIsoTime(start + n.at),
  ...(n.contact !== undefined
    ? { contact: n.contact, alert: n.alert, channel: n.channel, outcome: n.outcome, reason: n.reason ?? null }
    : { webhook: n.webhook, event: n.event }),
  monitors: n.monitors,
});

const expectationJson = (r: ExpectationResult, start: number) => ({
  ...r.expectation.match,
  at: shown(r.expectation.at),
  within: shown(r.expectation.within),
  place: place(r.expectation.place),
  passed: r.passed,
  met: r.met ? notificationJson(r.met, start) : null,
  nearest: r.nearest.map((n) => notificationJson(n, start)),
});

const neverJson = (r: NeverResult, start: number) => ({
  ...r.never.match,
  place: place(r.never.place),
  passed: r.passed,
  broken: r.broken.map((n) => notificationJson(n, start)),
});

function scenarioJson(r: ScenarioResult) {
  const { scenario } = r;
  return {
    name: scenario.name,
    place: place(scenario.place),
    passed: r.passed,
    start: formatIsoTime(scenario.start),
    end: formatIsoTime(scenario.start + scenario.end),
    durationMs: Math.round(r.durationMs),
    expect: r.expectations.map((e) => expectationJson(e, scenario.start)),
    never: r.nevers.map((n) => neverJson(n, scenario.start)),
    notifications: r.notifications.map((n) => notificationJson(n, scenario.start)),
    notes: r.notes,
  };
}

/** Counts of a run: what the summary line and the exit code are made of. */
export function countsOf(report: RunReport) {
  const scenarios = report.files.flatMap((f) => f.scenarios);
  const rules = report.files.flatMap((f) => f.rules);
  const coverageShort =
    report.coverage !== undefined &&
    report.minCoverage !== undefined &&
    report.coverage.percent < report.minCoverage;
  return {
    files: report.files.length,
    scenarios: scenarios.length,
    passed: scenarios.filter((s) => s.passed).length,
    failed: scenarios.filter((s) => !s.passed).length,
    rules: rules.length,
    rulesFailed: rules.filter((r) => !r.passed).length,
    coverageShort,
  };
}

export function reportPassed(report: RunReport): boolean {
  const c = countsOf(report);
  return c.failed === 0 && c.rulesFailed === 0 && !c.coverageShort;
}

/** The `--json` document (docs/testing.md, "JSON output"). */
export function reportJson(report: RunReport) {
  const counts = countsOf(report);
  return {
    passed: reportPassed(report),
    summary: {
      files: counts.files,
      scenarios: counts.scenarios,
      passed: counts.passed,
      failed: counts.failed,
      rules: counts.rules,
      rulesFailed: counts.rulesFailed,
    },
    files: report.files.map((f) => ({
      file: f.suite.file,
      passed: f.scenarios.every((s) => s.passed) && f.rules.every((r) => r.passed),
      rules: f.rules.map((r) => ({
        rule: r.rule,
        title: r.title,
        place: place(r.place),
        passed: r.passed,
        failures: r.failures,
      })),
      scenarios: f.scenarios.map(scenarioJson),
    })),
    warnings: report.warnings.map(formatDiagnostic),
    ...(report.coverage && {
      coverage: {
        ...report.coverage,
        ...(report.minCoverage !== undefined && { minimum: report.minCoverage, met: !counts.coverageShort }),
      },
    }),
  };
}

/** The human summary. */
export function renderHuman(report: RunReport, style: Styler): string {
  const lines: string[] = [];
  const pass = style.green("✓");
  const fail = style.red("✗");
  for (const file of report.files) {
    lines.push(style.bold(file.suite.file));
    for (const r of file.scenarios) {
      const time = style.dim(`(${(r.durationMs / 1000).toFixed(1)} s)`);
      lines.push(`  ${r.passed ? pass : fail} ${printable(r.scenario.name)} ${time}`);
      for (const note of r.notes) lines.push(`      ${style.yellow("note:")} ${note}`);
      for (const e of r.expectations) {
        if (e.passed) continue;
        const x = e.expectation;
        lines.push(
          `      ${fail} expected ${describeMatch(x.match)} at ${shown(x.at)} (±${shown(x.within)})${at(x.place)}`,
        );
        const recipient = isContactMatch(x.match) ? x.match.contact : x.match.webhook;
        if (e.nearest.length === 0)
          lines.push(`          nothing reached ${recipient} in the whole scenario`);
        else
          lines.push(
            `          what reached ${recipient} nearest then: ${e.nearest.map(describeNotification).join("; ")}`,
          );
      }
      for (const n of r.nevers) {
        if (n.passed) continue;
        const shownBroken = n.broken.slice(0, 3).map(describeNotification).join("; ");
        const more = n.broken.length > 3 ? ` and ${n.broken.length - 3} more` : "";
        lines.push(`      ${fail} never ${describeMatch(n.never.match)}${at(n.never.place)}`);
        lines.push(`          but: ${shownBroken}${more}`);
      }
    }
    for (const rule of file.rules) {
      lines.push(`  ${rule.passed ? pass : fail} rule ${rule.rule}: ${rule.title}${at(rule.place)}`);
      for (const failure of rule.failures) lines.push(`      ${failure}`);
    }
  }
  if (report.coverage) lines.push("", ...coverageLines(report.coverage, report.minCoverage));
  const c = countsOf(report);
  const scenarioWord = `${c.scenarios} scenario${c.scenarios === 1 ? "" : "s"}`;
  const rules = c.rules > 0 ? `; ${c.rules} rule${c.rules === 1 ? "" : "s"}, ${c.rulesFailed} failed` : "";
  const verdict = reportPassed(report) ? style.green("passed") : style.red("failed");
  lines.push(
    "",
    `${verdict}: ${scenarioWord} in ${c.files} file${c.files === 1 ? "" : "s"}, ${c.passed} passed, ${c.failed} failed${rules}.`,
  );
  return `${lines.join("\n")}\n`;
}

const at = (p: Position | undefined) => (p ? `  ${p.file}:${p.line}:${p.column}` : "");

function coverageLines(coverage: CoverageReport, min: number | undefined): string[] {
  const part = (name: string, c: CoverageReport["monitors"], what: string) => [
    `  ${name}: ${c.covered} of ${c.total}${c.uncovered.length > 0 ? `; ${what}: ${c.uncovered.join(", ")}` : ""}`,
  ];
  const under = min !== undefined && coverage.percent < min ? ` (under the minimum, ${min}%)` : "";
  return [
    `Coverage: ${coverage.percent.toFixed(1)}%${under}`,
    ...part("monitors taken down", coverage.monitors, "never taken down"),
    ...part("contacts expected", coverage.contacts, "named by no expectation"),
    ...part("alert subscriptions exercised", coverage.subscriptions, "never exercised"),
  ];
}
