/**
 * The Terraform data sources' schemas (what the catalogue and account routes answer, and one monitor read
 * back) and the provider block's.
 */

import type { z } from "zod";
import { catalogueResults } from "../kinds/data-sources.ts";
import { computedTree, connectionSettings, connectionText } from "../kinds/index.ts";
import {
  type Attribute,
  type AttributePath,
  attributesOf,
  resourceRules,
  resourceSchema,
  resourceTypeName,
  type Schema,
  sorted,
} from "./attributes.ts";

/** Every attribute computed only (a data source's results), sensitivity kept. */
function computedOnly(attribute: Attribute): Attribute {
  const out: Attribute = { description: attribute.description, description_kind: "plain", computed: true };
  if (attribute.type)
    return { type: attribute.type, ...out, ...(attribute.sensitive && { sensitive: true }) };
  const nestedType = attribute.nested_type!;
  return {
    nested_type: {
      attributes: Object.fromEntries(
        Object.entries(nestedType.attributes).map(([k, a]) => [k, computedOnly(a)]),
      ),
      nesting_mode: nestedType.nesting_mode,
    },
    ...out,
    ...(attribute.sensitive && { sensitive: true }),
  };
}

function computedBlock({ result, description }: { result: z.ZodObject; description: string }): Schema {
  return {
    version: 0,
    block: { attributes: attributesOf(computedTree(result)), description, description_kind: "plain" },
  };
}

/** Attributes without those at the given paths. */
function without(
  attributes: Record<string, Attribute>,
  paths: readonly AttributePath[],
): Record<string, Attribute> {
  const out: Record<string, Attribute> = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    const here = paths.filter((p) => p[0] === name);
    if (here.some((p) => p.length === 1)) continue;
    const nestedType = attribute.nested_type;
    out[name] =
      nestedType && here.length > 0
        ? {
            ...attribute,
            nested_type: {
              ...nestedType,
              attributes: without(
                nestedType.attributes,
                here.map((p) => p.slice(nestedType.nesting_mode === "single" ? 1 : 2)),
              ),
            },
          }
        : attribute;
  }
  return out;
}

/** A monitor as the service reads it back: the resource's attributes without input-only ones, all computed. */
function monitorDataSource(): Schema {
  const type = resourceTypeName("monitor");
  const readBack = without(resourceSchema(type).block.attributes, resourceRules(type).inputOnly);
  const attributes = Object.fromEntries(Object.entries(readBack).map(([name, a]) => [name, computedOnly(a)]));
  for (const lookup of ["id", "url", "type"]) {
    attributes[lookup] = { ...attributes[lookup]!, optional: true, computed: true };
    delete attributes[lookup]!.sensitive;
  }
  attributes.id!.description = "Opaque identifier. Look the monitor up by id, or by url and type.";
  return {
    version: 0,
    block: {
      attributes: sorted(Object.fromEntries(Object.entries(attributes).map(([k, a]) => [k, ordered(a)]))),
      description: "One monitor, looked up by id, or by url and type.",
      description_kind: "plain",
    },
  };
}

/** An attribute's keys in the order Terraform prints them. */
function ordered(a: Attribute): Attribute {
  const out: Attribute = {
    ...(a.type !== undefined && { type: a.type }),
    ...(a.nested_type && { nested_type: a.nested_type }),
    description: a.description,
    description_kind: a.description_kind,
  };
  if (a.required) out.required = true;
  if (a.optional) out.optional = true;
  if (a.computed) out.computed = true;
  if (a.sensitive) out.sensitive = true;
  return out;
}

export const dataSourceTypes = [
  "vigil_account",
  "vigil_agent_pools",
  "vigil_monitor",
  "vigil_monitor_types",
] as const;
export type DataSourceType = (typeof dataSourceTypes)[number];

export function dataSourceSchema(typeName: DataSourceType): Schema {
  switch (typeName) {
    case "vigil_monitor":
      return monitorDataSource();
    case "vigil_monitor_types":
      return computedBlock(catalogueResults.monitorTypes);
    case "vigil_agent_pools":
      return computedBlock(catalogueResults.agentPools);
    case "vigil_account":
      return computedBlock(catalogueResults.account);
  }
}

/** The provider block. */
export function providerConfigSchema(): Schema {
  const attributes: Record<string, Attribute> = {};
  for (const setting of connectionSettings) {
    attributes[setting.name] = {
      type: "string",
      description: connectionText(setting),
      description_kind: "plain",
      optional: true,
      ...(setting.writeOnly && { sensitive: true as const }),
    };
  }
  return {
    version: 0,
    block: {
      attributes,
      description:
        "The vigil provider: monitors, contacts, subscriptions, maintenance windows, status pages and webhooks.",
      description_kind: "plain",
    },
  };
}
