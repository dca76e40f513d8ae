import { describe, expect, it } from "vitest";
import { DurationError, formatDurationMs, maxTimerMs, parseDuration } from "../src/duration.ts";

const lock = { name: "--lock-timeout", zero: "do not wait" };
const cadence = { name: "--every", minMs: 1000 };
const token = { name: "tokenDuration", forms: ["timespan"] as const, minMs: 1000 };

function refusal(text: string, rules: Parameters<typeof parseDuration>[1]): string {
  try {
    parseDuration(text, rules);
  } catch (error) {
    expect(error).toBeInstanceOf(DurationError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(text)} was accepted`);
}

describe("one duration parser", () => {
  it.each([
    ["500ms", 500],
    ["90s", 90_000],
    ["5m", 300_000],
    ["1m30s", 90_000],
    ["1h30m", 5_400_000],
    ["2d", 172_800_000],
    ["1h0m5s250ms", 3_605_250],
    ["300", 300_000],
    [" 5m ", 300_000],
    ["7.00:00:00", 604_800_000],
    ["01:00:00", 3_600_000],
  ])("reads %j as %i ms", (text, ms) => {
    expect(parseDuration(text, lock)).toBe(ms);
  });

  it("takes 0 only where the use says what it means, and says so when refused", () => {
    expect(parseDuration("0", lock)).toBe(0);
    expect(parseDuration("0s", lock)).toBe(0);
    expect(refusal("0s", cadence)).toBe('--every must be longer than 0 (at least 1s); not "0s".');
    expect(refusal("00:00:00", token)).toBe(
      'tokenDuration must be longer than 0 (at least 1s); not "00:00:00".',
    );
  });

  it("keeps each use's bounds, naming them", () => {
    expect(refusal("500ms", cadence)).toBe('--every is at least 1s; not "500ms".');
    expect(refusal("25d", lock)).toBe(
      `--lock-timeout is at most ${formatDurationMs(maxTimerMs)}; not "25d".`,
    );
    expect(formatDurationMs(maxTimerMs)).toBe("24d20h31m23s647ms");
    expect(parseDuration("24d", lock)).toBe(24 * 86_400_000);
  });

  it("refuses what is not a duration, saying what the use accepts", () => {
    for (const bad of [
      "",
      "soon",
      "5x",
      "-1m",
      "1m1h",
      "5 minutes",
      "1.5h",
      "1h 30m",
      "m",
      "1.24:00:00",
      "00:60:00",
    ])
      expect(refusal(bad, lock)).toBe(
        `--lock-timeout takes a duration: 90s, 5m or 1h30m (units d, h, m, s, ms), or a whole number of seconds, or days.hours:minutes:seconds such as 7.00:00:00 or 01:00:00, or 0 (do not wait); not ${JSON.stringify(bad)}.`,
      );
    // A use that takes only the API's time-span form says only that.
    expect(refusal("1h", token)).toBe(
      'tokenDuration takes a duration: days.hours:minutes:seconds such as 7.00:00:00 or 01:00:00; not "1h".',
    );
  });

  it("bounds hostile input: long text and numbers past exact integers are refused, not computed", () => {
    expect(refusal("9".repeat(10_000), lock)).toContain(`not "${"9".repeat(40)}…"`);
    expect(refusal("99999999999999999999d", { ...lock, maxMs: Number.MAX_SAFE_INTEGER })).toBe(
      `--lock-timeout is at most ${formatDurationMs(Number.MAX_SAFE_INTEGER)}; not "99999999999999999999d".`,
    );
  });
});
