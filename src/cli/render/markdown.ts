/**
 * The plan as a pull-request comment: the summary sentence as a heading, one
 * table row per action, the field changes of each resource folded in a
 * `<details>` diff, warnings as a quote and the API calls used. GitHub refuses
 * comments over 65536 characters: past that, resources are left out and the
 * comment says how many.
 */
import type { Plan, PlannedAction } from "../../engine/model.ts";
import {
  actionWord,
  type CallCounts,
  callsLine,
  countActions,
  deletionSentence,
  driftItems,
  driftNote,
  driftSentence,
  extraSummary,
  type FieldLine,
  fieldLines,
  hasChanges,
  isShown,
  maskedValue,
  noChanges,
  noteLine,
  notesHeading,
  notesSentence,
  reasonsOf,
  summarySentence,
  type ValueLimits,
} from "./changes.ts";

export const githubCommentLimit = 65536;

export interface RenderMarkdownOptions extends ValueLimits {
  calls?: CallCounts;
  /** Address → `file:line`, shown in each resource's details. */
  sources?: ReadonlyMap<string, string>;
  refreshOnly?: boolean;
  /** Characters the comment may take (default: GitHub's limit). */
  maxLength?: number;
}

/** One resource: its table cells and the lines of its diff block (none: no details). */
interface Entry {
  address: string;
  cells: string[];
  headline: string;
  diff: string[];
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A code span safe inside a table cell. */
function code(text: string): string {
  const span = text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``;
  return span.replace(/\|/g, "\\|");
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

const maxMembersListed = 6;

function membersCell(lines: FieldLine[]): string {
  const paths = [...new Set(lines.map((l) => l.path))];
  const listed = paths.slice(0, maxMembersListed).map(code).join(", ");
  const more = paths.length - maxMembersListed;
  return more > 0 ? `${listed} and ${more} more` : listed;
}

/** A field change as `diff` lines: `+` added, `-` removed, a pair for a replaced value, `!` for a masked one. */
function diffLines(line: FieldLine, markDrift: boolean): string[] {
  const drift = markDrift && line.drift ? `  # ${driftNote}` : "";
  if (line.sensitive) {
    const sign = line.op === "add" ? "+" : line.op === "remove" ? "-" : "!";
    return [`${sign} ${line.path}: ${maskedValue}${drift}`];
  }
  if (line.text) {
    const { removed, added, unchanged, more } = line.text;
    return [
      `! ${line.path}:${unchanged > 0 ? ` # ${unchanged} unchanged lines not shown` : ""}${drift}`,
      ...removed.map((t) => `-     ${t}`),
      ...added.map((t) => `+     ${t}`),
      ...(more > 0 ? [`      … ${more} more lines`] : []),
    ];
  }
  if (line.op === "add") return [`+ ${line.path}: ${line.after}${drift}`];
  if (line.op === "remove") return [`- ${line.path}: ${line.before}${drift}`];
  return [`- ${line.path}: ${line.before}${drift}`, `+ ${line.path}: ${line.after}`];
}

function changeEntries(plan: Plan, options: RenderMarkdownOptions): Entry[] {
  return plan.actions.filter(isShown).map((action: PlannedAction) => {
    const lines = fieldLines(action, options);
    const reasons = reasonsOf(action);
    return {
      address: action.address,
      cells: [code(action.address), cell(actionWord(action)), membersCell(lines), cell(reasons.join("; "))],
      headline: actionWord(action),
      diff:
        lines.length > 0
          ? [...reasons.map((r) => `# ${r}`), ...lines.flatMap((l) => diffLines(l, true))]
          : [],
    };
  });
}

function driftEntries(plan: Plan, options: RenderMarkdownOptions): Entry[] {
  return driftItems(plan, options).map(({ action, deleted, lines }) => ({
    address: action.address,
    cells: [code(action.address), deleted ? "deleted" : "changed", membersCell(lines)],
    headline: deleted ? "deleted outside vigil" : "changed outside vigil",
    diff: lines.flatMap((l) => diffLines(l, false)),
  }));
}

function details(entry: Entry, options: RenderMarkdownOptions): string {
  const source = options.sources?.get(entry.address);
  const where = source ? ` (${escapeHtml(source)})` : "";
  return [
    `<details><summary><code>${escapeHtml(entry.address)}</code>: ${escapeHtml(entry.headline)}${where}</summary>`,
    "",
    "```diff",
    ...entry.diff,
    "```",
    "",
    "</details>",
  ].join("\n");
}

/** Most drift notes a comment lists; the rest are counted (the JSON plan has each one). */
const maxNotes = 20;

/** The drift notes as a callout: reported, not reverted. */
function notesBlock(plan: Plan, options: RenderMarkdownOptions): string | undefined {
  const notes = plan.notes ?? [];
  if (notes.length === 0) return undefined;
  const lines = notes.slice(0, maxNotes).map((n) => `> - ${code(n.address)} ${code(noteLine(n, options))}`);
  if (notes.length > maxNotes)
    lines.push(`> - … and ${notes.length - maxNotes} more (\`vigil plan\` lists them all)`);
  return ["> [!NOTE]", `> **${notesHeading}**`, ">", ...lines, ">", `> ${notesSentence(plan)}`].join("\n");
}

export function renderPlanMarkdown(plan: Plan, options: RenderMarkdownOptions = {}): string {
  const maxLength = options.maxLength ?? githubCommentLimit;
  const counts = countActions(plan);
  const top: string[] = [];
  let entries: Entry[];
  let columns: string[];
  if (options.refreshOnly) {
    entries = driftEntries(plan, options);
    top.push(`### ${driftSentence(entries.length)}`);
    columns = ["Address", "Outside vigil", "Members"];
  } else {
    entries = changeEntries(plan, options);
    top.push(`### ${hasChanges(counts) ? summarySentence(counts) : noChanges}`);
    const extra = extraSummary(counts);
    if (extra) top.push(extra);
    const deletions = deletionSentence(counts);
    if (deletions) top.push(`> [!CAUTION]\n> **${deletions.replace(/^⚠ /, "")}**`);
    columns = ["Address", "Action", "Changed members", "Why"];
  }
  if (plan.warnings.length > 0) top.push(plan.warnings.map((w) => `> **Warning:** ${w}`).join("\n>\n"));
  const driftNotes = notesBlock(plan, options);
  if (driftNotes) top.push(driftNotes);
  const bottom = options.calls ? [callsLine(options.calls)] : [];

  const noteRoom = 300;
  let room = maxLength - [...top, ...bottom].reduce((n, part) => n + part.length + 2, 0) - noteRoom;
  const table = [`| ${columns.join(" | ")} |`, `|${columns.map(() => " --- |").join("")}`];
  room -= table.join("\n").length + 2;
  const rows: Entry[] = [];
  for (const entry of entries) {
    const row = `| ${entry.cells.join(" | ")} |`;
    if (row.length + 1 > room) break;
    room -= row.length + 1;
    table.push(row);
    rows.push(entry);
  }
  const folded: string[] = [];
  const withDiff = rows.filter((e) => e.diff.length > 0);
  for (const entry of withDiff) {
    const block = details(entry, options);
    if (block.length + 2 > room) break;
    room -= block.length + 2;
    folded.push(block);
  }

  const limit = `GitHub limits a comment to ${maxLength} characters; run \`vigil plan\` to see the whole plan.`;
  const notes: string[] = [];
  if (rows.length < entries.length)
    notes.push(`**${entries.length - rows.length} of ${entries.length} resources are left out.** ${limit}`);
  else if (folded.length < withDiff.length)
    notes.push(`**The changes of ${withDiff.length - folded.length} resources are left out.** ${limit}`);

  const parts = [...top, ...(entries.length > 0 ? [table.join("\n")] : []), ...folded, ...notes, ...bottom];
  return `${parts.join("\n\n")}\n`;
}
