/**
 * A problem document as text, in one place: every member of it, top-level and
 * per entry, is said, so no frontend prints an empty line or drops the
 * `allowed` list. The CLI, the Terraform diagnostics and the Pulumi errors
 * only lay this description out (and map each pointer to their own place:
 * file:line:column, attribute path, property).
 */
import { credentialNames } from "./redact.ts";

/** One `errors[]` entry, said. */
export interface MemberProblem {
  /** The JSON pointer the entry names (`""` is the whole body; a query parameter `/<name>`). */
  pointer: string;
  /** Never empty: the entry's message, or what its members say, or the problem's summary. */
  message: string;
}

export interface ProblemDescription {
  status: number | undefined;
  code: string;
  /** `detail`, else `title`, else the code. */
  summary: string;
  /** The document's own members beyond RFC 9457 (`feature: cron`, `maxSpan: 7776000 seconds`), and entries that name no member. */
  facts: string[];
  /** Entries that name a member or a query parameter, in order. */
  members: MemberProblem[];
}

/** RFC 9457's members and the spec's `code`/`errors`: said by the summary and the members, not as facts. */
const standard = new Set(["type", "title", "status", "code", "detail", "instance", "errors"]);
/** Members of an entry said by the entry's own sentence rather than as `name: value`. */
const sentence = new Set([
  "pointer",
  "message",
  "reason",
  "value",
  "expected",
  "allowed",
  "didYouMean",
  "parameter",
]);
/** Members counted in seconds (the spec's `maxSpan`, `retryAfter`, `window`). */
const seconds = new Set(["maxSpan", "retryAfter", "window", "windowSec"]);
const maxAllowed = 30;
const maxText = 120;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Describes a problem document (an `ApiError`'s `problem`, or a job item's `error`); anything else gets its code only. */
export function describeProblem(problem: unknown): ProblemDescription {
  const doc = isRecord(problem) ? problem : {};
  const status = typeof doc.status === "number" ? doc.status : undefined;
  const code = typeof doc.code === "string" ? doc.code : status ? `http_${status}` : "unknown_error";
  const summary =
    typeof doc.detail === "string" && doc.detail !== ""
      ? doc.detail
      : typeof doc.title === "string" && doc.title !== ""
        ? doc.title
        : code;
  const facts: string[] = [];
  for (const [name, value] of Object.entries(doc))
    if (!standard.has(name) && value !== undefined && value !== null)
      facts.push(`${name}: ${shown(name, value)}`);
  const members: MemberProblem[] = [];
  const entries = Array.isArray(doc.errors) ? doc.errors.filter(isRecord) : [];
  for (const entry of entries) {
    const pointer =
      typeof entry.pointer === "string"
        ? entry.pointer
        : typeof entry.parameter === "string"
          ? `/${entry.parameter}`
          : undefined;
    const said = entrySentence(entry, pointer);
    if (pointer !== undefined) members.push({ pointer, message: said || summary });
    // An entry that names no member adds what it knows to the problem (a token's `reason: invalid`).
    else if (said && !facts.includes(said)) facts.push(said);
  }
  return { status, code, summary, facts, members };
}

/** `422 invalid_interval: 45 seconds is not one of the account's intervals. (feature: cron)`: the head line. */
export function problemHeadline(d: ProblemDescription): string {
  const facts = d.facts.length > 0 ? ` (${d.facts.join("; ")})` : "";
  return `${d.status ? `${d.status} ` : ""}${d.code}: ${d.summary}${facts}`;
}

/** What one entry says: its message, then its value, expected types, allowed values and other members. */
function entrySentence(entry: Record<string, unknown>, pointer: string | undefined): string {
  const parts: string[] = [];
  if (typeof entry.message === "string" && entry.message.trim() !== "") parts.push(entry.message.trim());
  else if (typeof entry.reason === "string" && entry.reason !== "")
    parts.push(entry.reason.replaceAll("_", " "));
  // A refused credential is never echoed back to a terminal or a log.
  if (entry.value !== undefined && !isCredential(pointer)) parts.push(`got ${json(entry.value)}`);
  const expected =
    typeof entry.expected === "string"
      ? `expected ${entry.expected}`
      : Array.isArray(entry.expected)
        ? `expected one of ${entry.expected.join(", ")}`
        : undefined;
  // A message that already says what was expected is not repeated.
  if (expected && !parts[0]?.includes(expected)) parts.push(expected);
  if (Array.isArray(entry.allowed)) parts.push(allowedText(entry.allowed));
  if (typeof entry.didYouMean === "string") parts.push(`did you mean ${json(entry.didYouMean)}?`);
  for (const [name, value] of Object.entries(entry))
    if (!sentence.has(name) && value !== undefined && value !== null)
      parts.push(`${name}: ${shown(name, value)}`);
  return parts.join("; ");
}

function allowedText(allowed: readonly unknown[]): string {
  if (allowed.length === 0) return "no value is allowed";
  const head = allowed.slice(0, maxAllowed).map((v) => (typeof v === "string" ? v : json(v)));
  return `allowed: ${head.join(", ")}${allowed.length > maxAllowed ? `, … (${allowed.length} in all)` : ""}`;
}

/** A member's value for a human: times (`…At`, Unix seconds) in ISO 8601, durations with their unit. */
function shown(name: string, value: unknown): string {
  if (typeof value === "number" && /At$/.test(name) && value > 0) return isoSeconds(value);
  if (typeof value === "number" && seconds.has(name)) return `${value} seconds`;
  if (Array.isArray(value)) return allowedText(value).replace(/^allowed: /, "");
  return typeof value === "string" ? cut(value) : json(value);
}

/** Unix seconds as ISO 8601 UTC without milliseconds, the YAML format's own convention. */
export function isoSeconds(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  return Number.isNaN(date.getTime()) ? String(unixSeconds) : date.toISOString().replace(/\.000Z$/, "Z");
}

function json(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return cut(text);
}

const cut = (text: string) => (text.length > maxText ? `${text.slice(0, maxText)}…` : text);

/** Whether a pointer names a credential member (`/settings/password`, `/headers/0/value`). */
function isCredential(pointer: string | undefined): boolean {
  if (!pointer) return false;
  const tokens = pointer.split("/").slice(1);
  const last = tokens.at(-1) ?? "";
  const list = /^\d+$/.test(tokens.at(-2) ?? "") ? tokens.at(-3) : undefined;
  const names = credentialNames();
  return names.has(last) || (list !== undefined && names.has(`${list}[].${last}`));
}
