import type { KindName } from "../model.ts";
import { contactEngineKind, contactGroupEngineKind, maintenanceEngineKind } from "./contact.ts";
import type { EngineKind } from "./engine-kind.ts";
import { monitorEngineKind } from "./monitor.ts";
import { statusPageEngineKind } from "./status-page.ts";
import { statusPageTemplateEngineKind } from "./status-page-template.ts";
import { alertSubscriptionEngineKind, reportSubscriptionEngineKind } from "./subscription.ts";
import { webhookEngineKind } from "./webhook.ts";

export * from "./engine-kind.ts";
export { effectiveAddress } from "./monitor.ts";

/** Every kind the engine manages, in dependency order: what is referenced comes before what references it. */
export const engineKinds: readonly EngineKind[] = [
  contactEngineKind,
  contactGroupEngineKind,
  monitorEngineKind,
  alertSubscriptionEngineKind,
  reportSubscriptionEngineKind,
  maintenanceEngineKind,
  statusPageEngineKind,
  statusPageTemplateEngineKind,
  webhookEngineKind,
];

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

/** The kind addressed as `<parent>.<name>.<member>.<name>` (`monitors.m.alerts.c`). */
export function kindNestedAs(parent: string, member: string): EngineKind | undefined {
  return engineKinds.find((k) => k.nested?.parent === parent && k.nested.member === member);
}

/** Position in dependency order. */
export function kindRank(name: KindName): number {
  return engineKinds.findIndex((k) => k.name === name);
}
