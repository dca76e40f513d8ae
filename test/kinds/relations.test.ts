import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  cascadedBy,
  cascadeSourcesOf,
  defineKind,
  dependenciesOf,
  dependencyOrder,
  field,
  type KindDefinition,
  kinds,
  kindsInOrder,
  ownedKindsOf,
  parentOf,
  topLevelOf,
} from "../../src/kinds/index.ts";

const names = (list: readonly KindDefinition[]) => list.map((k) => k.name);

/** A made-up kind: a status page's template, nested with a logical name of its own (no `keyedBy`). */
const page = defineKind({
  name: "page",
  title: "Page",
  schema: z.strictObject({ id: z.string(), monitorId: field(z.string(), { references: "watch" }) }).partial(),
  naturalKey: [],
  paths: { collection: "/page", item: "/page/{id}" },
});
const watch = defineKind({
  name: "watch",
  title: "Watch",
  schema: z.strictObject({ id: z.string() }).partial(),
  naturalKey: [],
  paths: { collection: "/watch", item: "/watch/{id}" },
});
const template = defineKind({
  name: "template",
  title: "Template",
  schema: z.strictObject({ id: z.string(), pageId: z.string(), title: z.string() }).partial(),
  naturalKey: [],
  relations: { parent: { kind: "page", member: "pageId", nestedAs: "templates" }, cascadedAs: "templates" },
  paths: { collection: "/page/{pageId}/template", item: "/page/{pageId}/template/{id}" },
});

/** The kinds written inside objects of `parent`, in the registry's order. */
const childrenOf = <K extends KindDefinition>(registry: readonly K[], parent: string) =>
  registry.filter((k) => parentOf(k)?.kind === parent);

describe("relations derived from the kinds", () => {
  it("orders the registry as the hand-written lists did: targets and parents first", () => {
    expect(names(kindsInOrder)).toEqual([
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
  });

  it("orders any listing of the kinds by dependency", () => {
    const reversed = dependencyOrder([...kinds].reverse());
    const position = new Map<string, number>(reversed.map((k, i) => [k.name, i]));
    for (const kind of reversed)
      for (const target of dependenciesOf(kind))
        expect(position.get(target), `${target} before ${kind.name}`).toBeLessThan(position.get(kind.name)!);
    // Each kind comes right after what it needs, in the order given.
    expect(names(reversed)).toEqual([
      "monitor",
      "webhook",
      "statusPage",
      "statusPageTemplate",
      "maintenance",
      "contact",
      "reportSubscription",
      "alertSubscription",
      "contactGroup",
    ]);
  });

  it("finds references at any depth and the declared parent and cascades", () => {
    expect(dependenciesOf(kinds.find((k) => k.name === "alertSubscription")!)).toEqual([
      "monitor",
      "contact",
    ]);
    // A status page references monitors inside its components; a webhook inside its scope.
    expect(dependenciesOf(kinds.find((k) => k.name === "statusPage")!)).toEqual(["monitor"]);
    expect(dependenciesOf(kinds.find((k) => k.name === "webhook")!)).toEqual(["monitor"]);
    expect(dependenciesOf(kinds.find((k) => k.name === "monitor")!)).toEqual([]);
  });

  it("derives the cascades the engine hard-coded", () => {
    expect(cascadedBy(kinds, "monitor").map((c) => [c.kind.name, c.cascadedAs])).toEqual([
      ["alertSubscription", "alertSubscriptions"],
      ["reportSubscription", "reportSubscriptions"],
    ]);
    expect(cascadedBy(kinds, "contact").map((c) => [c.kind.name, c.cascadedAs])).toEqual([
      ["alertSubscription", "alertSubscriptions"],
      ["reportSubscription", "reportSubscriptions"],
    ]);
    expect(cascadedBy(kinds, "statusPage").map((c) => [c.kind.name, c.cascadedAs])).toEqual([
      ["statusPageTemplate", "templates"],
    ]);
    expect(cascadeSourcesOf(kinds.find((k) => k.name === "reportSubscription")!)).toEqual([
      { kind: "monitor", member: "monitorId" },
      { kind: "contact", member: "contactId" },
    ]);
    expect(names(ownedKindsOf(kinds))).toEqual([
      "alertSubscription",
      "reportSubscription",
      "statusPageTemplate",
    ]);
  });

  it("derives the nesting: subscriptions under the monitor, templates under the page, everything else at the top", () => {
    expect(names(topLevelOf(kindsInOrder))).toEqual([
      "contact",
      "contactGroup",
      "monitor",
      "maintenance",
      "statusPage",
      "webhook",
    ]);
    expect(childrenOf(kinds, "monitor").map((k) => [k.name, k.relations?.parent?.nestedAs])).toEqual([
      ["alertSubscription", "alerts"],
      ["reportSubscription", "reports"],
    ]);
    expect(childrenOf(kinds, "statusPage").map((k) => [k.name, k.relations?.parent?.nestedAs])).toEqual([
      ["statusPageTemplate", "templates"],
    ]);
    expect(childrenOf(kinds, "contact")).toEqual([]);
  });

  it("handles a nested kind without keyedBy: a child with a logical name of its own", () => {
    const registry = [template, page, watch];
    expect(names(dependencyOrder(registry))).toEqual(["watch", "page", "template"]);
    expect(names(topLevelOf(registry))).toEqual(["page", "watch"]);
    expect(names(childrenOf(registry, "page"))).toEqual(["template"]);
    expect(cascadedBy(registry, "page").map((c) => [c.kind.name, c.cascadedAs])).toEqual([
      ["template", "templates"],
    ]);
    expect(cascadedBy(registry, "watch")).toEqual([]);
    expect(names(ownedKindsOf(registry))).toEqual(["template"]);
  });

  it("refuses a reference to an unregistered kind, and a cycle", () => {
    expect(() => dependencyOrder([template])).toThrow(
      "template depends on page, which is not a registered kind",
    );
    const loop = defineKind({
      ...watch,
      schema: z.strictObject({ id: z.string(), pageId: field(z.string(), { references: "page" }) }).partial(),
    });
    expect(() => dependencyOrder([page, loop])).toThrow(
      "kinds depend on each other in a cycle: page → watch → page",
    );
  });
});
