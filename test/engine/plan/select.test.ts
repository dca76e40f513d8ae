import { describe, expect, it } from "vitest";
import type { PlanNote, PlannedAction } from "../../../src/engine/model.ts";
import type { PlanProblem } from "../../../src/engine/plan/problem.ts";
import { refreshOnlyAction, selectTargeted, sortActions } from "../../../src/engine/plan/select.ts";

const action = (address: string, kind: PlannedAction["kind"], type: PlannedAction["action"], more = {}) =>
  ({ address, kind, action: type, reasons: [], changes: [], ...more }) as PlannedAction;
const problem = (address: string): PlanProblem => ({ address, code: "c", data: {}, message: "m" });
const note = (address: string) => ({ address }) as PlanNote;

describe("selectTargeted", () => {
  it("keeps everything without targets", () => {
    const all = {
      actions: [action("a.x", "contact", "create")],
      notes: [note("a.y")],
      problems: [problem("a.z")],
    };
    expect(selectTargeted(all, undefined)).toBe(all);
  });

  it("keeps the targets' actions, those a target cascades, their notes, and the request's problems", () => {
    const all = {
      actions: [
        action("monitors.a", "monitor", "delete"),
        action("alertSubscriptions.a-x", "alertSubscription", "delete", { cascadedBy: "monitors.a" }),
        action("monitors.b", "monitor", "delete"),
      ],
      notes: [note("monitors.a"), note("monitors.b")],
      problems: [problem(""), problem("monitors.a"), problem("monitors.b")],
    };
    const selected = selectTargeted(all, new Set(["monitors.a"]));
    expect(selected.actions.map((a) => a.address)).toEqual(["monitors.a", "alertSubscriptions.a-x"]);
    expect(selected.notes.map((n) => n.address)).toEqual(["monitors.a"]);
    expect(selected.problems.map((p) => p.address)).toEqual(["", "monitors.a"]);
  });
});

describe("refreshOnlyAction", () => {
  const drift = { op: "replace" as const, path: "/name", value: "a", before: "b", drift: true };
  const mine = { op: "replace" as const, path: "/interval", value: 120, before: 60 };

  it("shows a delete made outside vigil as a forget, and only the drift of an update or a replace", () => {
    expect(
      refreshOnlyAction(action("c.a", "contact", "create", { reasons: ["deleted outside vigil"] })),
    ).toEqual([action("c.a", "contact", "forget", { reasons: ["deleted outside vigil"] })]);
    expect(
      refreshOnlyAction(action("c.a", "contact", "forget", { reasons: ["already deleted outside vigil"] })),
    ).toEqual([action("c.a", "contact", "forget", { reasons: ["deleted outside vigil"] })]);
    expect(refreshOnlyAction(action("m.a", "monitor", "replace", { changes: [drift, mine] }))).toEqual([
      action("m.a", "monitor", "update", { reasons: ["changed outside vigil"], changes: [drift] }),
    ]);
  });

  it("leaves out everything else", () => {
    expect(refreshOnlyAction(action("m.a", "monitor", "update", { changes: [mine] }))).toEqual([]);
    expect(refreshOnlyAction(action("m.a", "monitor", "create", { changes: [drift] }))).toEqual([]);
    expect(refreshOnlyAction(action("m.a", "monitor", "delete"))).toEqual([]);
  });
});

describe("sortActions", () => {
  it("forgets, no-ops, writes in dependency order, then deletes in reverse dependency order", () => {
    const sorted = sortActions([
      action("contacts.b", "contact", "delete"),
      action("alertSubscriptions.x", "alertSubscription", "create"),
      action("monitors.m", "monitor", "delete"),
      action("monitors.n", "monitor", "update"),
      action("contacts.a", "contact", "replace"),
      action("contacts.z", "contact", "no-op"),
      action("monitors.gone", "monitor", "forget"),
      action("contacts.c", "contact", "import"),
    ]);
    expect(sorted.map((a) => `${a.action} ${a.address}`)).toEqual([
      "forget monitors.gone",
      "no-op contacts.z",
      "replace contacts.a",
      "import contacts.c",
      "update monitors.n",
      "create alertSubscriptions.x",
      "delete monitors.m",
      "delete contacts.b",
    ]);
  });
});
