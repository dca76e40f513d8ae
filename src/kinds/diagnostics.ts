import type { z } from "zod";
import type { ProblemDetailEntry } from "./problems.ts";
import { shapeOf } from "./walk.ts";

/** RFC 6901 JSON Pointer for a path of member names and indexes. */
export function toPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The closest candidate within a small edit distance, for `didYouMean`. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    // A suggestion that replaces the whole word (say "H" for "X") is a guess, not a correction.
    if (d < bestDistance && d < word.length) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const held = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = held;
    }
  }
  return row[b.length]!;
}

/** The object schema reached by following `path` through `schema`, if any. */
function objectAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): z.ZodObject | undefined {
  let current = schema;
  for (const key of path) {
    const shape = shapeOf(current);
    const next =
      shape.type === "object"
        ? Object.hasOwn(shape.members, String(key))
          ? shape.members[String(key)]
          : undefined
        : shape.type === "array"
          ? shape.element
          : undefined;
    if (!next) return undefined;
    current = next;
  }
  const shape = shapeOf(current);
  return shape.type === "object" ? shape.object : undefined;
}

const typeNames: Record<string, string> = { int: "integer", nan: "number" };

function typeOfValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

/**
 * Turns zod issues into the spec's `errors[]` entries: a JSON Pointer, the
 * offending value, a stable `reason`, and `allowed`/`expected`/`didYouMean`
 * where they help. `prefix` is prepended to every pointer.
 */
export function issuesToEntries(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  schema: z.ZodType,
  prefix: ReadonlyArray<PropertyKey> = [],
): ProblemDetailEntry[] {
  const entries: ProblemDetailEntry[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    const value = valueAt(input, issue.path);
    const entry: ProblemDetailEntry = { pointer: toPointer(path) };
    switch (issue.code) {
      case "unrecognized_keys": {
        const allowed = Object.keys(objectAt(schema, issue.path)?.shape ?? {});
        for (const key of issue.keys) {
          const unknown: ProblemDetailEntry = {
            pointer: toPointer([...path, key]),
            reason: "unknown_member",
            allowed,
            message: `unknown member "${key}"`,
          };
          const hint = closest(key, allowed);
          if (hint) unknown.didYouMean = hint;
          entries.push(unknown);
        }
        continue;
      }
      case "invalid_type":
        if (value === undefined) {
          entry.reason = "required";
          entry.message = "is required";
        } else {
          entry.reason = "wrong_type";
          entry.value = value;
          entry.expected = typeNames[issue.expected] ?? issue.expected;
          entry.message = `expected ${entry.expected}, got ${typeOfValue(value)}`;
        }
        break;
      case "invalid_value": {
        // zod reports a missing enum member as a wrong value; it is a missing one.
        if (value === undefined) {
          entry.reason = "required";
          entry.allowed = [...issue.values];
          entry.message = "is required";
          break;
        }
        entry.reason = "not_allowed";
        entry.value = value;
        entry.allowed = [...issue.values];
        const hint = typeof value === "string" ? closest(value, issue.values.map(String)) : undefined;
        if (hint) entry.didYouMean = hint;
        entry.message = `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
        break;
      }
      case "too_small":
      case "too_big": {
        const small = issue.code === "too_small";
        const bound = small
          ? (issue as z.core.$ZodIssueTooSmall).minimum
          : (issue as z.core.$ZodIssueTooBig).maximum;
        entry.value = value;
        if (issue.origin === "string") entry.reason = small ? "too_short" : "too_long";
        else if (issue.origin === "array" || issue.origin === "set")
          entry.reason = small ? "too_few" : "too_many";
        else entry.reason = "out_of_range";
        entry[small ? "minimum" : "maximum"] = Number(bound);
        entry.message = issue.message;
        break;
      }
      case "invalid_format": {
        entry.reason = "invalid_format";
        entry.value = value;
        entry.expected = issue.format;
        entry.message = `must be a valid ${issue.format}`;
        if (issue.format === "regex") {
          // A pattern's own message says what it wants ("a language tag such as en or pt-BR"); zod's names the regex.
          const own = issue.message.startsWith("Invalid") ? undefined : issue.message;
          const pattern = (issue as z.core.$ZodIssueInvalidStringFormat).pattern;
          entry.message = own ? (own.startsWith("must") ? own : `must be ${own}`) : `must match ${pattern}`;
        }
        break;
      }
      case "invalid_union":
        entry.reason = "no_match";
        entry.value = value;
        entry.message = issue.message;
        break;
      default: {
        const params = (issue as { params?: Record<string, unknown> }).params ?? {};
        entry.reason = typeof params.reason === "string" ? params.reason : "invalid";
        if (value !== undefined) entry.value = value;
        for (const [k, v] of Object.entries(params)) if (k !== "reason") entry[k] = v;
        entry.message = issue.message;
      }
    }
    entries.push(entry);
  }
  return entries;
}
