/**
 * The one duration parser: `--lock-timeout`, `vigil watch --every` and
 * `--full-every`, and the sandbox's `tokenDuration`. One grammar; each use
 * passes its own bounds (whether 0 is allowed, a minimum, a maximum) and the
 * forms it takes, and every refusal says what is allowed.
 *
 * Hand-written rather than `ms`: that package reads a bare number as
 * milliseconds and has no compound form (`1m30s`), and the API's `tokenDuration`
 * is a `days.hours:minutes:seconds` time-span it does not know.
 */

/**
 * `units`: `500ms`, `90s`, `5m`, `1h30m`, `2d` (each unit once, largest first);
 * `seconds`: a bare whole number of seconds (`300`);
 * `timespan`: the API's `days.hours:minutes:seconds` (`7.00:00:00`, `01:00:00`).
 */
export type DurationForm = "units" | "seconds" | "timespan";

export interface DurationRules {
  /** What the value is, as the message names it: `--lock-timeout`, `tokenDuration`. */
  name: string;
  /** Forms accepted; all three by default. */
  forms?: readonly DurationForm[];
  /** What 0 means, when 0 is allowed (`do not wait`); without it, 0 is refused. */
  zero?: string;
  /** The shortest duration other than 0, in milliseconds (default 1). */
  minMs?: number;
  /**
   * The longest, in milliseconds. By default the longest a Node.js timer can
   * wait (about 24.8 days): a longer one would fire at once.
   */
  maxMs?: number;
}

export class DurationError extends Error {
  /** What is wrong: not a duration of an accepted form, 0 where 0 is not allowed, or out of bounds. */
  readonly reason: "form" | "zero" | "min" | "max";
  constructor(reason: DurationError["reason"], message: string) {
    super(message);
    this.name = "DurationError";
    this.reason = reason;
  }
}

export const maxTimerMs = 2 ** 31 - 1;

const unitMs = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;
const unitsPattern = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?(?:(\d+)ms)?$/;
const timespanPattern = /^(?:(\d+)\.)?(\d{1,2}):([0-5]\d):([0-5]\d)$/;
/** Longer text is no duration: refused before any pattern runs. */
const maxLength = 40;

function parseForm(text: string, form: DurationForm): number | undefined {
  if (form === "seconds") return /^\d+$/.test(text) ? Number(text) * 1000 : undefined;
  if (form === "timespan") {
    const m = timespanPattern.exec(text);
    if (!m || Number(m[2]) > 23) return undefined;
    const [, d = "0", h, min, s] = m;
    return Number(d) * unitMs.d + Number(h) * unitMs.h + Number(min) * unitMs.m + Number(s) * unitMs.s;
  }
  const m = unitsPattern.exec(text);
  if (!m?.slice(1).some((part) => part !== undefined)) return undefined;
  const [, d = "0", h = "0", min = "0", s = "0", ms = "0"] = m;
  return (
    Number(d) * unitMs.d + Number(h) * unitMs.h + Number(min) * unitMs.m + Number(s) * unitMs.s + Number(ms)
  );
}

const examples: Record<DurationForm, string> = {
  units: "90s, 5m or 1h30m (units d, h, m, s, ms)",
  seconds: "a whole number of seconds",
  timespan: "days.hours:minutes:seconds such as 7.00:00:00 or 01:00:00",
};

/** What a use accepts, in words: `a duration such as 90s, 5m or 1h30m (…), or a whole number of seconds, or 0 (do not wait)`. */
function describeDuration(rules: DurationRules): string {
  const forms = rules.forms ?? ["units", "seconds", "timespan"];
  const shapes = forms.map((f) => examples[f]);
  const zero = rules.zero ? `, or 0 (${rules.zero})` : "";
  return `a duration: ${shapes.join(", or ")}${zero}`;
}

/** Milliseconds as the shortest units text: `1h30m`, `500ms`, `24d20h31m23s647ms`. */
export function formatDurationMs(ms: number): string {
  if (ms === 0) return "0";
  let rest = ms;
  let out = "";
  for (const [unit, size] of Object.entries(unitMs)) {
    const n = Math.floor(rest / size);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * size;
  }
  return out;
}

/** The duration in milliseconds, or a `DurationError` that names the value, what was given and what is allowed. */
export function parseDuration(text: string, rules: DurationRules): number {
  const forms = rules.forms ?? ["units", "seconds", "timespan"];
  const given = JSON.stringify(text.length > maxLength ? `${text.slice(0, maxLength)}…` : text);
  const trimmed = text.trim();
  let ms: number | undefined;
  if (trimmed.length <= maxLength)
    for (const form of forms) {
      ms = parseForm(trimmed, form);
      if (ms !== undefined) break;
    }
  if (ms === undefined)
    throw new DurationError("form", `${rules.name} takes ${describeDuration(rules)}; not ${given}.`);
  const min = Math.max(1, rules.minMs ?? 1);
  const max = rules.maxMs ?? maxTimerMs;
  // Digits past exact integers are a duration too long to count, not a malformed one.
  if (!Number.isSafeInteger(ms) || ms > max)
    throw new DurationError("max", `${rules.name} is at most ${formatDurationMs(max)}; not ${given}.`);
  if (ms === 0) {
    if (rules.zero) return 0;
    throw new DurationError(
      "zero",
      `${rules.name} must be longer than 0 (at least ${formatDurationMs(min)}); not ${given}.`,
    );
  }
  if (ms < min)
    throw new DurationError(
      "min",
      `${rules.name} is at least ${formatDurationMs(min)}${rules.zero ? `, or 0 (${rules.zero})` : ""}; not ${given}.`,
    );
  return ms;
}
