/**
 * `vigil routes` on a page: the routing matrix and its diff, as text for a terminal, Markdown for a
 * pull-request comment (cut to GitHub's comment limit) and JSON (docs/testing.md, "vigil routes").
 */
import { reminderIntervalSec } from "../../kinds/index.ts";
import {
  describeHold,
  describeReason,
  type Hold,
  type MonitorRouting,
  pagesOnDown,
  type Route,
  type RoutesDiff,
  type RoutingMatrix,
} from "../../routing/index.ts";
import { githubCommentLimit } from "./markdown.ts";
import type { Styler } from "./style.ts";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const recipient = (r: Route) => r.contact ?? `${r.webhook} (webhook)`;
const reminderMinutes = reminderIntervalSec / 60;

/** The monitors whose `down` pages no contact: enabled ones only (a paused monitor pages nobody on purpose). */
export const silentMonitors = (matrix: RoutingMatrix): MonitorRouting[] =>
  matrix.monitors.filter((m) => m.enabled && !m.routes.some(pagesOnDown));

/** What a route does, in a few words: its alert types, delay and outcome. */
export function routeWords(r: Route): string {
  const types = r.alertTypes.length > 0 ? r.alertTypes.join(", ") : "incident events only";
  const parts = [`${types} ${r.delayMinutes === 0 ? "at once" : `after ${r.delayMinutes} min`}`];
  if (r.webhook !== undefined && r.events?.includes("incident.opened"))
    parts.push("incident.opened at once, even in maintenance");
  if (r.contact !== null && r.alertTypes.includes("up") && r.delayMinutes > 0)
    parts.push(`up only after an outage of ${r.delayMinutes} min or more`);
  if (r.alertTypes.includes("repeatedlyDown")) parts.push(`reminders every ${reminderMinutes} min`);
  if (!r.confirmed) parts.push("unconfirmed");
  if (r.outcome === "blocked") parts.push(`blocked: ${describeReason(r.reason!)}`);
  if (r.outcome === "none") parts.push(`nothing sent: ${describeReason(r.reason!)}`);
  if (r.missedNotices)
    parts.push(
      `no ${r.missedNotices.join(", ")} notices of the attached checks: ${describeReason("no_gateway")}`,
    );
  return parts.join("; ");
}

function monitorHeading(m: MonitorRouting): string {
  const about = [m.title, m.type, m.notice && `${m.notice} notices`, !m.enabled && "paused"].filter(Boolean);
  return `${m.monitor} (${about.join(", ")})`;
}

/** The matrix for a terminal: each monitor, its recipients, the windows that hold it, and who pages nobody. */
export function renderMatrix(matrix: RoutingMatrix, style: Styler, confirmedNote: string): string {
  const lines: string[] = [];
  for (const m of matrix.monitors) {
    lines.push(style.bold(monitorHeading(m)));
    if (m.routes.length === 0) lines.push(`  ${style.yellow("⚠ no contact or webhook is reached")}`);
    const width = Math.max(0, ...m.routes.map((r) => recipient(r).length));
    const channels = Math.max(0, ...m.routes.map((r) => r.channel.length));
    for (const r of m.routes) {
      const mark = r.outcome === "sent" ? style.green("✓") : style.red("✗");
      lines.push(`  ${mark} ${recipient(r).padEnd(width)}  ${r.channel.padEnd(channels)}  ${routeWords(r)}`);
    }
    if (m.enabled && m.routes.length > 0 && !m.routes.some(pagesOnDown))
      lines.push(`  ${style.yellow("⚠ no contact is paged on down")}`);
    for (const hold of m.heldBy) lines.push(`  ${style.dim(`held during ${describeHold(hold)}`)}`);
  }
  const silent = silentMonitors(matrix);
  lines.push(
    "",
    `${plural(matrix.monitors.length, "monitor")}, ${plural(matrix.routes.length, "route")}; ${confirmedNote}.`,
  );
  if (silent.length > 0)
    lines.push(
      style.yellow(
        `⚠ ${plural(silent.length, "enabled monitor")} page${silent.length === 1 ? "s" : ""} nobody on down: ${listed(silent.map((m) => m.monitor))}`,
      ),
    );
  return `${lines.join("\n")}\n`;
}

/** At most 20 names, then how many more: a summary line stays a line. */
function listed(names: readonly string[]): string {
  return names.length <= 20
    ? names.join(", ")
    : `${names.slice(0, 20).join(", ")} and ${names.length - 20} more`;
}

const changeWords = (before: Route, after: Route, members: readonly string[]) =>
  members.map((m) => `${m}: ${shown(before, m)} → ${shown(after, m)}`).join("; ");

function shown(r: Route, member: string): string {
  const value = r[member as keyof Route];
  if (member === "heldBy") return (value as Hold[]).map((h) => h.maintenance).join(", ") || "none";
  if (member === "reason") return value === undefined ? "none" : String(value);
  if (Array.isArray(value)) return value.join(", ") || "none";
  return String(value);
}

