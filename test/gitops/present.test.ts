import { describe, expect, it } from "vitest";
import type { Plan } from "../../src/engine/index.ts";
import { planInConfigTerms } from "../../src/gitops/present.ts";

const plan = (actions: Plan["actions"]): Plan => ({
  format_version: "1.0",
  created: 0,
  lineage: "l",
  serial: 1,
  accountId: "a",
  configDigest: "d",
  syncCursors: {},
  actions,
  summary: { create: 0, update: 0, replace: 0, delete: 0, forget: 0, import: 0, "no-op": 0 },
  warnings: [],
});

describe("a plan in the config's terms", () => {
  it("names references by their config names and targets, and times in ISO 8601", () => {
    const shown = planInConfigTerms(
      plan([
        { address: "monitors.web", kind: "monitor", action: "no-op", id: "m-1", reasons: [], changes: [] },
        {
          address: "maintenance.deploy",
          kind: "maintenance",
          action: "update",
          id: "w-1",
          reasons: [],
          changes: [
            {
              op: "replace",
              path: "/monitorIds",
              before: ["m-1", "m-9"],
              value: ["m-1", { $unknown: "monitors.api" }],
            },
            { op: "replace", path: "/from", before: 1796090400, value: 1796094000 },
          ],
        },
        {
          address: "webhooks.ops",
          kind: "webhook",
          action: "create",
          reasons: [],
          changes: [
            { op: "add", path: "/scope", value: { monitorIds: ["m-1"] } },
            { op: "add", path: "/secret", value: "(sensitive)", sensitive: true },
          ],
        },
      ]),
    );
    expect(shown.actions[1]!.changes).toEqual([
      // An id the plan does not know (an object outside the config) stays an id.
      { op: "replace", path: "/monitors", before: ["web", "m-9"], value: ["web", "api"] },
      { op: "replace", path: "/from", before: "2026-12-01T02:00:00Z", value: "2026-12-01T03:00:00Z" },
    ]);
    expect(shown.actions[2]!.changes).toEqual([
      { op: "add", path: "/scope", value: { monitors: ["web"] } },
      { op: "add", path: "/secret", value: "(sensitive)", sensitive: true },
    ]);
  });

  it("renames the members of nested subscriptions and contact group members", () => {
    const shown = planInConfigTerms(
      plan([
        { address: "contacts.oncall", kind: "contact", action: "no-op", id: "c-1", reasons: [], changes: [] },
        {
          address: "contactGroups.sre",
          kind: "contactGroup",
          action: "update",
          id: "g-1",
          reasons: [],
          changes: [
            { op: "replace", path: "/members", before: [], value: [{ contactId: "c-1", events: ["down"] }] },
          ],
        },
        {
          address: "monitors.web.alerts.oncall",
          kind: "alertSubscription",
          action: "replace",
          id: "als_1",
          reasons: [],
          changes: [{ op: "replace", path: "/contactId", before: "c-0", value: "c-1" }],
        },
      ]),
    );
    expect(shown.actions[1]!.changes[0]!.value).toEqual([{ contact: "oncall", events: ["down"] }]);
    expect(shown.actions[2]!.changes[0]).toEqual({
      op: "replace",
      path: "/contact",
      before: "c-0",
      value: "oncall",
    });
  });
});
