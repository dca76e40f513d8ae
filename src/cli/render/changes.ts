/**
 * What the human and Markdown plans share: how an action is named, why it
 * happens, and each field change as display text. Values are rendered here
 * only, so masking holds for every output. The human plan shows every value
 * whole (`ValueLimits.whole`); the Markdown plan, capped by GitHub, cuts them.
 *
 * Action symbols:
 *
 * | symbol | action |
 * |---|---|
 * | `+` | create |
 * | `~` | update |
 * | `+/-` | replace, the new object created before the old one is deleted |
 * | `-/+` | replace, the old object deleted first (the new one's natural key would collide) |
 * | `-` | delete |
 * | `←` | import: bring a live object under the address (and update it if it differs) |
 * | `×` | forget: drop from the state, the object stays in the account |
 */
import type { Change, Plan, PlanNote, PlannedAction, PlanSummary } from "../../engine/model.ts";
import { summarize } from "../../engine/plan.ts";
import { isObject, pointer, tokensOf } from "../../engine/pointer.ts";
import { isUnknown } from "../../engine/refs.ts";

/** What a credential shows, whatever value a change carries. */
export const maskedValue = "(sensitive)";
const unknownValue = "(known after apply)";
export const driftNote = "drift: changed outside vigil";

export type ShownAction = Exclude<PlannedAction["action"], "no-op">;

export function isShown(action: PlannedAction): action is PlannedAction & { action: ShownAction } {
  return action.action !== "no-op";
}

export function actionSymbol(action: PlannedAction): string {
  switch (action.action) {
    case "create":
      return "+";
    case "update":
      return "~";
    case "replace":
      return action.replaceOrder === "delete-first" ? "-/+" : "+/-";
    case "delete":
      return "-";
    case "import":
      return "←";
    case "forget":
      return "×";
    case "no-op":
      return " ";
  }
}

export function actionWord(action: PlannedAction): string {
  if (action.action !== "replace") return action.action;
  return action.replaceOrder === "delete-first" ? "replace (delete first)" : "replace (create first)";
}

/** The action's reasons as sentences, with what the action itself implies (a cascade, a replace's cause). */
export function reasonsOf(action: PlannedAction): string[] {
  const reasons =
    action.action === "replace" ? action.reasons.map((r) => `replaced because ${r}`) : [...action.reasons];
  if (action.cascadedBy) {
    reasons.push(
      action.action === "replace"
        ? `cascaded: the old object is deleted by the API with ${action.cascadedBy}`
        : `cascaded: deleted by the API with ${action.cascadedBy}`,
    );
  }
  return reasons;
}

const identifier = /^[A-Za-z_$][\w$-]*$/;

/**
 * `/settings/timeout` → `settings.timeout`, `/headers/0` → `headers[0]`, `/a~1b` → `["a/b"]`. A token of
 * digits is shown as an index: change paths stop at arrays, so this is only a guess for numeric member names.
 */
function memberPath(path: string): string {
  let out = "";
  for (const token of tokensOf(path)) {
    if (/^\d+$/.test(token)) out += `[${token}]`;
    else if (identifier.test(token)) out += out === "" ? token : `.${token}`;
    else out += `[${JSON.stringify(token)}]`;
  }
  return out;
}

/**
 * Compact JSON, with ids known only after apply shown as such. Written with a stack of its own rather than
 * by recursion: a value of a plan file may nest deeper than the call stack goes.
 */
function compact(value: unknown): string {
  const out: string[] = [];
  // What is left to write, last first: a value (boxed, so that a string value is not taken for text) or text.
  const work: ({ value: unknown } | string)[] = [{ value }];
  while (work.length > 0) {
    const next = work.pop()!;
    if (typeof next === "string") {
      out.push(next);
      continue;
    }
    const v = next.value;
    if (isUnknown(v)) out.push(unknownValue);
    // The engine puts this marker where a credential is (inside a new monitor's settings, a webhook's headers):
    // it shows as the mask, as a sensitive change does, not as a quoted string the user wrote.
    else if (v === maskedValue) out.push(maskedValue);
    else if (Array.isArray(v) || isObject(v)) {
      const array = Array.isArray(v);
      const entries = array ? v.map((item, i) => [i, item] as const) : Object.entries(v);
      out.push(array ? "[" : "{");
      work.push(array ? "]" : "}");
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        work.push({ value: item });
        if (!array) work.push(`${JSON.stringify(key)}:`);
        if (i > 0) work.push(",");
      }
    } else out.push(v === undefined ? "null" : JSON.stringify(v));
  }
  return out.join("");
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** A value on one line: compact JSON, cut at `max` characters unless values are shown whole. */
function inlineValue(value: unknown, limits: Required<ValueLimits>): string {
  return limits.whole ? compact(value) : truncate(compact(value), limits.maxValueLength);
}

