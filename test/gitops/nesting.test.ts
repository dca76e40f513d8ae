import { describe, expect, it } from "vitest";
import {
  entryNameOf,
  excludedMembersOf,
  type NestedKind,
  nestedAddress,
  nestedIn,
  nestedKinds,
  nestingOf,
  topLevelKinds,
  topLevelSections,
} from "../../src/gitops/format.ts";

describe("the GitOps nesting, derived from the kinds' relations", () => {
  it("declares the kinds without a parent at the top level, in dependency order", () => {
    expect(topLevelKinds).toEqual([
      "contact",
      "contactGroup",
      "monitor",
      "maintenance",
      "statusPage",
      "webhook",
    ]);
    expect(topLevelSections).toEqual([
      "contacts",
      "contactGroups",
      "monitors",
      "maintenance",
      "statusPages",
      "webhooks",
    ]);
  });

  it("nests subscriptions in monitors, one entry per contact, and templates in status pages by name", () => {
    expect(nestedKinds).toEqual([
      {
        kind: "alertSubscription",
        parent: "monitor",
        member: "alerts",
        parentMember: "monitorId",
        keyedBy: "contactId",
      },
      {
        kind: "reportSubscription",
        parent: "monitor",
        member: "reports",
        parentMember: "monitorId",
        keyedBy: "contactId",
      },
      { kind: "statusPageTemplate", parent: "statusPage", member: "templates", parentMember: "pageId" },
    ]);
    const templates = nestingOf("statusPageTemplate")!;
    expect(nestedAddress(templates, "public", "outage")).toBe("statusPages.public.templates.outage");
    expect(entryNameOf(templates)).toBe("<name>");
    expect(nestedIn("monitor").map((n) => n.member)).toEqual(["alerts", "reports"]);
    expect(nestedIn("contact")).toEqual([]);
    expect(nestingOf("monitor")).toBeUndefined();
    const alerts = nestingOf("alertSubscription")!;
    expect(nestedAddress(alerts, "web", "oncall")).toBe("monitors.web.alerts.oncall");
    expect(entryNameOf(alerts)).toBe("<contact>");
  });

  it("leaves out the members only a create accepts: the monitor's inline contacts and subscriptions", () => {
    expect(excludedMembersOf("monitor")).toEqual(["contacts", "alertSubscriptions", "reportSubscriptions"]);
    for (const kind of topLevelKinds.filter((k) => k !== "monitor"))
      expect(excludedMembersOf(kind)).toEqual([]);
  });

  it("names an entry without keyedBy by a logical name of its own", () => {
    const template: NestedKind = {
      kind: "statusPageTemplate",
      parent: "statusPage",
      member: "templates",
      parentMember: "statusPageId",
    };
    expect(nestedAddress(template, "public", "outage")).toBe("statusPages.public.templates.outage");
    expect(entryNameOf(template)).toBe("<name>");
  });
});
