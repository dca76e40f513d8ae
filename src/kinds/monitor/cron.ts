/**
 * 5-field cron expressions in UTC (`minute hour day-of-month month
 * day-of-week`), as `cronSchedule` takes them: `*`, numbers, ranges `a-b`,
 * steps `*\/n` and `a-b/n`, lists, month names JAN-DEC and day names SUN-SAT
 * (case-insensitive), day-of-week 0-7 with 7 = Sunday. When both day fields
 * are restricted a day matches either one (classic cron OR semantics).
 */

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const fields: readonly FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day-of-month", min: 1, max: 31 },
  {
    name: "month",
    min: 1,
    max: 12,
    names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"],
  },
  { name: "day-of-week", min: 0, max: 7, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] },
];

interface Schedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  /** Classic cron: a day field counts as restricted unless it starts with `*`. */
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

type Parsed = { schedule: Schedule } | { problem: string };

/** Longest days of each month (February counted as in a leap year). */
const monthLengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function parseValue(text: string, spec: FieldSpec): number | string {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (n < spec.min || n > spec.max) return `${spec.name}: ${text} is out of range ${spec.min}-${spec.max}`;
    return n;
  }
  const index = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  if (index >= 0) return index + (spec.name === "month" ? 1 : 0);
  // Quartz extensions: ?, L (last), W (weekday), # (nth weekday).
  if (/[?#]/.test(text) || /^(L|LW|\d+[LW])$/i.test(text)) {
    return `${spec.name}: "${text}" uses ?, L, W or #, which 5-field cron does not support`;
  }
  if (/^[a-z]+$/i.test(text)) {
    return spec.names
      ? `${spec.name}: "${text}" is not a name; use ${spec.names[0]}-${spec.names.at(-1)}`
      : `${spec.name}: "${text}" is not a number; names are allowed only for month and day-of-week`;
  }
  return `${spec.name}: "${text}" is not a number`;
}

function parseItem(item: string, spec: FieldSpec, into: Set<number>): string | undefined {
  if (item === "") return `${spec.name}: empty list item`;
  const slash = item.indexOf("/");
  const base = slash < 0 ? item : item.slice(0, slash);
  let step = 1;
  if (slash >= 0) {
    const stepText = item.slice(slash + 1);
    if (!/^\d+$/.test(stepText)) return `${spec.name}: step "${stepText}" is not a number`;
    step = Number(stepText);
    if (step < 1) return `${spec.name}: step must be at least 1`;
    if (base !== "*" && !base.includes("-")) {
      return `${spec.name}: "${item}" steps from a single value; write ${base}-${spec.max}/${step} or */${step}`;
    }
  }
  let low = spec.min;
  let high = spec.name === "day-of-week" ? 6 : spec.max;
  if (base !== "*") {
    const parts = base.split("-");
    if (parts.length > 2 || parts.includes("")) return `${spec.name}: "${base}" is not a range a-b`;
    const from = parseValue(parts[0]!, spec);
    if (typeof from === "string") return from;
    let to = parts.length === 2 ? parseValue(parts[1]!, spec) : from;
    if (typeof to === "string") return to;
    // `FRI-SUN` ends on Sunday as 7.
    if (spec.name === "day-of-week" && parts.length === 2 && to === 0 && from > 0) to = 7;
    if (from > to) return `${spec.name}: range ${base} runs backwards`;
    low = from;
    high = to;
  }
  for (let v = low; v <= high; v += step) into.add(spec.name === "day-of-week" && v === 7 ? 0 : v);
  return undefined;
}

function parseField(text: string, spec: FieldSpec): Set<number> | string {
  const values = new Set<number>();
  for (const item of text.split(",")) {
    const problem = parseItem(item, spec, values);
    if (problem) return problem;
  }
  return values;
}

function parse(expression: string): Parsed {
  const text = expression.trim();
  if (text === "") return { problem: "the expression is empty" };
  if (text.startsWith("@")) {
    return { problem: `macros such as ${text.split(/\s/)[0]} are not supported; write the 5 fields` };
  }
  const parts = text.split(/\s+/);
  if (parts.length !== 5) {
    const hint =
      parts.length === 6 || parts.length === 7 ? " (seconds and year fields are not supported)" : "";
    return {
      problem: `expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}${hint}`,
    };
  }
  const sets: Set<number>[] = [];
  for (const [i, spec] of fields.entries()) {
    const parsed = parseField(parts[i]!, spec);
    if (typeof parsed === "string") return { problem: parsed };
    sets.push(parsed);
  }
  const [minutes, hours, days, months, weekdays] = sets as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  const schedule: Schedule = {
    minutes,
    hours,
    days,
    months,
    weekdays,
    daysRestricted: !parts[2]!.startsWith("*"),
    weekdaysRestricted: !parts[4]!.startsWith("*"),
  };
  // Only the day of month can make a schedule impossible (`0 0 30 2 *`); a weekday always recurs.
  const reachable = [...months].some((m) => [...days].some((d) => d <= monthLengths[m - 1]!));
  if (!reachable && !schedule.weekdaysRestricted) {
    return { problem: "never fires: no chosen month has the chosen day-of-month" };
  }
  return { schedule };
}

/** Why a 5-field UTC cron expression is invalid, or undefined when it is valid. */
export function cronProblem(expression: string): string | undefined {
  const parsed = parse(expression);
  return "problem" in parsed ? parsed.problem : undefined;
}

function dayMatches(s: Schedule, date: Date): boolean {
  const inMonth = s.days.has(date.getUTCDate());
  const inWeek = s.weekdays.has(date.getUTCDay());
  if (s.daysRestricted && s.weekdaysRestricted) return inMonth || inWeek;
  return inMonth && inWeek;
}

/** A leap day on a restricted day-of-month can be eight years away (2096 to 2104). */
const searchHorizon = 9 * 366 * 86400;

/**
 * The next `count` firing times strictly after `fromUnixSeconds`, in Unix
 * seconds. Throws on an invalid expression (check `cronProblem` first).
 */
export function nextRuns(expression: string, fromUnixSeconds: number, count: number): number[] {
  const parsed = parse(expression);
  if ("problem" in parsed) throw new Error(`invalid cron expression: ${parsed.problem}`);
  const s = parsed.schedule;
  const runs: number[] = [];
  const limit = fromUnixSeconds + searchHorizon;
  let t = (Math.floor(fromUnixSeconds / 60) + 1) * 60;
  while (runs.length < count && t <= limit) {
    const d = new Date(t * 1000);
    if (!s.months.has(d.getUTCMonth() + 1)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
    } else if (!dayMatches(s, d)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) / 1000;
    } else if (!s.hours.has(d.getUTCHours())) {
      t = (Math.floor(t / 3600) + 1) * 3600;
    } else if (!s.minutes.has(d.getUTCMinutes())) {
      t += 60;
    } else {
      runs.push(t);
      t += 60;
    }
  }
  return runs;
}
