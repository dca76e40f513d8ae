/**
 * The plan for a person at a terminal: one block per action (no-ops left out),
 * each change field by field, every value whole (a list wider than a line
 * element by element), then warnings, the summary sentence and the API calls
 * the plan used. Symbols are listed in changes.ts.
 */
import type { Plan, PlannedAction } from "../../engine/model.ts";
import {
  actionSymbol,
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
  notesByAddress,
  notesHeading,
  notesSentence,
  reasonsOf,
  summarySentence,
  type ValueLimits,
} from "./changes.ts";
import { type Styler, styler } from "./style.ts";

export interface RenderPlanOptions extends ValueLimits {
  /** Default: no colour. The CLI passes `stylerFor(process.stdout)`. */
  style?: Styler;
  /** The API calls the plan used (the client's metrics). */
  calls?: CallCounts;
  /** Address → `file:line` where it is declared. */
  sources?: ReadonlyMap<string, string>;
  /** `plan --refresh-only`: only what changed outside vigil. */
  refreshOnly?: boolean;
}

const headerIndent = "  ";
const fieldIndent = "      ";
const textIndent = "          ";

function opStyle(op: FieldLine["op"], s: Styler): (text: string) => string {
  return op === "add" ? s.green : op === "remove" ? s.red : s.yellow;
}

const lineWord = (n: number) => (n === 1 ? "line" : "lines");
const elementWord = (n: number) => (n === 1 ? "element" : "elements");

const opSymbol = { add: "+", remove: "-", replace: "~" } as const;

function renderField(line: FieldLine, s: Styler, markDrift: boolean): string[] {
  const color = opStyle(line.op, s);
  const head = `${fieldIndent}${color(opSymbol[line.op])} ${line.path}:`;
  const drift = markDrift && line.drift ? `  ${s.yellow(`(${driftNote})`)}` : "";
  if (line.sensitive) return [`${head} ${s.dim(maskedValue)}${drift}`];
  if (line.text) {
    const { removed, added, unchanged, more } = line.text;
    const note =
      unchanged > 0 ? ` ${s.dim(`(${unchanged} unchanged ${lineWord(unchanged)} not shown)`)}` : "";
    return [
      `${head}${note}${drift}`,
      ...removed.map((t) => `${textIndent}${s.red(`- ${t}`)}`),
      ...added.map((t) => `${textIndent}${s.green(`+ ${t}`)}`),
      ...(more > 0 ? [`${textIndent}${s.dim(`… ${more} more ${lineWord(more)}`)}`] : []),
    ];
  }
  if (line.elements) {
    const { changed, added, removed, counts, unchanged, more } = line.elements;
    const summary = (["changed", "added", "removed"] as const)
      .filter((k) => counts[k] > 0)
      .map((k) => `${counts[k]} ${k}`)
      .join(", ");
    const note =
      unchanged > 0 ? ` ${s.dim(`(${unchanged} unchanged ${elementWord(unchanged)} not shown)`)}` : "";
    return [
      `${head} ${summary}${note}${drift}`,
      ...changed.map((c) => `${textIndent}${s.yellow(`~ [${c.index}]: ${c.before} → ${c.after}`)}`),
      ...removed.map((t) => `${textIndent}${s.red(`- ${t}`)}`),
      ...added.map((t) => `${textIndent}${s.green(`+ ${t}`)}`),
      ...(more > 0 ? [`${textIndent}${s.dim(`… ${more} more ${elementWord(more)}`)}`] : []),
    ];
  }
  const value =
    line.op === "replace"
      ? `${line.before} → ${line.after}`
      : line.op === "add"
        ? (line.after ?? "")
        : (line.before ?? "");
  return [`${head} ${value}${drift}`];
}

function actionColor(action: PlannedAction, s: Styler): (text: string) => string {
  switch (action.action) {
    case "create":
      return s.green;
    case "update":
      return s.yellow;
    case "replace":
    case "delete":
      return s.red;
    default:
      return s.cyan;
  }
}

