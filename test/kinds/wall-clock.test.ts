import { describe, expect, it } from "vitest";
import { firstInstantAtOrAfter, knownZone, wallTimeAt } from "../../src/kinds/index.ts";

const t = (iso: string) => Date.parse(iso) / 1000;

describe("wall-clock time in a zone", () => {
  it("reads the zone's clock at an instant", () => {
    expect(wallTimeAt("Europe/Berlin", t("2027-01-10T08:00:00Z"))).toBe(t("2027-01-10T09:00:00Z"));
    expect(wallTimeAt("Europe/Berlin", t("2027-07-10T08:00:00Z"))).toBe(t("2027-07-10T10:00:00Z"));
    expect(wallTimeAt("Australia/Sydney", t("2027-01-10T08:00:00Z"))).toBe(t("2027-01-10T19:00:00Z"));
    expect(wallTimeAt("Asia/Kolkata", t("2027-01-10T08:00:00Z"))).toBe(t("2027-01-10T13:30:00Z"));
    expect(wallTimeAt("UTC", 1234.5)).toBe(1234.5);
  });

  it("finds the instant of a wall time, the first of two, or the jump over a skipped one", () => {
    expect(firstInstantAtOrAfter("America/New_York", t("2027-01-10T09:00:00Z"))).toBe(
      t("2027-01-10T14:00:00Z"),
    );
    // 02:30 on 2027-03-14 does not exist in New York: the clocks jump from 02:00 EST to 03:00 EDT at 07:00Z.
    expect(firstInstantAtOrAfter("America/New_York", t("2027-03-14T02:30:00Z"))).toBe(
      t("2027-03-14T07:00:00Z"),
    );
    // 01:30 on 2027-11-07 is shown twice (05:30Z EDT, 06:30Z EST): the first.
    expect(firstInstantAtOrAfter("America/New_York", t("2027-11-07T01:30:00Z"))).toBe(
      t("2027-11-07T05:30:00Z"),
    );
    // Sydney's summer time starts on 2027-10-03 at 02:00 (16:00Z the day before).
    expect(firstInstantAtOrAfter("Australia/Sydney", t("2027-10-03T02:10:00Z"))).toBe(
      t("2027-10-02T16:00:00Z"),
    );
  });

  it("knows IANA zones and refuses offsets and unknown names", () => {
    expect(knownZone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(knownZone("Asia/Kolkata")).toBe("Asia/Kolkata");
    expect(knownZone("+01:00")).toBeUndefined();
    expect(knownZone("Europe/Berlim")).toBeUndefined();
  });
});
