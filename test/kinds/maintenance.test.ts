import { describe, expect, it } from "vitest";
import {
  lastEndedBy,
  occurrence,
  occurrenceAt,
  occurrencesEndedBetween,
  occurrencesOverlapping,
  overlapsRange,
  releasedAt,
  type WindowSchedule,
  week,
  windowState,
} from "../../src/kinds/index.ts";

/** Unix seconds of an ISO 8601 time. */
const t = (iso: string) => Date.parse(iso) / 1000;
const hour = 3600;
const weekly = (from: string, to: string): WindowSchedule => ({ from: t(from), to: t(to), repeat: "weekly" });
const iso = (o: { from: number; to: number }) => ({
  from: new Date(o.from * 1000).toISOString(),
  to: new Date(o.to * 1000).toISOString(),
});

describe("a weekly window keeps its wall-clock times across a daylight-saving change", () => {
  // Each window is Sunday 09:00 to 10:00 local, its first occurrence the Sunday before the change.
  it.each([
    // Berlin springs forward on 2027-03-28 (CET +1 to CEST +2) and falls back on 2027-10-31.
    ["Europe/Berlin", "2027-03-21T08:00:00Z", "2027-03-28T07:00:00Z", -hour],
    ["Europe/Berlin", "2027-10-24T07:00:00Z", "2027-10-31T08:00:00Z", hour],
    // New York springs forward on 2027-03-14 (EST -5 to EDT -4) and falls back on 2027-11-07.
    ["America/New_York", "2027-03-07T14:00:00Z", "2027-03-14T13:00:00Z", -hour],
    ["America/New_York", "2027-10-31T13:00:00Z", "2027-11-07T14:00:00Z", hour],
    // Sydney, southern hemisphere: summer time ends on 2027-04-04 (AEDT +11 to AEST +10), starts on 2027-10-03.
    ["Australia/Sydney", "2027-03-27T22:00:00Z", "2027-04-03T23:00:00Z", hour],
    ["Australia/Sydney", "2027-09-25T23:00:00Z", "2027-10-02T22:00:00Z", -hour],
  ])("%s, first occurrence %s: the next starts at %s", (zone, first, next, shift) => {
    const w: WindowSchedule = { from: t(first), to: t(first) + hour, repeat: "weekly" };
    expect(occurrence(w, 1, zone)).toEqual({ from: t(next), to: t(next) + hour });
    expect(t(next) - t(first)).toBe(week + shift);
    // Ten weeks on, still 09:00 local: the same Unix-seconds shift, since no other change falls between.
    expect(occurrence(w, 10, zone)).toEqual({
      from: t(first) + 10 * week + shift,
      to: t(first) + 10 * week + shift + hour,
    });
    // The state follows the local hour, not 7 × 24 hours.
    expect(windowState(w, t(next) + 60, zone)).toBe("active");
    // Half an hour into where 7 × 24 hours would put it: outside the local hour.
    expect(windowState(w, t(first) + week + 1800, zone)).toBe("scheduled");
    expect(occurrenceAt(w, t(next) + 60, zone)).toEqual({ from: t(next), to: t(next) + hour });
  });

  it("in UTC, every occurrence is 7 × 24 hours after the one before", () => {
    const w = weekly("2027-03-21T08:00:00Z", "2027-03-21T09:00:00Z");
    for (const k of [1, 2, 30, 52])
      expect(occurrence(w, k, "UTC")).toEqual({ from: w.from + k * week, to: w.to + k * week });
  });

  it("a one-off window is the window, whatever the zone", () => {
    const w: WindowSchedule = { ...weekly("2027-03-27T08:00:00Z", "2027-03-29T08:00:00Z"), repeat: "none" };
    expect(occurrenceAt(w, t("2027-04-10T00:00:00Z"), "Europe/Berlin")).toEqual({ from: w.from, to: w.to });
    expect(windowState(w, t("2027-04-10T00:00:00Z"), "Europe/Berlin")).toBe("finished");
  });
});