const isMultiline = (value: unknown): value is string => typeof value === "string" && value.includes("\n");

/** The lines of a multi-line string that differ: the common head and tail are left out. */
export interface TextDiff {
  removed: string[];
  added: string[];
  /** Lines left out on either side, as equal. */
  unchanged: number;
  /** Lines left out past the cap. */
  more: number;
}

function textDiff(before: string | undefined, after: string | undefined, maxLines: number): TextDiff {
  const a = before === undefined ? [] : before.split("\n");
  const b = after === undefined ? [] : after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  return {
    removed: removed.slice(0, maxLines),
    added: added.slice(0, maxLines),
    unchanged: head + tail,
    more: Math.max(0, removed.length - maxLines) + Math.max(0, added.length - maxLines),
  };
}

/** One field change, ready to print. Values are absent when masked. */
export interface FieldLine {
  op: "add" | "remove" | "replace";
  /** Dotted member path. */
  path: string;
  before?: string;
  after?: string;
  /** Multi-line strings, line by line (then `before`/`after` are absent). */
  text?: TextDiff;
  /** Arrays too long for one line: what changed, element by element (`before`/`after` stay, cut). */
  elements?: ElementDiff;
  sensitive?: boolean;
  drift?: boolean;
}

export interface ValueLimits {
  /**
   * Every value whole, every line and element shown (the human plan): nothing is cut, and a list wider
   * than `maxValueLength` is shown element by element instead. Default false: values are cut and lines
   * capped (the Markdown plan, which GitHub caps).
   */
  whole?: boolean;
  /** Characters of a value on one line (default 100); shown whole, the width past which a list is split. */
  maxValueLength?: number;
  /** Lines of a multi-line string, or elements of a list, shown per side of a change (default 20; all when whole). */
  maxTextLines?: number;
}

/**
 * An object added or removed whole is shown member by member; arrays and references stay whole, or, when
 * values are shown whole, a list wider than a line goes element by element, down to what fits (so nested
 * lists too). With a stack of its own: values may nest deeper than the call stack goes.
 */
function leaves(path: string, value: unknown, limits: Required<ValueLimits>): [string, unknown][] {
  const out: [string, unknown][] = [];
  const work: [string, unknown][] = [[path, value]];
  while (work.length > 0) {
    const [at, v] = work.pop()!;
    const split =
      (isObject(v) && !isUnknown(v) && Object.keys(v).length > 0) ||
      (limits.whole && Array.isArray(v) && v.length > 0 && compact(v).length > limits.maxValueLength);
    if (!split) {
      out.push([at, v]);
      continue;
    }
    const entries = Object.entries(v as object);
    for (let i = entries.length - 1; i >= 0; i--)
      work.push([`${at}${pointer([entries[i]![0]])}`, entries[i]![1]]);
  }
  return out;
}

function fieldLine(
  op: FieldLine["op"],
  path: string,
  before: unknown,
  after: unknown,
  change: Change,
  limits: Required<ValueLimits>,
): FieldLine {
  const line: FieldLine = { op, path: memberPath(path) };
  if (change.drift) line.drift = true;
  // A change marked sensitive never shows a value, masked or not: a raw credential must not slip through.
  if (change.sensitive) return { ...line, sensitive: true };
  if (isMultiline(before) || isMultiline(after)) {
    const text = (v: unknown) => (typeof v === "string" ? v : v === undefined ? undefined : compact(v));
    const diff = textDiff(text(before), text(after), limits.maxTextLines);
    const cut = (lines: string[]) =>
      limits.whole ? lines : lines.map((t) => truncate(t, limits.maxValueLength));
    return { ...line, text: { ...diff, removed: cut(diff.removed), added: cut(diff.added) } };
  }
  if (before !== undefined) line.before = inlineValue(before, limits);
  if (after !== undefined) line.after = inlineValue(after, limits);
  // A reference to an object created anew reads the same name on both sides: say the id is what changes.
  if (change.unknown && line.before !== undefined && line.before === line.after)
    line.after = `${line.after} ${newObject}`;
  if (Array.isArray(before) && Array.isArray(after)) {
    const elements = elementDiff(before, after, limits);
    // Element by element only where the whole arrays do not fit on their lines.
    const wide = (text: string | undefined) =>
      limits.whole ? (text?.length ?? 0) > limits.maxValueLength : (text?.endsWith("…") ?? false);
    if (elements && (wide(line.before) || wide(line.after))) line.elements = elements;
  }
  return line;
}

