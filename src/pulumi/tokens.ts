/**
 * The Pulumi package's names, shared by its schema, the SDK and the provider: one token per resource kind
 * (`vigil:index:Monitor`) and per data source function (`vigil:index:getMonitorTypes`).
 */
import type { KindName } from "../engine/model.ts";
import { kinds } from "../kinds/index.ts";

export const packageName = "vigil";

// A maintenance window's class says what it is: "Maintenance" alone reads as an action.
const renamed: Partial<Record<KindName, string>> = { maintenance: "MaintenanceWindow" };

/** The class name of each kind in the SDK: the kind's name in PascalCase, unless `renamed` says otherwise. */
export const resourceClassNames = Object.fromEntries(
  kinds.map(({ name }) => [name, renamed[name] ?? `${name[0]!.toUpperCase()}${name.slice(1)}`]),
) as Readonly<Record<KindName, string>>;

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
