import { invalid } from "./problem.ts";

/**
 * Limits on a JSON body that apply before anything walks it. No API body
 * nests deeper than about 8 levels (a monitor's assertion rules); 32 leaves
 * room and keeps every recursive step after parsing (validation, the
 * idempotency fingerprint, echoing a value in a problem) far from the stack limit.
 */
export const maxBodyDepth = 32;

/** RFC 6901 escaping of one pointer segment. */
const segment = (key: string | number) => String(key).replaceAll("~", "~0").replaceAll("/", "~1");

interface Frame {
  array: boolean;
  /** The member name or index the scanner is inside of. */
  at: string | number;
  /** In an object: the next string is a member name. */
  expectKey: boolean;
}

/**
 * The JSON Pointer of the first container nested deeper than `max`, found in
 * one pass over the text without building anything (so a 1 MiB `[[[[…` is
 * refused in milliseconds, before `JSON.parse` spends its time on it).
 * Syntax is not judged here: malformed text is left to the parser.
 */
export function tooDeepAt(text: string, max: number): string | undefined {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      const top = stack.at(-1);
      if (top && !top.array && top.expectKey) {
        top.at = memberName(text.slice(i, end + 1));
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length === max) return stack.map((f) => `/${segment(f.at)}`).join("");
      stack.push({ array: c === 0x5b, at: c === 0x5b ? 0 : "", expectKey: c === 0x7b });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack.at(-1);
      if (top?.array) top.at = (top.at as number) + 1;
      else if (top) top.expectKey = true;
    }
  }
  return undefined;
}

function memberName(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/**
 * Refuses what `JSON.parse` accepts but the API cannot honour: a number
 * beyond a double's range (`1e400` parses as Infinity, which JSON cannot
 * even echo back). The walk is iterative and the depth already bounded.
 */
export function assertFiniteNumbers(value: unknown): void {
  const pending: [unknown, string][] = [[value, ""]];
  while (pending.length > 0) {
    const [v, pointer] = pending.pop()!;
    if (typeof v === "number" && !Number.isFinite(v)) {
      throw invalid([
        {
          pointer,
          reason: "out_of_range",
          message: "is a number beyond the range of a JSON number (a double: at most about ±1.8e308)",
        },
      ]);
    }
    if (v !== null && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) pending.push([child, `${pointer}/${segment(k)}`]);
    }
  }
}

/** The 422 for a body nested deeper than `maxBodyDepth`, at the first container too deep. */
export function tooDeep(pointer: string) {
  return invalid(
    [{ pointer, reason: "too_deep", maximum: maxBodyDepth }],
    "validation_failed",
    `The body nests deeper than ${maxBodyDepth} levels (at ${pointer.length > 120 ? `${pointer.slice(0, 120)}…` : pointer}).`,
  );
}
