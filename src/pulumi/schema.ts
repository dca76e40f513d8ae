/**
 * The Pulumi package schema (https://www.pulumi.com/docs/iac/extending-pulumi/schema/), derived from the
 * same walk of the kinds as the Terraform schema: each resource's attributes (`resourceSchema`) and rules
 * (`resourceRules`) give its properties, required inputs, secrets and replacements; property names are the
 * API's member names (`memberName`). The zod schemas add what Terraform types do not say: integers, and
 * which outputs are always present (not nullable). Nested objects become named types (`vigil:index:MonitorSettings`).
 * `schemas/pulumi-schema.json` holds it (`npm run generate`); the SDK (src/pulumi/sdk) is generated from it.
 */

import { readFileSync } from "node:fs";
import { z } from "zod";
import { engineKind, engineKinds } from "../engine/kinds/index.ts";
import type { KindName } from "../engine/model.ts";
import { inputSchemaOf } from "../gitops/format.ts";
import { accountResult, agentPoolsResult, monitorTypesResult, peel, settingsByType } from "../kinds/index.ts";
import {
  type Attribute,
  type CtyType,
  type DataSourceType,
  dataSourceSchema,
  memberName,
  providerConfigSchema,
  resourceRules,
  resourceSchema,
  resourceTypeName,
  resourceTypes,
} from "../terraform/schema.ts";
import { functionTokens, packageName, resourceToken } from "./tokens.ts";

export interface TypeSpec {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  $ref?: string;
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
}