describe("local times the clocks skip or show twice", () => {
  const zone = "Europe/Berlin";

  it("a start in the skipped hour is the moment the clocks jump; its end keeps its wall-clock time", () => {
    // 02:30 to 03:30 local; on 2027-03-28, 02:00 to 03:00 does not exist in Berlin (the jump is 01:00Z).
    const w = weekly("2027-03-21T01:30:00Z", "2027-03-21T02:30:00Z");
    expect(iso(occurrence(w, 1, zone))).toEqual({
      from: "2027-03-28T01:00:00.000Z",
      to: "2027-03-28T01:30:00.000Z",
    });
    // The week after, 02:30 exists again (CEST).
    expect(iso(occurrence(w, 2, zone))).toEqual({
      from: "2027-04-04T00:30:00.000Z",
      to: "2027-04-04T01:30:00.000Z",
    });
  });

  it("a window wholly inside the skipped hour is empty that week: it holds nothing", () => {
    // 02:15 to 02:45 local.
    const w = weekly("2027-03-21T01:15:00Z", "2027-03-21T01:45:00Z");
    expect(iso(occurrence(w, 1, zone))).toEqual({
      from: "2027-03-28T01:00:00.000Z",
      to: "2027-03-28T01:00:00.000Z",
    });
    const night = t("2027-03-28T01:00:00Z");
    expect(windowState(w, night, zone)).toBe("scheduled");
    expect(iso(occurrenceAt(w, night, zone))).toEqual({
      from: "2027-04-04T00:15:00.000Z",
      to: "2027-04-04T00:45:00.000Z",
    });
    expect(releasedAt([{ ...w, timeZone: zone }], night)).toBe(night);
    expect(occurrencesOverlapping(w, t("2027-03-27T00:00:00Z"), t("2027-03-29T00:00:00Z"), zone)).toEqual([]);
    expect(overlapsRange(w, t("2027-03-27T00:00:00Z"), t("2027-03-29T00:00:00Z"), zone)).toBe(false);
  });

  it("a time shown twice is its first showing: a window over the repeated hour lasts an hour longer", () => {
    // 02:30 to 03:30 local; on 2027-10-31, 02:00 to 03:00 is shown twice (00:00Z-01:00Z CEST, 01:00Z-02:00Z CET).
    const w = weekly("2027-10-24T00:30:00Z", "2027-10-24T01:30:00Z");
    expect(iso(occurrence(w, 1, zone))).toEqual({
      from: "2027-10-31T00:30:00.000Z",
      to: "2027-10-31T02:30:00.000Z",
    });
    expect(windowState(w, t("2027-10-31T01:45:00Z"), zone)).toBe("active");
    // 01:30 to 02:30 local ends the first time the clock reads 02:30: an hour, as every week.
    const before = weekly("2027-10-23T23:30:00Z", "2027-10-24T00:30:00Z");
    expect(iso(occurrence(before, 1, zone))).toEqual({
      from: "2027-10-30T23:30:00.000Z",
      to: "2027-10-31T00:30:00.000Z",
    });
    expect(windowState(before, t("2027-10-31T01:15:00Z"), zone)).toBe("scheduled");
  });

  it("the first occurrence is the window as written, even at the second showing of a repeated hour", () => {
    // 02:30 CET, the second 02:30 of 2027-10-31.
    const w = weekly("2027-10-31T01:30:00Z", "2027-10-31T02:00:00Z");
    expect(occurrence(w, 0, zone)).toEqual({ from: w.from, to: w.to });
    expect(windowState(w, t("2027-10-31T01:45:00Z"), zone)).toBe("active");
    expect(iso(occurrence(w, 1, zone))).toEqual({
      from: "2027-11-07T01:30:00.000Z",
      to: "2027-11-07T02:00:00.000Z",
    });
  });
});

describe("occurrences over a change, for the sandbox's events, statistics and lists", () => {
  const zone = "America/New_York";
  // Sunday 09:00 to 10:00 local from 2027-03-07 (EST); 2027-03-14 is in EDT.
  const w = weekly("2027-03-07T14:00:00Z", "2027-03-07T15:00:00Z");

  it("each occurrence ends once, at its local end", () => {
    // By 14:30Z on 2027-03-21 the third has ended too (10:00 EDT); counted in 7 × 24 hours, it would still run.
    const ended = occurrencesEndedBetween(w, null, t("2027-03-21T14:30:00Z"), zone).map(iso);
    expect(ended).toEqual([
      { from: "2027-03-07T14:00:00.000Z", to: "2027-03-07T15:00:00.000Z" },
      { from: "2027-03-14T13:00:00.000Z", to: "2027-03-14T14:00:00.000Z" },
      { from: "2027-03-21T13:00:00.000Z", to: "2027-03-21T14:00:00.000Z" },
    ]);
    // After the first one's end: the next two, the second ending exactly at `now`.
    const later = occurrencesEndedBetween(w, t("2027-03-07T15:00:00Z"), t("2027-03-21T14:00:00Z"), zone);
    expect(later.map(iso)).toEqual([
      { from: "2027-03-14T13:00:00.000Z", to: "2027-03-14T14:00:00.000Z" },
      { from: "2027-03-21T13:00:00.000Z", to: "2027-03-21T14:00:00.000Z" },
    ]);
    expect(lastEndedBy(w, t("2027-03-14T13:59:59Z"), zone)).toBe(t("2027-03-07T15:00:00Z"));
    expect(lastEndedBy(w, t("2027-03-14T14:00:00Z"), zone)).toBe(t("2027-03-14T14:00:00Z"));
  });

  it("the occurrences in a range are those of the local hour", () => {
    const range = occurrencesOverlapping(w, t("2027-03-10T00:00:00Z"), t("2027-03-28T00:00:00Z"), zone).map(
      iso,
    );
    expect(range).toEqual([
      { from: "2027-03-14T13:00:00.000Z", to: "2027-03-14T14:00:00.000Z" },
      { from: "2027-03-21T13:00:00.000Z", to: "2027-03-21T14:00:00.000Z" },
    ]);
    // 14:00Z-15:00Z on 2027-03-14 is 10:00-11:00 EDT: no longer the window.
    expect(overlapsRange(w, t("2027-03-14T14:00:00Z"), t("2027-03-14T15:00:00Z"), zone)).toBe(false);
    expect(overlapsRange(w, t("2027-03-14T13:59:00Z"), t("2027-03-14T15:00:00Z"), zone)).toBe(true);
  });

  it("held-back alerts go out at the local end of the occurrence", () => {
    expect(releasedAt([{ ...w, timeZone: zone }], t("2027-03-14T13:10:00Z"))).toBe(t("2027-03-14T14:00:00Z"));
    // In UTC the occurrence would be 14:00Z-15:00Z, and 13:10Z would not be held.
    expect(releasedAt([{ ...w, timeZone: "UTC" }], t("2027-03-14T13:10:00Z"))).toBe(
      t("2027-03-14T13:10:00Z"),
    );
  });
});
