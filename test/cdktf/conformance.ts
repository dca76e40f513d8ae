/**
 * Checks a synthesized stack (Terraform JSON) against provider.json the way Terraform decodes a
 * configuration before it calls the provider: every provider, resource and data source block sets only
 * attributes its schema has, never a computed-only one, every required one, each with a value of the
 * attribute's type (nested attributes: an object, a list or set of objects, a map of objects).
 * Interpolations (`${...}`) stand for a value of any type, as Terraform resolves them later.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type {
  AttributeJson,
  CtyTypeJson,
  NestedTypeJson,
  ProviderSchemaJson,
} from "../../src/terraform/schema-json.ts";

export const providerJson: ProviderSchemaJson = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../provider.json"), "utf8"),
).provider_schemas["registry.terraform.io/vigil/vigil"];

const resourceMeta = [
  "//",
  "count",
  "for_each",
  "depends_on",
  "provider",
  "lifecycle",
  "provisioner",
  "connection",
];
const dataMeta = ["//", "count", "for_each", "depends_on", "provider", "lifecycle"];

type Problems = string[];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isInterpolation = (value: unknown) => typeof value === "string" && value.includes("${");

function checkAttributes(
  path: string,
  value: unknown,
  attributes: Record<string, AttributeJson>,
  problems: Problems,
  meta: readonly string[] = [],
): void {
  if (isInterpolation(value)) return;
  if (!isObject(value)) {
    problems.push(`${path}: an object is required`);
    return;
  }
  for (const [name, member] of Object.entries(value)) {
    if (meta.includes(name)) continue;
    const attribute = attributes[name];
    if (!attribute) problems.push(`${path}.${name}: no such attribute in provider.json`);
    else if (attribute.computed && !attribute.optional && !attribute.required) {
      problems.push(`${path}.${name}: computed only, cannot be set`);
    } else checkValue(`${path}.${name}`, member, attribute, problems);
  }
  for (const [name, attribute] of Object.entries(attributes)) {
    if (attribute.required && (value[name] === undefined || value[name] === null))
      problems.push(`${path}.${name}: required, missing`);
  }
}

function checkValue(path: string, value: unknown, attribute: AttributeJson, problems: Problems): void {
  if (value === null || isInterpolation(value)) return;
  if (attribute.nested_type) checkNested(path, value, attribute.nested_type, problems);
  else checkType(path, value, attribute.type ?? "dynamic", problems);
}

function checkNested(path: string, value: unknown, nested: NestedTypeJson, problems: Problems): void {
  const { nesting_mode: mode, attributes } = nested;
  if (mode === "single") {
    checkAttributes(path, value, attributes, problems);
  } else if (mode === "map") {
    if (!isObject(value)) problems.push(`${path}: a map of objects is required`);
    else
      for (const [key, item] of Object.entries(value))
        checkAttributes(`${path}.${key}`, item, attributes, problems);
  } else if (!Array.isArray(value)) {
    problems.push(`${path}: a ${mode} of objects is required`);
  } else {
    for (const [i, item] of value.entries()) checkAttributes(`${path}[${i}]`, item, attributes, problems);
  }
}

function checkType(path: string, value: unknown, type: CtyTypeJson, problems: Problems): void {
  if (isInterpolation(value) || type === "dynamic") return;
  const scalar = { string: "string", number: "number", bool: "boolean" }[type as string];
  if (scalar) {
    if (typeof value !== scalar) problems.push(`${path}: ${type} required, got ${JSON.stringify(value)}`);
    return;
  }
  const [kind, element] = type as [string, unknown];
  if (kind === "list" || kind === "set") {
    if (!Array.isArray(value)) problems.push(`${path}: ${kind} required`);
    else
      for (const [i, item] of value.entries())
        checkType(`${path}[${i}]`, item, element as CtyTypeJson, problems);
  } else if (kind === "map") {
    if (!isObject(value)) problems.push(`${path}: map required`);
    else
      for (const [key, item] of Object.entries(value))
        checkType(`${path}.${key}`, item, element as CtyTypeJson, problems);
  } else if (kind === "object") {
    const members = element as Record<string, CtyTypeJson>;
    if (!isObject(value)) problems.push(`${path}: object required`);
    else {
      for (const [key, item] of Object.entries(value)) {
        const memberType = members[key];
        if (memberType === undefined) problems.push(`${path}.${key}: no such object member`);
        else checkType(`${path}.${key}`, item, memberType, problems);
      }
    }
  }
}

/** One line per place where the synthesized stack does not fit provider.json; empty when it fits. */
export function schemaProblems(synthesized: string, schema = providerJson): string[] {
  const stack = JSON.parse(synthesized) as Record<string, Record<string, unknown>>;
  const problems: Problems = [];
  const sections = [
    ["resource", schema.resource_schemas ?? {}, resourceMeta],
    ["data", schema.data_source_schemas ?? {}, dataMeta],
  ] as const;
  for (const [section, schemas, meta] of sections) {
    for (const [type, blocks] of Object.entries(stack[section] ?? {})) {
      const attributes = schemas[type]?.block.attributes;
      if (!attributes) {
        problems.push(`${section}.${type}: no such type in provider.json`);
        continue;
      }
      for (const [name, block] of Object.entries(blocks as Record<string, unknown>)) {
        checkAttributes(`${section}.${type}.${name}`, block, attributes, problems, meta);
      }
    }
  }
  for (const [name, configs] of Object.entries(stack.provider ?? {})) {
    if (name !== "vigil") continue;
    for (const [i, config] of (configs as unknown[]).entries()) {
      checkAttributes(`provider.vigil[${i}]`, config, schema.provider.block.attributes ?? {}, problems, [
        "alias",
      ]);
    }
  }
  return problems;
}