function header(action: PlannedAction, word: string, options: RenderPlanOptions, s: Styler): string {
  // A resource leaving the config has no source: its id says which object it is.
  const leaving = action.action === "delete" || action.action === "forget";
  const label =
    options.sources?.get(action.address) ?? (leaving && action.id ? `id ${action.id}` : undefined);
  return `${headerIndent}${actionColor(action, s)(actionSymbol(action))} ${s.bold(action.address)}  ${word}${
    label ? `  ${s.dim(`(${label})`)}` : ""
  }`;
}

/** `out.push(...lines)` without the spread, which overflows the stack past some 100,000 lines. */
function append(out: string[], lines: readonly string[]): void {
  for (const line of lines) out.push(line);
}

function renderChanges(plan: Plan, options: RenderPlanOptions, s: Styler): string[] {
  const counts = countActions(plan);
  const out: string[] = [];
  if (hasChanges(counts)) {
    out.push("vigil will perform these actions:", "");
    for (const action of plan.actions.filter(isShown)) {
      out.push(header(action, actionWord(action), options, s));
      for (const reason of reasonsOf(action)) out.push(`${fieldIndent}${s.dim(`# ${reason}`)}`);
      for (const line of fieldLines(action, options)) append(out, renderField(line, s, true));
      out.push("");
    }
  }
  append(out, notes(plan, options, s));
  append(out, warnings(plan, s));
  if (hasChanges(counts)) {
    out.push(s.bold(summarySentence(counts)));
    const extra = extraSummary(counts);
    if (extra) out.push(extra);
  } else out.push(s.bold(noChanges));
  return out;
}

function renderDrift(plan: Plan, options: RenderPlanOptions, s: Styler): string[] {
  const items = driftItems(plan, options);
  const out: string[] = [];
  if (items.length > 0) {
    out.push(
      s.bold("Objects changed outside vigil:"),
      s.dim("(values as vigil applied them → as found in the account)"),
      "",
    );
    for (const { action, deleted, lines } of items) {
      if (deleted) {
        out.push(`${headerIndent}${s.red("-")} ${s.bold(action.address)}  deleted outside vigil`);
        continue;
      }
      const source = options.sources?.get(action.address);
      out.push(
        `${headerIndent}${s.yellow("~")} ${s.bold(action.address)}${source ? `  ${s.dim(`(${source})`)}` : ""}`,
      );
      for (const line of lines) append(out, renderField(line, s, false));
    }
    out.push("");
  }
  append(out, notes(plan, options, s));
  append(out, warnings(plan, s));
  out.push(s.bold(driftSentence(items.length)));
  return out;
}

/** Drift notes: what changed outside vigil in members the configuration leaves unset. */
function notes(plan: Plan, options: RenderPlanOptions, s: Styler): string[] {
  const byAddress = notesByAddress(plan);
  if (byAddress.length === 0) return [];
  const out = [
    s.bold(notesHeading),
    s.dim("(values as the service stores them by default → as found in the account)"),
    "",
  ];
  for (const [address, list] of byAddress) {
    const source = options.sources?.get(address);
    out.push(
      `${headerIndent}${s.yellow("!")} ${s.bold(address)}${source ? `  ${s.dim(`(${source})`)}` : ""}`,
    );
    for (const note of list) out.push(`${fieldIndent}${noteLine(note, options)}`);
  }
  out.push("", notesSentence(plan)!, "");
  return out;
}

function warnings(plan: Plan, s: Styler): string[] {
  if (plan.warnings.length === 0) return [];
  return [...plan.warnings.map((w) => `${s.yellow("Warning:")} ${w}`), ""];
}

export function renderPlan(plan: Plan, given: RenderPlanOptions = {}): string {
  // A person reviews what will be applied: every value whole, unless a caller asks otherwise.
  const options = { whole: true, ...given };
  const s = options.style ?? styler(false);
  const lines = options.refreshOnly ? renderDrift(plan, options, s) : renderChanges(plan, options, s);
  if (options.calls) lines.push(callsLine(options.calls));
  // Last, after everything a long plan scrolls past: what it deletes.
  const deletions = options.refreshOnly ? undefined : deletionSentence(countActions(plan));
  if (deletions) lines.push(s.bold(s.red(deletions)));
  return `${lines.join("\n")}\n`;
}
