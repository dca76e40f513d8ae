import { describe, expect, test } from "vitest";
import { engineKind } from "../../../src/engine/kinds/index.ts";
import { applied, diff, edited, patch } from "./helpers.ts";

const desired = {
  type: "http",
  address: "https://hooks-t.example.com/alert",
  name: "Hook",
  alertDelay: 10,
  activePeriod: { days: ["sun", "sat"], from: "00:00", to: "23:59" },
  httpHeaders: [{ header: "Authorization", value: "Bearer t" }],
  templates: [
    { event: "down", content: "[[monitorName]] is down" },
    { event: "up", content: "[[monitorName]] is up" },
  ],
};

/** The list row with `expand=template`: defaults added, confirmed (http contacts are born confirmed). */
const live = {
  id: "c1",
  ...desired,
  activePeriod: { days: ["sat", "sun"], from: "00:00", to: "23:59" },
  language: "en",
  mimeType: "application/json",
  groupedAlerts: false,
  gateway: null,
  confirmed: true,
  confirmedAt: 1000,
  created: 1000,
  updated: 1000,
};
const prior = applied("contact", desired);

describe("contact", () => {
  test("the read-back row is no change", () => {
    expect(diff("contact", desired, { live, prior }).changes).toEqual([]);
  });

  test("templates are a list: a changed one is sent whole", () => {
    const next = edited(desired, (d) => {
      d.templates[1]!.content = "[[monitorName]] is back";
    });
    const result = diff("contact", next, { live, prior });
    expect(result.changes).toEqual([
      { op: "replace", path: "/templates", value: next.templates, before: desired.templates },
    ]);
    expect(patch("contact", next, result)).toEqual({ templates: next.templates });
  });

  test("drift, and a removed name goes back to the address without a lasting diff", () => {
    const changed = edited(live, (r) => {
      r.alertDelay = 0;
    });
    expect(diff("contact", desired, { live: changed, prior }).changes).toEqual([
      { op: "replace", path: "/alertDelay", value: 10, before: 0, drift: true },
    ]);
    const unnamed = edited(desired, (d) => {
      delete (d as Partial<typeof d>).name;
    });
    const result = diff("contact", unnamed, { live, prior });
    expect(result.changes).toEqual([{ op: "remove", path: "/name", before: "Hook" }]);
    expect(patch("contact", unnamed, result)).toEqual({ name: null });
    // After `name: null` the service reads the name as the address: the config is met.
    const reset = { ...live, name: live.address };
    expect(diff("contact", unnamed, { live: reset, prior }).changes).toEqual([]);
  });

  test("type is immutable; ignoreChanges hides a path", () => {
    expect(diff("contact", { ...desired, type: "email" }, { live, prior }).replaceReasons).toEqual([
      "type cannot change in place",
    ]);
    const changed = { ...live, alertDelay: 0 };
    expect(
      diff("contact", desired, { live: changed, prior, lifecycle: { ignoreChanges: ["alertDelay"] } })
        .changes,
    ).toEqual([]);
  });

  test("an email address's case does not change its natural key", () => {
    const kind = engineKind("contact");
    expect(kind.naturalKey({ type: "email", address: "Alerts@Example.com" })).toBe(
      kind.naturalKey({ type: "email", address: "alerts@example.com" }),
    );
    expect(kind.naturalKey({ type: "http", address: "https://A.example.com/x" })).not.toBe(
      kind.naturalKey({ type: "http", address: "https://a.example.com/x" }),
    );
  });
});

