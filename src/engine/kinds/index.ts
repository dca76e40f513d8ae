import { kindsInOrder, parentOf } from "../../kinds/index.ts";
import type { KindName } from "../model.ts";
import { contactEngineKind, contactGroupEngineKind, maintenanceEngineKind } from "./contact.ts";
import type { EngineKind } from "./engine-kind.ts";
import { monitorEngineKind } from "./monitor.ts";
import { statusPageEngineKind } from "./status-page.ts";
import { statusPageTemplateEngineKind } from "./status-page-template.ts";
import { alertSubscriptionEngineKind, reportSubscriptionEngineKind } from "./subscription.ts";
import { webhookEngineKind } from "./webhook.ts";

export * from "./engine-kind.ts";

// Each kind's engine definition, by name; `engineKinds` puts them in the order the kinds' relations give.
const built = new Map(
  [
    contactEngineKind,
    contactGroupEngineKind,
    monitorEngineKind,
    alertSubscriptionEngineKind,
    reportSubscriptionEngineKind,
    maintenanceEngineKind,
    statusPageEngineKind,
    statusPageTemplateEngineKind,
    webhookEngineKind,
  ].map((k) => [k.name, k]),
);

/**
 * Every kind the engine manages, in dependency order (derived from the kinds' relations): what is referenced
 * or is a parent comes before what references it or lives under it.
 */
export const engineKinds: readonly EngineKind[] = kindsInOrder.map((k) => {
  const kind = built.get(k.name);
  if (!kind) throw new Error(`the kind ${k.name} has no engine kind`);
  return kind;
});

const byName = new Map(engineKinds.map((k) => [k.name, k]));
const byCollection = new Map(engineKinds.map((k) => [k.collection, k]));

export function engineKind(name: KindName): EngineKind {
  const kind = byName.get(name);
  if (!kind) throw new Error(`unknown kind ${name}`);
  return kind;
}

export function kindOfCollection(collection: string): EngineKind | undefined {
  return byCollection.get(collection);
}

/**
 * Where a kind may also be addressed under its parent, `<parent>.<name>.<member>.<name>`: the parent's
 * collection and the member it nests as (`monitors`, `alerts`), from the kind's declared parent.
 */
export function nestedUnder(kind: EngineKind): { parent: string; member: string } | undefined {
  const parent = parentOf(kind.definition);
  return parent && { parent: engineKind(parent.kind).collection, member: parent.nestedAs };
}

/** The kind addressed as `<parent>.<name>.<member>.<name>` (`monitors.m.alerts.c`). */
export function kindNestedAs(parent: string, member: string): EngineKind | undefined {
  return engineKinds.find((k) => {
    const nesting = nestedUnder(k);
    return nesting?.parent === parent && nesting.member === member;
  });
}

/** Position in dependency order. */
export function kindRank(name: KindName): number {
  return engineKinds.findIndex((k) => k.name === name);
}
