import type { AssertionRow } from "./settings-fields.ts";

/**
 * The assertion rule language of `assertsSource` (ours; the spec does not show
 * it). One rule per line:
 *
 *   <source>[<property>] <comparison> [target]
 *
 * e.g. `status eq 200`, `header[Content-Type] contains json`,
 * `json[$.status] eq "ok"`, `responseTime lt 500`, `header[ETag] exists`.
 * Blank lines and lines starting with `#` are ignored.
 */

const sources = ["status", "body", "header", "json", "responseTime"] as const;
const comparisons = [
  "eq",
  "neq",
  "lt",
  "le",
  "gt",
  "ge",
  "contains",
  "notContains",
  "matches",
  "exists",
] as const;
const needsProperty = new Set(["header", "json"]);

export interface AssertionParseError {
  line: number;
  message: string;
}

const linePattern = /^(\w+)(?:\[([^\]]+)\])?\s+(\w+)(?:\s+(.+))?$/;

export function parseAssertions(source: string): { rows: AssertionRow[]; errors: AssertionParseError[] } {
  const rows: AssertionRow[] = [];
  const errors: AssertionParseError[] = [];
  source.split("\n").forEach((raw, index) => {
    const text = raw.trim();
    if (text === "" || text.startsWith("#")) return;
    const line = index + 1;
    const m = linePattern.exec(text);
    if (!m) {
      errors.push({ line, message: "expected `<source>[<property>] <comparison> [target]`" });
      return;
    }
    const [, src, property, comparison, target] = m as unknown as [
      string,
      string,
      string | undefined,
      string,
      string | undefined,
    ];
    if (!(sources as readonly string[]).includes(src)) {
      errors.push({ line, message: `unknown source "${src}"; allowed: ${sources.join(", ")}` });
      return;
    }
    if (!(comparisons as readonly string[]).includes(comparison)) {
      errors.push({
        line,
        message: `unknown comparison "${comparison}"; allowed: ${comparisons.join(", ")}`,
      });
      return;
    }
    if (needsProperty.has(src) && !property) {
      errors.push({ line, message: `${src} needs a property in brackets, e.g. ${src}[name]` });
      return;
    }
    if (comparison !== "exists" && target === undefined) {
      errors.push({ line, message: `${comparison} needs a target value` });
      return;
    }
    const row: AssertionRow = {
      source: src as AssertionRow["source"],
      comparison: comparison as AssertionRow["comparison"],
    };
    if (property) row.property = property;
    if (target !== undefined) row.target = unquote(target.trim());
    rows.push(row);
  });
  return { rows, errors };
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    try {
      return JSON.parse(value) as string;
    } catch {
      return value;
    }
  }
  return value;
}

/** The text form of assertion rows, as read back in `assertsText`. */
export function formatAssertions(rows: readonly AssertionRow[]): string {
  return rows
    .map((r) => {
      const subject = r.property ? `${r.source}[${r.property}]` : r.source;
      const target =
        r.target === undefined ? "" : ` ${/^[^\s"]+$/.test(r.target) ? r.target : JSON.stringify(r.target)}`;
      return `${subject} ${r.comparison}${target}`;
    })
    .join("\n");
}