/** The diff for a terminal: routes added, removed and changed, by monitor. */
export function renderDiff(diff: RoutesDiff, style: Styler): string {
  const lines: string[] = [];
  for (const r of diff.added)
    lines.push(style.green(`+ ${r.monitor} → ${recipient(r)} (${r.channel}): ${routeWords(r)}`));
  for (const r of diff.removed)
    lines.push(style.red(`- ${r.monitor} → ${recipient(r)} (${r.channel}): ${routeWords(r)}`));
  for (const { before, after, members } of diff.changed)
    lines.push(
      style.yellow(`~ ${after.monitor} → ${recipient(after)}: ${changeWords(before, after, members)}`),
    );
  lines.push(lines.length === 0 ? "No change to who gets paged." : diffSummary(diff));
  if (diff.unpaged.length > 0) lines.push(style.yellow(`⚠ ${unpagedSentence(diff.unpaged)}`));
  return `${lines.join("\n")}\n`;
}

const unpagedSentence = (monitors: readonly string[]) =>
  `${plural(monitors.length, "monitor")} paged someone on down and page${monitors.length === 1 ? "s" : ""} nobody now: ${listed(monitors)}`;

const diffSummary = (d: RoutesDiff) =>
  `Routes: ${d.added.length} added, ${d.changed.length} changed, ${d.removed.length} removed.`;

const cell = (text: string) => text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\n/g, " ");
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const md = (text: string) => cell(escapeHtml(text));

/** Table rows until the comment's budget runs out; then one line saying how many were left out. */
function table(header: string[], rows: string[][], budget: { left: number }): string[] {
  const out = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  let shownRows = 0;
  for (const row of rows) {
    const line = `| ${row.map(md).join(" | ")} |`;
    if (line.length + 1 > budget.left - 200) break;
    budget.left -= line.length + 1;
    out.push(line);
    shownRows++;
  }
  if (shownRows < rows.length)
    out.push("", `… and ${rows.length - shownRows} more, left out to fit a comment.`);
  return out;
}

const routeRow = (r: Route) => [r.monitor, recipient(r), r.channel, routeWords(r)];

/** The matrix as Markdown: one table of every route, and the monitors that page nobody. */
export function renderMatrixMarkdown(
  matrix: RoutingMatrix,
  confirmedNote: string,
  maxLength = githubCommentLimit,
): string {
  const silent = silentMonitors(matrix);
  const lines = [
    `### vigil routes: ${plural(matrix.monitors.length, "monitor")}, ${plural(matrix.routes.length, "route")}`,
    "",
    `_${md(confirmedNote)}._`,
    "",
  ];
  if (silent.length > 0)
    lines.push(
      `> ⚠ ${plural(silent.length, "enabled monitor")} page nobody on down: ${md(listed(silent.map((m) => m.monitor)))}`,
      "",
    );
  const budget = { left: maxLength - lines.join("\n").length };
  lines.push(...table(["monitor", "reaches", "channel", "what"], matrix.routes.map(routeRow), budget));
  return `${lines.join("\n")}\n`;
}

/** The diff as a pull-request comment. */
export function renderDiffMarkdown(diff: RoutesDiff, maxLength = githubCommentLimit): string {
  if (diff.added.length + diff.removed.length + diff.changed.length === 0)
    return "### vigil routes: no change to who gets paged\n";
  const lines = [`### vigil routes: who gets paged changes`, "", diffSummary(diff), ""];
  if (diff.unpaged.length > 0) lines.push(`> ⚠ ${md(unpagedSentence(diff.unpaged))}`, "");
  const budget = { left: maxLength - lines.join("\n").length };
  const sections: [string, string[], string[][]][] = [
    ["Added", ["monitor", "reaches", "channel", "what"], diff.added.map(routeRow)],
    ["Removed", ["monitor", "reaches", "channel", "what"], diff.removed.map(routeRow)],
    [
      "Changed",
      ["monitor", "reaches", "before", "after"],
      diff.changed.map(({ before, after, members }) => [
        after.monitor,
        recipient(after),
        members.map((m) => `${m}: ${shown(before, m)}`).join("; "),
        members.map((m) => `${m}: ${shown(after, m)}`).join("; "),
      ]),
    ],
  ];
  for (const [title, header, rows] of sections) {
    if (rows.length === 0) continue;
    lines.push(`#### ${title}`, "", ...table(header, rows, budget), "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** A window in JSON: its times as ISO 8601, as configurations write them. */
const isoSeconds = (unix: number) => new Date(unix * 1000).toISOString().replace(".000Z", "Z");
const holdJson = (h: Hold) => ({ ...h, from: isoSeconds(h.from), to: isoSeconds(h.to) });
const routeJson = (r: Route) => ({ ...r, heldBy: r.heldBy.map(holdJson) });

/** The matrix as JSON: the monitors (with `pagesOnDown`) and every route. */
export function matrixJson(matrix: RoutingMatrix, confirmed: readonly string[] | "all") {
  return {
    confirmed,
    monitors: matrix.monitors.map(({ routes, heldBy, ...m }) => ({
      ...m,
      heldBy: heldBy.map(holdJson),
      pagesOnDown: routes.some(pagesOnDown),
    })),
    routes: matrix.routes.map(routeJson),
  };
}

export function diffJson(diff: RoutesDiff) {
  return {
    unpaged: diff.unpaged,
    added: diff.added.map(routeJson),
    removed: diff.removed.map(routeJson),
    changed: diff.changed.map(({ before, after, members }) => ({
      monitor: after.monitor,
      contact: after.contact,
      ...(after.webhook !== undefined && { webhook: after.webhook }),
      members,
      before: routeJson(before),
      after: routeJson(after),
    })),
  };
}