export interface PropertySpec extends TypeSpec {
  description?: string;
  secret?: true;
  replaceOnChanges?: true;
  defaultInfo?: { environment: string[] };
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** A string that takes one of a few values: the SDK types it as their union. */
export interface EnumTypeSpec {
  type: "string";
  enum: { value: string }[];
}

export type TypeDefinition = ObjectTypeSpec | EnumTypeSpec;

export const isEnumType = (spec: TypeDefinition): spec is EnumTypeSpec => "enum" in spec;

export interface ResourceSpec extends ObjectTypeSpec {
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
}

export interface FunctionSpec {
  description: string;
  outputs: ObjectTypeSpec;
}

export interface PackageSpec {
  name: string;
  displayName: string;
  description: string;
  keywords: string[];
  license: string;
  version: string;
  meta: { moduleFormat: string };
  language: {
    nodejs: {
      packageName: string;
      packageDescription: string;
      dependencies: Record<string, string>;
      respectSchemaVersion: boolean;
    };
  };
  config: { variables: Record<string, PropertySpec> };
  provider: ResourceSpec;
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  types: Record<string, TypeDefinition>;
}

const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
  description: string;
  license: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** The @pulumi/pulumi versions the SDK works with: vigil's peer dependency (or its dependency). */
const pulumiRange =
  packageJson.peerDependencies?.["@pulumi/pulumi"] ??
  packageJson.dependencies?.["@pulumi/pulumi"] ??
  "^3.0.0";

/** The `$ref` of a type of this package. */
export const typeRef = (token: string) => `#/types/${token}`;

// ---------------------------------------------------------------------------
// Beside the Terraform attributes: the zod schemas they came from

/** The schemas a value may take: wrappers peeled, unions spread into their options. */
function options(schema: z.ZodType): z.ZodType[] {
  const s = peel(schema);
  return s instanceof z.ZodUnion ? s.options.flatMap((o) => options(o as z.ZodType)) : [s];
}

/** One step down (a member name, or `*` for items and map values) from each candidate schema. */
function step(candidates: readonly z.ZodType[], member: string): z.ZodType[] {
  return candidates.flatMap((candidate) =>
    options(candidate).flatMap((s): z.ZodType[] => {
      if (member === "*" && s instanceof z.ZodArray) return [s.element as z.ZodType];
      if (member === "*" && s instanceof z.ZodRecord) return [s.valueType as z.ZodType];
      if (member !== "*" && s instanceof z.ZodObject) {
        const m = (s.shape as Record<string, z.ZodType>)[member];
        return m ? [m] : [];
      }
      return [];
    }),
  );
}

/** The values a string takes when every schema it may come from is an enum or string literals. */
function enumValues(candidates: readonly z.ZodType[]): string[] | undefined {
  const values = new Set<string>();
  const all = candidates.flatMap(options);
  for (const s of all) {
    const taken =
      s instanceof z.ZodEnum ? Object.values(s.enum) : s instanceof z.ZodLiteral ? [...s.values] : [];
    if (taken.length === 0 || taken.some((v) => typeof v !== "string")) return undefined;
    for (const v of taken) values.add(v as string);
  }
  return all.length > 0 ? [...values] : undefined;
}

const isInteger = (candidates: readonly z.ZodType[]) =>
  candidates.length > 0 &&
  candidates.flatMap(options).every((s) => s instanceof z.ZodNumber && s.isInt === true);

/** Always present when read: known, and no candidate takes null. */
const alwaysPresent = (candidates: readonly z.ZodType[]) =>
  candidates.length > 0 && candidates.every((s) => !s.safeParse(null).success);

// ---------------------------------------------------------------------------
// Attributes to properties and types

/** Descriptions name Terraform things; a Pulumi reader wants the class and the member names. */
export function pulumiText(text: string): string {
  return text
    .replace(/\bvigil_[a-z_]+\b/g, (name) => {
      const kind = resourceTypes[name];
      return kind ? className(kind) : name;
    })
    .replace(/(^|[^"\w])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b/g, (_, before: string, word: string) => {
      return `${before}${memberName(word)}`;
    });
}

/** `Monitor`, `MaintenanceWindow`: the SDK class of a kind, from its token. */
export const className = (kind: KindName) => resourceToken(kind).slice(`${packageName}:index:`.length);

const pascal = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/** The name of one item of a collection member: `headers` → `header`, `entries` → `entry`, `status` stays. */
export function singular(name: string): string {
  if (/ies$/.test(name)) return name.replace(/ies$/, "y");
  if (/(ss|us|is)$/.test(name)) return name;
  return name.replace(/s$/, "");
}

interface Place {
  /** The name of the type an object here gets, without the package and module. */
  typeName: string;
  /** The attribute path from the resource, `*` for items: matched against the rules' paths. */
  path: string[];
  /** The zod schemas of the value here. */
  zod: z.ZodType[];
  /** Only ever read (a computed-only member, a function's result): always present members are required. */
  outputOnly: boolean;
  replaceOn: ReadonlySet<string>;
}

class TypeRegistry {
  readonly types = new Map<string, TypeDefinition>();

  add(name: string, spec: TypeDefinition): string {
    const token = `${packageName}:index:${name}`;
    const existing = this.types.get(token);
    if (existing && JSON.stringify(existing) !== JSON.stringify(spec))
      throw new Error(`two different types would be named ${token}`);
    this.types.set(token, spec);
    return typeRef(token);
  }
}

/** One item of `headers` is a `…Header`. */
const itemTypeName = (typeName: string) =>
  typeName.replace(/[A-Z][a-z0-9]*$/, (last) => pascal(singular(last.toLowerCase())));

/** A value's type; a string of a few values is a named enum type (`vigil:index:MonitorType`). */
function scalar(type: CtyType, place: Place, registry: TypeRegistry): TypeSpec {
  const { zod } = place;
  if (type === "string") {
    const values = enumValues(zod);
    if (!values) return { type: "string" };
    return {
      $ref: registry.add(place.typeName, { type: "string", enum: values.map((value) => ({ value })) }),
    };
  }
  if (type === "number") return { type: isInteger(zod) ? "integer" : "number" };
  if (type === "bool") return { type: "boolean" };
  if (type === "dynamic") return { $ref: "pulumi.json#/Any" };
  const [mode, inner] = type;
  const items: Place = { ...place, typeName: itemTypeName(place.typeName), zod: step(zod, "*") };
  if (mode === "list" || mode === "set") return { type: "array", items: scalar(inner, items, registry) };
  if (mode === "map") return { type: "object", additionalProperties: scalar(inner, items, registry) };
  throw new Error(`${place.path.join(".")}: no Pulumi type for ${JSON.stringify(type)}`);
}

function typeOf(attribute: Attribute, place: Place, registry: TypeRegistry): TypeSpec {
  if (attribute.type !== undefined) return scalar(attribute.type, place, registry);
  const nested = attribute.nested_type!;
  if (nested.nesting_mode === "single")
    return { $ref: objectType(attribute, nested.attributes, place, place.typeName, registry) };
  const items: Place = {
    ...place,
    typeName: itemTypeName(place.typeName),
    path: [...place.path, "*"],
    zod: step(place.zod, "*"),
  };
  const ref = { $ref: objectType(attribute, nested.attributes, items, items.typeName, registry) };
  if (nested.nesting_mode === "map") return { type: "object", additionalProperties: ref };
  return { type: "array", items: ref };
}

/** The named object type of a nested attribute; its `$ref`. */
function objectType(
  holder: Attribute,
  attributes: Record<string, Attribute>,
  place: Place,
  name: string,
  registry: TypeRegistry,
): string {
  const { properties, required } = propertiesOf(attributes, place, registry);
  const spec: ObjectTypeSpec = { type: "object", description: pulumiText(holder.description), properties };
  if (required.length > 0) spec.required = required;
  return registry.add(name, spec);
}

const computedOnly = (a: Attribute) => Boolean(a.computed && !a.optional && !a.required);

function propertyOf(attribute: Attribute, place: Place, registry: TypeRegistry): PropertySpec {
  const property: PropertySpec = { ...typeOf(attribute, place, registry) };
  property.description = pulumiText(attribute.description);
  if (attribute.sensitive) property.secret = true;
  if (place.replaceOn.has(place.path.join("/"))) property.replaceOnChanges = true;
  return property;
}

/** The properties of an object's attributes, and those always present. */
function propertiesOf(
  attributes: Record<string, Attribute>,
  parent: Place,
  registry: TypeRegistry,
): { properties: Record<string, PropertySpec>; required: string[] } {
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  for (const [name, attribute] of Object.entries(attributes)) {
    const member = memberName(name);
    const place: Place = {
      ...parent,
      typeName: `${parent.typeName}${pascal(member)}`,
      path: [...parent.path, name],
      zod: step(parent.zod, member),
      outputOnly: parent.outputOnly || computedOnly(attribute),
    };
    properties[member] = propertyOf(attribute, place, registry);
    // A type that is only ever read requires what is always present; one that is also written, what a config must set.
    if (attribute.required || (parent.outputOnly && alwaysPresent(place.zod))) required.push(member);
  }
  return { properties, required };
}

// ---------------------------------------------------------------------------
// Resources

/** The zod schemas a kind's members come from: what a config writes, what the service reads back. */
function kindSchemas(kind: KindName): z.ZodType[] {
  const roots: z.ZodType[] = [inputSchemaOf(kind), engineKind(kind).definition.schema];
  // Monitor settings are one attribute for every type's settings.
  if (kind === "monitor") roots.push(z.object({ settings: z.union(Object.values(settingsByType)) }));
  return roots;
}

function resourceSpec(kind: KindName, registry: TypeRegistry): ResourceSpec {
  const typeName = resourceTypeName(kind);
  const schema = resourceSchema(typeName);
  const rules = resourceRules(typeName);
  const root: Place = {
    typeName: className(kind),
    path: [],
    zod: kindSchemas(kind),
    outputOnly: false,
    replaceOn: new Set(rules.replaceOn.map((p) => p.join("/"))),
  };
  const properties: Record<string, PropertySpec> = {};
  const inputProperties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  const requiredInputs: string[] = [];
  const readBack = engineKind(kind).definition.schema;
  for (const [name, attribute] of Object.entries(schema.block.attributes)) {
    // Pulumi gives every resource its `id`.
    if (name === "id") continue;
    const member = memberName(name);
    const place: Place = {
      ...root,
      typeName: `${root.typeName}${pascal(member)}`,
      path: [name],
      zod: step(root.zod, member),
      outputOnly: computedOnly(attribute),
    };
    const property = propertyOf(attribute, place, registry);
    properties[member] = property;
    if (!place.outputOnly) inputProperties[member] = property;
    if (attribute.required) requiredInputs.push(member);
    // Outputs always present: what a config must set, and what the service fills and never reads back as null.
    if (attribute.required || (attribute.computed && alwaysPresent(step([readBack], member))))
      required.push(member);
  }
  const spec: ResourceSpec = {
    type: "object",
    description: pulumiText(schema.block.description),
    properties,
    inputProperties,
  };
  if (required.length > 0) spec.required = required;
  if (requiredInputs.length > 0) spec.requiredInputs = requiredInputs;
  return spec;
}

// ---------------------------------------------------------------------------
// Functions: the data sources' results

export const functionSources: Readonly<
  Record<keyof typeof functionTokens, { dataSource: DataSourceType; result: z.ZodObject }>
> = {
  getMonitorTypes: { dataSource: "vigil_monitor_types", result: monitorTypesResult },
  getAgentPools: { dataSource: "vigil_agent_pools", result: agentPoolsResult },
  getAccount: { dataSource: "vigil_account", result: accountResult },
};

function functionSpec(name: keyof typeof functionSources, registry: TypeRegistry): FunctionSpec {
  const { dataSource, result } = functionSources[name];
  const schema = dataSourceSchema(dataSource);
  const { properties, required } = propertiesOf(
    schema.block.attributes,
    { typeName: pascal(name), path: [], zod: [result], outputOnly: true, replaceOn: new Set() },
    registry,
  );
  const outputs: ObjectTypeSpec = { type: "object", properties };
  if (required.length > 0) outputs.required = required;
  return { description: pulumiText(schema.block.description), outputs };
}

// ---------------------------------------------------------------------------
// The package

const environment: Record<string, string> = { endpoint: "VIGIL_ENDPOINT", token: "VIGIL_TOKEN" };

function configVariables(): Record<string, PropertySpec> {
  const out: Record<string, PropertySpec> = {};
  for (const [name, attribute] of Object.entries(providerConfigSchema().block.attributes)) {
    const property: PropertySpec = { type: "string", description: pulumiText(attribute.description) };
    if (attribute.sensitive) property.secret = true;
    property.defaultInfo = { environment: [environment[name]!] };
    out[name] = property;
  }
  return out;
}

export function pulumiSchema(): PackageSpec {
  const registry = new TypeRegistry();
  const resources = Object.fromEntries(
    engineKinds.map((k) => [resourceToken(k.name), resourceSpec(k.name, registry)]),
  );
  const functions = Object.fromEntries(
    (Object.keys(functionTokens) as (keyof typeof functionTokens)[]).map((name) => [
      functionTokens[name],
      functionSpec(name, registry),
    ]),
  );
  const variables = configVariables();
  const description = `${packageJson.description}: monitors, contacts, subscriptions, maintenance windows, status pages and webhooks.`;
  return {
    name: packageName,
    displayName: "vigil",
    description,
    keywords: ["pulumi", "vigil", "monitoring", "uptime", "category/monitoring", "kind/native"],
    license: packageJson.license,
    version: packageJson.version,
    meta: { moduleFormat: "(.*)" },
    language: {
      nodejs: {
        packageName: packageName,
        packageDescription: description,
        dependencies: { "@pulumi/pulumi": pulumiRange },
        respectSchemaVersion: true,
      },
    },
    config: { variables },
    provider: {
      type: "object",
      description: pulumiText(providerConfigSchema().block.description),
      properties: variables,
      inputProperties: variables,
    },
    resources,
    functions,
    types: Object.fromEntries([...registry.types].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}

// ---------------------------------------------------------------------------
// Reading the schema back (the SDK generator and the tests)

/** The `$ref`'d object type of a property, or undefined for a scalar or an enum. */
export function referencedType(schema: PackageSpec, type: TypeSpec): ObjectTypeSpec | undefined {
  if (!type.$ref?.startsWith("#/types/")) return undefined;
  const found = schema.types[type.$ref.slice("#/types/".length)];
  if (!found) throw new Error(`unresolved ${type.$ref}`);
  return isEnumType(found) ? undefined : found;
}

/**
 * The paths of a resource's properties whose change replaces it, in Pulumi's property path form
 * (`type`, `settings.foo`, `items[*].x`), as the SDK passes them in `replaceOnChanges`.
 */
export function replaceOnChangesPaths(schema: PackageSpec, token: string): string[] {
  const resource = schema.resources[token];
  if (!resource) throw new Error(`unknown resource ${token}`);
  const out: string[] = [];
  const visit = (type: TypeSpec, path: string, depth: number) => {
    if (depth > 20) return;
    if (type.items) return visit(type.items, `${path}[*]`, depth + 1);
    if (type.additionalProperties) return visit(type.additionalProperties, `${path}.*`, depth + 1);
    const object = referencedType(schema, type);
    for (const [name, property] of Object.entries(object?.properties ?? {})) {
      if (property.replaceOnChanges) out.push(`${path}.${name}`);
      visit(property, `${path}.${name}`, depth + 1);
    }
  };
  for (const [name, property] of Object.entries(resource.properties)) {
    if (property.replaceOnChanges) out.push(name);
    visit(property, name, 0);
  }
  return out;
}
