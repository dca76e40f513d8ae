import { kindNamed, kindsInOrder, parentOf } from "../../kinds/index.ts";
import type { KindName } from "../model.ts";
import { contactEngineKind, contactGroupEngineKind, maintenanceEngineKind } from "./contact.ts";
import type { EngineKind } from "./engine-kind.ts";
import { monitorEngineKind } from "./monitor.ts";
import { statusPageEngineKind } from "./status-page.ts";
import { statusPageTemplateEngineKind } from "./status-page-template.ts";
import { alertSubscriptionEngineKind, reportSubscriptionEngineKind } from "./subscription.ts";
import { webhookEngineKind } from "./webhook.ts";

export * from "./engine-kind.ts";

/**
 * Each kind's engine definition, by its name. The compiler checks that every kind of the registry has one,
 * under its own name (keys are the definitions' names, so no entry can sit under another kind's).
 */
const byName: { readonly [N in KindName]: EngineKind<N> } = {
  [contactEngineKind.name]: contactEngineKind,
  [contactGroupEngineKind.name]: contactGroupEngineKind,
  [monitorEngineKind.name]: monitorEngineKind,
  [alertSubscriptionEngineKind.name]: alertSubscriptionEngineKind,
  [reportSubscriptionEngineKind.name]: reportSubscriptionEngineKind,
  [maintenanceEngineKind.name]: maintenanceEngineKind,
  [statusPageEngineKind.name]: statusPageEngineKind,
  [statusPageTemplateEngineKind.name]: statusPageTemplateEngineKind,
  [webhookEngineKind.name]: webhookEngineKind,
};

/**
 * Every kind the engine manages, in dependency order (derived from the kinds' relations): what is referenced
 * or is a parent comes before what references it or lives under it.
 */
export const engineKinds: readonly EngineKind[] = kindsInOrder.map((k) => byName[k.name]);

const bySection = new Map(engineKinds.map((k) => [k.section, k]));

export function engineKind<N extends KindName>(name: N): EngineKind<N> {
  // A name read from a file (a state, a saved plan) may be no kind's: the compiler checks only the code's.
  if (!Object.hasOwn(byName, name)) throw new Error(`unknown kind ${name}`);
  return byName[name];
}

export function kindOfSection(section: string): EngineKind | undefined {
  return bySection.get(section);
}

/**
 * Where a kind may also be addressed under its parent, `<parent>.<name>.<member>.<name>`: the parent's
 * section and the member it nests as (`monitors`, `alerts`), from the kind's declared parent.
 */
export function nestedUnder(kind: EngineKind): { parent: string; member: string } | undefined {
  const parent = parentOf(kind.definition);
  return parent && { parent: engineKind(kindNamed(parent.kind)).section, member: parent.nestedAs };
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
