/**
 * The Pulumi package's names, shared by its schema, the SDK and the provider: one token per resource kind
 * (`vigil:index:Monitor`) and per data source function (`vigil:index:getMonitorTypes`).
 */
import type { KindName } from "../engine/model.ts";

export const packageName = "vigil";

/** The class name of each kind in the SDK: the kind's name in PascalCase, but for maintenance (a window). */
export const resourceClassNames: Readonly<Record<KindName, string>> = {
  monitor: "Monitor",
  contact: "Contact",
  contactGroup: "ContactGroup",
  alertSubscription: "AlertSubscription",
  reportSubscription: "ReportSubscription",
  maintenance: "MaintenanceWindow",
  statusPage: "StatusPage",
  webhook: "Webhook",
};

export const resourceToken = (kind: KindName): string => `${packageName}:index:${resourceClassNames[kind]}`;

/** The kind a resource token names, or undefined. */
export function kindOfToken(token: string): KindName | undefined {
  return (Object.keys(resourceClassNames) as KindName[]).find((kind) => resourceToken(kind) === token);
}

/** Data sources, served by Invoke. */
export const functionTokens = {
  getMonitorTypes: `${packageName}:index:getMonitorTypes`,
  getAgentPools: `${packageName}:index:getAgentPools`,
  getAccount: `${packageName}:index:getAccount`,
} as const;

export const providerToken = `pulumi:providers:${packageName}`;
