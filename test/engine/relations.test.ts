import { describe, expect, it } from "vitest";
import {
  cascadedOf,
  engineKind,
  engineKinds,
  kindNestedAs,
  kindRank,
  nestedUnder,
} from "../../src/engine/kinds/index.ts";

describe("the engine's relations, derived from the kinds", () => {
  it("orders the engine kinds as the hand-written list did", () => {
    expect(engineKinds.map((k) => k.name)).toEqual([
      "contact",
      "contactGroup",
      "monitor",
      "alertSubscription",
      "reportSubscription",
      "maintenance",
      "statusPage",
      "statusPageTemplate",
      "webhook",
    ]);
    expect(kindRank("monitor")).toBeLessThan(kindRank("alertSubscription"));
  });

  it("addresses subscriptions under their monitor, templates under their page, and nothing else under a parent", () => {
    expect(nestedUnder(engineKind("alertSubscription"))).toEqual({ parent: "monitors", member: "alerts" });
    expect(nestedUnder(engineKind("reportSubscription"))).toEqual({ parent: "monitors", member: "reports" });
    expect(nestedUnder(engineKind("statusPageTemplate"))).toEqual({
      parent: "statusPages",
      member: "templates",
    });
    expect(engineKinds.filter((k) => nestedUnder(k)).map((k) => k.name)).toEqual([
      "alertSubscription",
      "reportSubscription",
      "statusPageTemplate",
    ]);
    expect(kindNestedAs("statusPages", "templates")?.name).toBe("statusPageTemplate");
    expect(kindNestedAs("monitors", "alerts")?.name).toBe("alertSubscription");
    expect(kindNestedAs("monitors", "reports")?.name).toBe("reportSubscription");
    expect(kindNestedAs("contacts", "alerts")).toBeUndefined();
  });

  it("reads a delete receipt's cascaded ids for the kinds that delete takes along", () => {
    const receipt = {
      cascaded: { alertSubscriptions: ["als_1", 7], reportSubscriptions: ["rsub_1"], other: ["x"] },
    };
    expect(cascadedOf("monitor", receipt)).toEqual({
      alertSubscription: ["als_1"],
      reportSubscription: ["rsub_1"],
    });
    expect(cascadedOf("contact", {})).toEqual({ alertSubscription: [], reportSubscription: [] });
    // A page's delete takes its templates along: the receipt's `cascaded.templates`.
    expect(cascadedOf("statusPage", { cascaded: { templates: ["t1"], components: ["c1"] } })).toEqual({
      statusPageTemplate: ["t1"],
    });
    expect(cascadedOf("statusPage", receipt)).toEqual({ statusPageTemplate: [] });
    // A kind whose delete takes nothing along reads nothing, whatever the receipt holds.
    expect(cascadedOf("alertSubscription", receipt)).toEqual({});
  });
});
