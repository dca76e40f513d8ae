import { describe, expect, test } from "vitest";
import { applied, diff, patch } from "./helpers.ts";

describe.each([
  { kind: "alertSubscription", member: "alertTypes", set: ["repeatedlyDown", "down", "up"], id: "als_1" },
  {
    kind: "reportSubscription",
    member: "frequencies",
    set: ["yearly", "monthly", "quarterly"],
    id: "rsub_1",
  },
] as const)("$kind", ({ kind, member, set, id }) => {
  const desired = { monitorId: "m1", contactId: "c1", [member]: set };
  const live = {
    id,
    monitorId: "m1",
    contactId: "c1",
    [member]: [...set].reverse(),
    created: 1000,
    updated: 1000,
  };
  const prior = applied(kind, desired);

  test("the set in another order is no change", () => {
    expect(diff(kind, desired, { live, prior }).changes).toEqual([]);
  });

  test("a changed set is sent whole; drift is flagged", () => {
    const next = { ...desired, [member]: set.slice(0, 2) };
    const result = diff(kind, next, { live, prior });
    expect(result.changes).toEqual([
      { op: "replace", path: `/${member}`, value: [...set.slice(0, 2)].sort(), before: [...set].sort() },
    ]);
    expect(patch(kind, next, result)).toEqual({ [member]: set.slice(0, 2) });
    const drifted = diff(kind, desired, { live: { ...live, [member]: [set[0]] }, prior });
    expect(drifted.changes).toEqual([
      { op: "replace", path: `/${member}`, value: [...set].sort(), before: [set[0]], drift: true },
    ]);
  });

  test("another monitor replaces the subscription", () => {
    const result = diff(kind, { ...desired, monitorId: "m2" }, { live, prior });
    expect(result.changes).toEqual([{ op: "replace", path: "/monitorId", value: "m2", before: "m1" }]);
    expect(result.replaceReasons).toEqual(["monitorId cannot change in place"]);
  });

  test("a monitor still to be created is unknown", () => {
    const result = diff(kind, { ...desired, monitorId: { $unknown: "monitors.x" } });
    expect(result.changes).toEqual(
      expect.arrayContaining([
        { op: "add", path: "/monitorId", value: { $unknown: "monitors.x" }, unknown: true },
      ]),
    );
    expect(result.changes.filter((c) => c.unknown)).toHaveLength(1);
  });

  test("ignoreChanges hides the set", () => {
    const changed = { ...live, [member]: [set[0]] };
    expect(
      diff(kind, desired, { live: changed, prior, lifecycle: { ignoreChanges: [member] } }).changes,
    ).toEqual([]);
  });
});