const newObject = "(a new object: its id is known after apply)";

/** What changed between two arrays, element by element. */
export interface ElementDiff {
  /** Same length: the elements that differ at their index. */
  changed: { index: number; before: string; after: string }[];
  /** Otherwise: elements only in the new array, and only in the old (as many times as they are). */
  added: string[];
  removed: string[];
  /** How many changed, were added and were removed in all (the lists stop at the cap). */
  counts: { changed: number; added: number; removed: number };
  /** Elements in both, not shown. */
  unchanged: number;
  /** Lines left out past the cap. */
  more: number;
}

function elementDiff(
  before: unknown[],
  after: unknown[],
  limits: Required<ValueLimits>,
): ElementDiff | undefined {
  const show = (v: unknown) => inlineValue(v, limits);
  const cap = limits.maxTextLines;
  if (before.length === after.length) {
    const changed = before.flatMap((b, index) =>
      compact(b) === compact(after[index]) ? [] : [{ index, before: show(b), after: show(after[index]) }],
    );
    if (changed.length === 0) return undefined;
    return {
      changed: changed.slice(0, cap),
      added: [],
      removed: [],
      counts: { changed: changed.length, added: 0, removed: 0 },
      unchanged: before.length - changed.length,
      more: Math.max(0, changed.length - cap),
    };
  }
  // Counted by value, so a repeated element added once more shows once.
  const left = new Map<string, number>();
  for (const b of before) left.set(compact(b), (left.get(compact(b)) ?? 0) + 1);
  const added: unknown[] = [];
  for (const a of after) {
    const n = left.get(compact(a)) ?? 0;
    if (n > 0) left.set(compact(a), n - 1);
    else added.push(a);
  }
  const remaining = new Map(left);
  const removed = before.filter((b) => {
    const n = remaining.get(compact(b)) ?? 0;
    if (n === 0) return false;
    remaining.set(compact(b), n - 1);
    return true;
  });
  return {
    changed: [],
    added: added.slice(0, cap).map(show),
    removed: removed.slice(0, cap).map(show),
    counts: { changed: 0, added: added.length, removed: removed.length },
    unchanged: before.length - removed.length,
    more: Math.max(0, added.length - cap) + Math.max(0, removed.length - cap),
  };
}

function withDefaults(limits: ValueLimits): Required<ValueLimits> {
  const whole = limits.whole ?? false;
  return {
    whole,
    maxValueLength: limits.maxValueLength ?? 100,
    maxTextLines: whole ? Number.POSITIVE_INFINITY : (limits.maxTextLines ?? 20),
  };
}

/** The action's changes as apply will make them: live value → configured value. */
export function fieldLines(action: PlannedAction, limits: ValueLimits = {}): FieldLine[] {
  const l = withDefaults(limits);
  return action.changes.flatMap((c) => {
    if (c.op === "replace" || c.sensitive) return [fieldLine(c.op, c.path, c.before, c.value, c, l)];
    if (c.op === "add")
      return leaves(c.path, c.value, l).map(([p, v]) => fieldLine("add", p, undefined, v, c, l));
    return leaves(c.path, c.before, l).map(([p, v]) => fieldLine("remove", p, v, undefined, c, l));
  });
}

/**
 * The drift of an action as it happened outside vigil: value vigil applied → value found. A member that
 * disappeared from the live object shows as removed.
 */
function driftLines(action: PlannedAction, limits: ValueLimits = {}): FieldLine[] {
  const l = withDefaults(limits);
  return action.changes
    .filter((c) => c.drift)
    .map((c) =>
      c.before === undefined
        ? fieldLine("remove", c.path, c.value, undefined, c, l)
        : fieldLine("replace", c.path, c.value, c.before, c, l),
    );
}

