import { describe, expect, it } from "vitest";
import { cronProblem, nextRuns } from "../../../src/kinds/monitor/cron.ts";

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (seconds: number[]) => seconds.map((s) => new Date(s * 1000).toISOString().slice(0, 16));

// Thursday, 1 January 2026, 00:00 UTC.
const start = at("2026-01-01T00:00:00Z");

describe("cronProblem accepts", () => {
  it.each([
    "* * * * *",
    "*/5 * * * *",
    "0 9-17/2 * * MON-FRI",
    "0,15,30,45 * * * *",
    "0 0 1 JAN,jul *",
    "30 2 * * 7",
    "0 0 * * 0-7",
    "0 12 * feb-Apr sat-sun",
    "  5   4 * * *  ",
    "59 23 31 12 6",
    "0 0 29 2 *",
    "0 0 31 2 1",
    "0 0 */100 * *",
  ])("%s", (expression) => {
    expect(cronProblem(expression)).toBeUndefined();
  });
});

describe("cronProblem refuses with a precise reason", () => {
  it.each([
    ["", "the expression is empty"],
    ["@daily", "macros such as @daily are not supported; write the 5 fields"],
    [
      "0 0 * * * *",
      "expected 5 fields (minute hour day-of-month month day-of-week), got 6 (seconds and year fields are not supported)",
    ],
    [
      "0 0 * * * * 2026",
      "expected 5 fields (minute hour day-of-month month day-of-week), got 7 (seconds and year fields are not supported)",
    ],
    ["* * * *", "expected 5 fields (minute hour day-of-month month day-of-week), got 4"],
    ["60 * * * *", "minute: 60 is out of range 0-59"],
    ["0 24 * * *", "hour: 24 is out of range 0-23"],
    ["0 0 0 * *", "day-of-month: 0 is out of range 1-31"],
    ["0 0 * 13 *", "month: 13 is out of range 1-12"],
    ["0 0 * * 8", "day-of-week: 8 is out of range 0-7"],
    ["0 0 * JANUARY *", 'month: "JANUARY" is not a name; use JAN-DEC'],
    ["0 0 * * MON-FUN", 'day-of-week: "FUN" is not a name; use SUN-SAT'],
    ["MON * * * *", 'minute: "MON" is not a number; names are allowed only for month and day-of-week'],
    ["0 0 ? * MON", 'day-of-month: "?" uses ?, L, W or #, which 5-field cron does not support'],
    ["0 0 L * *", 'day-of-month: "L" uses ?, L, W or #, which 5-field cron does not support'],
    ["0 0 15W * *", 'day-of-month: "15W" uses ?, L, W or #, which 5-field cron does not support'],
    ["0 0 * * 5#2", 'day-of-week: "5#2" uses ?, L, W or #, which 5-field cron does not support'],
    ["*/0 * * * *", "minute: step must be at least 1"],
    ["*/x * * * *", 'minute: step "x" is not a number'],
    ["5/15 * * * *", 'minute: "5/15" steps from a single value; write 5-59/15 or */15'],
    ["30-10 * * * *", "minute: range 30-10 runs backwards"],
    ["1-2-3 * * * *", 'minute: "1-2-3" is not a range a-b'],
    ["1,,2 * * * *", "minute: empty list item"],
    ["-1 * * * *", 'minute: "-1" is not a range a-b'],
    ["1.5 * * * *", 'minute: "1.5" is not a number'],
    ["0 0 30 2 *", "never fires: no chosen month has the chosen day-of-month"],
    ["0 0 31 4,6,9,11 *", "never fires: no chosen month has the chosen day-of-month"],
  ])("%j", (expression, reason) => {
    expect(cronProblem(expression)).toBe(reason);
  });
});

describe("nextRuns", () => {
  it("counts strictly after the start, on whole minutes", () => {
    expect(iso(nextRuns("* * * * *", start, 3))).toEqual([
      "2026-01-01T00:01",
      "2026-01-01T00:02",
      "2026-01-01T00:03",
    ]);
    expect(iso(nextRuns("* * * * *", start + 59, 1))).toEqual(["2026-01-01T00:01"]);
  });

  it("steps and ranges", () => {
    expect(iso(nextRuns("*/20 9-10 * * *", start, 7))).toEqual([
      "2026-01-01T09:00",
      "2026-01-01T09:20",
      "2026-01-01T09:40",
      "2026-01-01T10:00",
      "2026-01-01T10:20",
      "2026-01-01T10:40",
      "2026-01-02T09:00",
    ]);
    expect(iso(nextRuns("0 0-12/6 * * *", start, 3))).toEqual([
      "2026-01-01T06:00",
      "2026-01-01T12:00",
      "2026-01-02T00:00",
    ]);
  });

  it("weekday names and ranges (1 January 2026 is a Thursday)", () => {
    expect(iso(nextRuns("30 8 * * mon-fri", start, 4))).toEqual([
      "2026-01-01T08:30",
      "2026-01-02T08:30",
      "2026-01-05T08:30",
      "2026-01-06T08:30",
    ]);
  });

  it("7 and 0 are both Sunday, and FRI-SUN runs through Sunday", () => {
    expect(nextRuns("0 0 * * 7", start, 2)).toEqual(nextRuns("0 0 * * 0", start, 2));
    expect(iso(nextRuns("0 0 * * 7", start, 1))).toEqual(["2026-01-04T00:00"]);
    expect(iso(nextRuns("0 0 * * FRI-SUN", start, 4))).toEqual([
      "2026-01-02T00:00",
      "2026-01-03T00:00",
      "2026-01-04T00:00",
      "2026-01-09T00:00",
    ]);
  });

  it("month names and month boundaries", () => {
    expect(iso(nextRuns("0 0 1 mar,OCT *", start, 3))).toEqual([
      "2026-03-01T00:00",
      "2026-10-01T00:00",
      "2027-03-01T00:00",
    ]);
    expect(iso(nextRuns("0 0 31 * *", start, 3))).toEqual([
      "2026-01-31T00:00",
      "2026-03-31T00:00",
      "2026-05-31T00:00",
    ]);
  });

  it("day-of-month OR day-of-week when both are restricted", () => {
    // The 13th of each month, or any Friday.
    expect(iso(nextRuns("0 0 13 * FRI", start, 4))).toEqual([
      "2026-01-02T00:00",
      "2026-01-09T00:00",
      "2026-01-13T00:00",
      "2026-01-16T00:00",
    ]);
  });

  it("AND when a day field starts with *", () => {
    // Odd days of the month that are also Mondays.
    expect(iso(nextRuns("0 0 */2 * MON", start, 2))).toEqual(["2026-01-05T00:00", "2026-01-19T00:00"]);
  });

  it("finds leap days years away", () => {
    expect(iso(nextRuns("0 0 29 2 *", start, 2))).toEqual(["2028-02-29T00:00", "2032-02-29T00:00"]);
  });

  it("throws on an invalid expression", () => {
    expect(() => nextRuns("0 0 * *", start, 1)).toThrow(/expected 5 fields/);
  });
});