describe("contactGroup", () => {
  const group = {
    name: "oncall",
    members: [
      { contactId: "c1", events: ["weekly", "down", "up"] },
      { contactId: "c2", events: ["repeatedlyDown", "down"] },
    ],
  };
  const groupLive = {
    id: "g1",
    name: "oncall",
    members: [
      { contactId: "c2", events: ["down", "repeatedlyDown"] },
      { contactId: "c1", events: ["up", "weekly", "down"] },
    ],
    created: 1000,
    updated: 1000,
  };
  const groupPrior = applied("contactGroup", group);

  test("members and their events compare as sets", () => {
    expect(diff("contactGroup", group, { live: groupLive, prior: groupPrior }).changes).toEqual([]);
  });

  test("a changed member set is sent whole", () => {
    const next = edited(group, (g) => {
      g.members.pop();
    });
    const result = diff("contactGroup", next, { live: groupLive, prior: groupPrior });
    expect(result.changes).toEqual([
      {
        op: "replace",
        path: "/members",
        value: [{ contactId: "c1", events: ["down", "up", "weekly"] }],
        before: [
          { contactId: "c1", events: ["down", "up", "weekly"] },
          { contactId: "c2", events: ["down", "repeatedlyDown"] },
        ],
      },
    ]);
    expect(patch("contactGroup", next, result)).toEqual({ members: next.members });
  });

  test("an unknown contact marks the change unknown", () => {
    const next = { name: "oncall", members: [{ contactId: { $unknown: "contacts.new" }, events: ["down"] }] };
    const result = diff("contactGroup", next, { live: groupLive, prior: groupPrior });
    expect(result.changes).toEqual([
      expect.objectContaining({ op: "replace", path: "/members", unknown: true }),
    ]);
  });
});

describe("maintenance", () => {
  const window = {
    name: "weekly",
    from: 1893895200,
    to: 1893902400,
    monitorIds: ["m2", "m1"],
    repeat: "weekly",
  };
  const windowLive = {
    id: "w1",
    ...window,
    monitorIds: ["m1", "m2"],
    suppressAlerts: true,
    excludeFromStats: true,
    showOnStatusPage: false,
    state: "scheduled",
    occurrence: { from: 1893895200, to: 1893902400 },
    created: 1000,
    updated: 1000,
  };
  const windowPrior = applied("maintenance", window);

  test("the read-back row is no change: monitorIds as a set, state and occurrence ignored", () => {
    expect(
      diff("maintenance", window, { live: { ...windowLive, state: "active" }, prior: windowPrior }).changes,
    ).toEqual([]);
  });

  test("a change, a removed member back at its default, and a removed member away from it", () => {
    const next = { ...window, to: 1893906000 };
    const result = diff("maintenance", next, { live: windowLive, prior: windowPrior });
    expect(result.changes).toEqual([{ op: "replace", path: "/to", value: 1893906000, before: 1893902400 }]);
    expect(patch("maintenance", next, result)).toEqual({ to: 1893906000 });

    const { repeat: _, ...noRepeat } = window;
    const removed = diff("maintenance", noRepeat, { live: windowLive, prior: windowPrior });
    expect(removed.changes).toEqual([{ op: "remove", path: "/repeat", before: "weekly" }]);
    // A removed member with a default is reset to it.
    expect(patch("maintenance", noRepeat, removed)).toEqual({ repeat: "none" });
    expect(
      diff("maintenance", noRepeat, { live: { ...windowLive, repeat: "none" }, prior: windowPrior }).changes,
    ).toEqual([]);
  });

  test("an unknown monitor id marks the change unknown", () => {
    const next = { ...window, monitorIds: ["m1", { $unknown: "monitors.new" }] };
    const result = diff("maintenance", next, { live: windowLive, prior: windowPrior });
    expect(result.changes).toEqual([expect.objectContaining({ path: "/monitorIds", unknown: true })]);
  });

  describe("a member the config marks sensitive (a value from the environment)", () => {
    const sensitive = ["/httpHeaders/0/value"];
    const priorSecret = applied("contact", desired, { sensitive });

    test("is hashed in the state and masked, and the read-back value compares equal by its hash", () => {
      expect(JSON.stringify(priorSecret)).not.toContain("Bearer t");
      expect(diff("contact", desired, { live, prior: priorSecret, sensitive }).changes).toEqual([]);
    });

    test("a changed value is a change that shows no value, and the PATCH carries the new one", () => {
      const next = edited(desired, (d) => {
        d.httpHeaders[0]!.value = "Bearer rotated";
      });
      const result = diff("contact", next, { live, prior: priorSecret, sensitive });
      expect(result.changes).toEqual([
        {
          op: "replace",
          path: "/httpHeaders",
          value: [{ header: "Authorization", value: "(sensitive)" }],
          before: [{ header: "Authorization", value: "(sensitive, differs)" }],
        },
      ]);
      expect(JSON.stringify(result)).not.toContain("Bearer");
      expect(patch("contact", next, result)).toEqual({ httpHeaders: next.httpHeaders });
    });
  });
});