/** An object the plan found gone from the account although vigil managed it. */
function deletedOutside(action: PlannedAction): boolean {
  return (
    (action.action === "create" && action.reasons.includes("deleted outside vigil")) ||
    (action.action === "forget" && action.reasons.includes("already deleted outside vigil"))
  );
}

/** What `--refresh-only` reports for one object. */
export interface DriftItem {
  action: PlannedAction;
  deleted: boolean;
  lines: FieldLine[];
}

export function driftItems(plan: Plan, limits: ValueLimits = {}): DriftItem[] {
  return plan.actions.flatMap((action): DriftItem[] => {
    if (deletedOutside(action)) return [{ action, deleted: true, lines: [] }];
    const lines = driftLines(action, limits);
    return lines.length > 0 ? [{ action, deleted: false, lines }] : [];
  });
}

/** Counts of the actions the plan shows (no-ops excluded), so the summary always matches the listing. */
export function countActions(plan: Plan): PlanSummary {
  return summarize(plan.actions);
}

export function hasChanges(counts: PlanSummary): boolean {
  return counts.create + counts.update + counts.replace + counts.delete + counts.forget + counts.import > 0;
}

export function summarySentence(counts: PlanSummary): string {
  return `Plan: ${counts.create} to add, ${counts.update} to change, ${counts.replace} to replace, ${counts.delete} to destroy.`;
}

/** Imports and forgets, which the Terraform-shaped sentence has no place for; undefined when there are none. */
export function extraSummary(counts: PlanSummary): string | undefined {
  const parts = [
    ...(counts.import > 0 ? [`${counts.import} to import`] : []),
    ...(counts.forget > 0 ? [`${counts.forget} to forget (removed from the state, not deleted)`] : []),
  ];
  return parts.length > 0 ? `Also ${parts.join(", ")}.` : undefined;
}

export const noChanges = "No changes. The account matches the configuration.";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The sentence that makes a plan's deletions impossible to miss (cascaded deletes counted, and replaces,
 * whose old object is deleted); undefined when the plan deletes nothing.
 */
export function deletionSentence(counts: PlanSummary): string | undefined {
  const { delete: deletes, replace } = counts;
  if (deletes === 0 && replace === 0) return undefined;
  const replaced = `${replace === 1 ? "is" : "are"} deleted and created anew, under a new id`;
  const what =
    deletes === 0
      ? `replaces ${plural(replace, "object")}: ${replace === 1 ? "it" : "they"} ${replaced}`
      : `deletes ${plural(deletes, "object")} from the account${replace > 0 ? `, and replaces ${replace} (${replace === 1 ? "it" : "they"} ${replaced})` : ""}`;
  return `⚠ This plan ${what}. There is no undo.`;
}

export interface CallCounts {
  reads: number;
  writes: number;
}

export function callsLine(calls: CallCounts): string {
  return `API calls: ${plural(calls.reads, "read")}, ${plural(calls.writes, "write")}`;
}

export function driftSentence(count: number): string {
  return count === 0
    ? "No objects changed outside vigil."
    : `${count} ${count === 1 ? "object" : "objects"} changed outside vigil.`;
}

/** What the plan says above its drift notes: they are reported, never reverted. */
export const notesHeading =
  "Changed outside vigil in members the configuration leaves unset (reported, not reverted):";

/** A drift note as one line: `enabled: true → false (default true)`. */
export function noteLine(note: PlanNote, limits: ValueLimits = {}): string {
  const l = withDefaults(limits);
  return `${memberPath(note.path)}: ${inlineValue(note.default, l)} → ${inlineValue(note.live, l)}`;
}

/** The plan's drift notes by address, in plan order. */
export function notesByAddress(plan: Plan): [string, PlanNote[]][] {
  const out = new Map<string, PlanNote[]>();
  for (const note of plan.notes ?? []) {
    const list = out.get(note.address);
    if (list) list.push(note);
    else out.set(note.address, [note]);
  }
  return [...out];
}

/** The sentence that counts the notes, or undefined without any. */
export function notesSentence(plan: Plan): string | undefined {
  const n = plan.notes?.length ?? 0;
  if (n === 0) return undefined;
  return `${plural(n, "member")} changed outside vigil ${n === 1 ? "is" : "are"} left as found: the configuration does not set ${n === 1 ? "it" : "them"}. Write ${n === 1 ? "it" : "them"} in the configuration to manage ${n === 1 ? "it" : "them"}.`;
}
