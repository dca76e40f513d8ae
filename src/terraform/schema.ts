/**
 * The Terraform provider's schema, derived from the kinds, in the JSON format
 * `terraform providers schema -json` prints (what provider.json holds). The
 * members a resource sets are the GitOps format's (`inputSchemaOf`); their
 * traits decide required / optional / computed / sensitive and which changes
 * replace the resource. Attribute names are the members' names in snake_case.
 */

import { z } from "zod";
import { engineKind, engineKinds } from "../engine/kinds/index.ts";
import type { KindName } from "../engine/model.ts";
import { inputSchemaOf } from "../gitops/format.ts";
import {
  accountResult,
  agentPoolsResult,
  bodySchema,
  generatedMembers,
  generatedOutputName,
  membersOf,
  monitorTypeNames,
  monitorTypesResult,
  peel,
  settingsByType,
  traitsOf,
} from "../kinds/index.ts";
import { camelCase, snakeCase } from "./names.ts";
import type { AttributeJson, BlockJson, NestedTypeJson, NestingMode, SchemaJson } from "./schema-json.ts";

export const providerAddress = "registry.terraform.io/vigil/vigil";
export const providerName = "vigil";

/** A cty type expression as Terraform writes it in JSON. */
export type CtyType =
  | "string"
  | "number"
  | "bool"
  | "dynamic"
  | ["list" | "set" | "map", CtyType]
  | ["object", Record<string, CtyType>];

// What this provider's schema uses of the format (schema-json.ts), narrowed: it says so where the type checks it.
export interface NestedType extends NestedTypeJson {
  attributes: Record<string, Attribute>;
  nesting_mode: NestingMode;
}

export interface Attribute extends AttributeJson {
  type?: CtyType;
  nested_type?: NestedType;
  description: string;
  description_kind: "plain";
  required?: true;
  optional?: true;
  computed?: true;
  sensitive?: true;
}

export interface Block extends BlockJson {
  attributes: Record<string, Attribute>;
  description: string;
  description_kind: "plain";
}

export interface Schema extends SchemaJson {
  version: number;
  block: Block;
}

export interface ProviderSchemas {
  format_version: "1.0";
  provider_schemas: Record<
    string,
    {
      provider: Schema;
      resource_schemas: Record<string, Schema>;
      data_source_schemas: Record<string, Schema>;
    }
  >;
}

/** `cronSchedule` → `cron_schedule`: the one mapping of names, shared with the value conversion. */
export const attributeName = snakeCase;

/** `cron_schedule` → `cronSchedule`. */
export const memberName = camelCase;

/** `vigil_contact_group` for the kind `contactGroup`. */
export function resourceTypeName(kind: KindName): string {
  return `${providerName}_${attributeName(kind)}`;
}

/** Every resource type, by name, with the kind it manages (in the engine's dependency order). */
export const resourceTypes: Readonly<Record<string, KindName>> = Object.fromEntries(
  engineKinds.map((k) => [resourceTypeName(k.name), k.name]),
);

/** The kind a resource type manages; throws for a name that is not one. */
export function kindOfResourceType(typeName: string): KindName {
  const kind = resourceTypes[typeName];
  if (!kind) throw new Error(`unknown resource type ${typeName}`);
  return kind;
}

/** A member path in attribute names; `*` stands for any item of a list, set or map. */
export type AttributePath = readonly string[];

/** What the provider needs besides the schema to plan a resource type. */
export interface ResourceRules {
  kind: KindName;
  /** A change under one of these paths replaces the resource (immutable and create-only members). */
  replaceOn: AttributePath[];
  /** Members the service never reads back: state keeps the configured value. */
  inputOnly: AttributePath[];
  /** Credentials: the service reads them back masked, so state keeps the configured value. */
  sensitive: AttributePath[];
  /**
   * Credentials the service generates when the config sets none (a webhook's `secret`), each with the
   * sensitive computed attribute that holds it (`generated_secret`): filled from the create's answer, the
   * only one that shows it, and kept from then on.
   */
  generated: { member: string; attribute: string }[];
}

// ---------------------------------------------------------------------------
// From zod to attributes

interface Walk {
  /** Where the member is, in attribute names (`*` for items). */
  path: string[];
  /** Inside a member the service sets: every attribute is computed only. */
  readOnly: boolean;
  rules?: ResourceRules;
}

const isObjectLike = (schema: z.ZodType): boolean => {
  const s = peel(schema);
  return (
    s instanceof z.ZodObject ||
    (s instanceof z.ZodUnion && s.options.every((o) => isObjectLike(o as z.ZodType)))
  );
};

/** An object option made only of `true` flags is an action (`{rotate: true}`), not a value a config holds. */
const isActionObject = (schema: z.ZodType): boolean => {
  const s = peel(schema);
  return (
    s instanceof z.ZodObject &&
    Object.values(s.shape as Record<string, z.ZodType>).every((m) => {
      const p = peel(m);
      return p instanceof z.ZodLiteral && p.value === true;
    })
  );
};

/**
 * The schema a union is configured with: alternatives of objects merge into
 * one object whose members are each optional unless every alternative
 * requires them (webhook `scope`, status page components). A scalar beside
 * objects stands alone when the objects are actions (`secret` or
 * `{rotate: true}`); otherwise the object is the form the service reads back
 * (`attached` toggles read back as `{enabled}`).
 */
function unionAsOne(union: z.ZodUnion): z.ZodType {
  const options = union.options.map((o) => o as z.ZodType);
  const objects = options.filter(isObjectLike);
  const scalars = options.filter((o) => !isObjectLike(o));
  if (objects.length === 0) return scalars[0]!;
  if (scalars.length > 0 && objects.every(isActionObject)) return scalars[0]!;
  const shapes = objects.flatMap((o) => {
    const p = peel(o);
    return p instanceof z.ZodUnion ? [peel(unionAsOne(p)) as z.ZodObject] : [p as z.ZodObject];
  });
  const merged: Record<string, z.ZodType> = {};
  for (const shape of shapes) {
    for (const [name, member] of Object.entries(shape.shape as Record<string, z.ZodType>)) {
      if (merged[name]) continue;
      const everywhere = shapes.every((s) => name in s.shape && !(s.shape[name] instanceof z.ZodOptional));
      merged[name] = everywhere ? member : member.optional();
    }
  }
  return z.object(merged);
}

/** Peels wrappers and resolves unions to the one schema a config writes. */
function resolved(schema: z.ZodType): z.ZodType {
  const s = peel(schema);
  return s instanceof z.ZodUnion ? resolved(unionAsOne(s)) : s;
}

function scalarType(schema: z.ZodType): CtyType | undefined {
  const s = resolved(schema);
  // By the definition's type: string formats (`z.uuid()`) are not ZodString instances.
  if (s.def.type === "string") return "string";
  if (s.def.type === "number") return "number";
  if (s.def.type === "boolean") return "bool";
  if (s instanceof z.ZodEnum) return ctyOfValue(Object.values(s.enum)[0]);
  if (s instanceof z.ZodLiteral) return ctyOfValue(s.values.values().next().value);
  return undefined;
}

function ctyOfValue(value: unknown): CtyType {
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  return "string";
}

/** The allowed values of an enum or literal leaf (through arrays), for the description. */
function allowedValues(schema: z.ZodType): unknown[] | undefined {
  const s = resolved(schema);
  if (s instanceof z.ZodArray) return allowedValues(s.element as z.ZodType);
  if (s instanceof z.ZodEnum) return Object.values(s.enum);
  if (s instanceof z.ZodLiteral && s.values.size > 1) return [...s.values];
  return undefined;
}

const collectionOf = (schema: z.ZodType): "list" | "set" =>
  traitsOf(schema).collection === "set" ? "set" : "list";

/** The type of a member: a cty type expression, or nested attributes for objects (alone or in collections). */
function typeOf(schema: z.ZodType, walk: Walk): Pick<Attribute, "type" | "nested_type"> {
  const s = resolved(schema);
  if (s instanceof z.ZodObject) return { nested_type: nested(s, "single", walk) };
  if (s instanceof z.ZodArray) {
    const element = s.element as z.ZodType;
    const mode = collectionOf(schema);
    const items = { ...walk, path: [...walk.path, "*"] };
    if (isObjectLike(element)) return { nested_type: nested(resolved(element) as z.ZodObject, mode, items) };
    return { type: [mode, typeOf(element, items).type!] };
  }
  if (s instanceof z.ZodRecord) {
    const value = s.valueType as z.ZodType;
    const items = { ...walk, path: [...walk.path, "*"] };
    if (isObjectLike(value)) return { nested_type: nested(resolved(value) as z.ZodObject, "map", items) };
    return { type: ["map", typeOf(value, items).type!] };
  }
  const scalar = scalarType(s);
  if (!scalar) throw new Error(`${walk.path.join(".")}: no Terraform type for ${s.def.type}`);
  return { type: scalar };
}

function nested(object: z.ZodObject, mode: NestingMode, walk: Walk): NestedType {
  const attributes: Record<string, Attribute> = {};
  for (const [name, member] of Object.entries(object.shape as Record<string, z.ZodType>)) {
    attributes[attributeName(name)] = attributeOf(name, member, walk, !(member instanceof z.ZodOptional));
  }
  return { attributes: sorted(attributes), nesting_mode: mode };
}

/** Whether the service stores a value when the config sets none (a default, or one member's default). */
function serviceFills(schema: z.ZodType): boolean {
  const traits = traitsOf(schema);
  if (traits.inputOnly) return false;
  if (traits.default !== undefined || traits.defaultFrom) return true;
  const s = resolved(schema);
  return s instanceof z.ZodObject && Object.values(s.shape as Record<string, z.ZodType>).some(serviceFills);
}

const humanized = (member: string) => {
  const words = member.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
};

const sentence = (text: string) => (/[.!?)]$/.test(text) ? text : `${text}.`);

/** The member's description with what its traits say: allowed values, default, references, replacement. */
function describe(member: string, schema: z.ZodType, own?: string): string {
  const traits = traitsOf(schema);
  const parts = [sentence(own ?? traits.description ?? humanized(member))];
  const allowed = allowedValues(schema);
  if (allowed) parts.push(`One of: ${allowed.map((v) => JSON.stringify(v)).join(", ")}.`);
  if (traits.default !== undefined && !/default/i.test(parts[0]!))
    parts.push(`Default: ${JSON.stringify(traits.default)}.`);
  const peeled = peel(schema);
  const target =
    traits.references ??
    (peeled instanceof z.ZodArray ? traitsOf(peeled.element as z.ZodType).references : undefined);
  if (target) parts.push(`The id of a ${resourceTypeName(target)} (write its .id).`);
  if (traits.timestamp && !/unix/i.test(parts.join(" "))) parts.push("Unix seconds.");
  if (traits.createOnly) parts.push("Sent on create only.");
  if (traits.immutable || traits.createOnly) parts.push("Changing it replaces the resource.");
  return parts.join(" ");
}

function attributeOf(
  member: string,
  schema: z.ZodType,
  parent: Walk,
  required: boolean,
  description?: string,
): Attribute {
  const traits = traitsOf(schema);
  const name = attributeName(member);
  const walk: Walk = {
    ...parent,
    path: [...parent.path, name],
    readOnly: parent.readOnly || Boolean(traits.readOnly),
  };
  // A credential (a secret, a password, a header value) is never shown by terraform plan.
  const sensitive = Boolean(traits.writeOnly);
  if (walk.rules && !walk.readOnly) {
    if (traits.immutable || traits.createOnly) walk.rules.replaceOn.push(walk.path);
    if (traits.inputOnly) walk.rules.inputOnly.push(walk.path);
    if (sensitive) walk.rules.sensitive.push(walk.path);
  }
  const attribute: Attribute = {
    ...typeOf(schema, walk),
    description: describe(member, schema, description),
    description_kind: "plain",
  };
  if (walk.readOnly) attribute.computed = true;
  else if (required) attribute.required = true;
  else {
    attribute.optional = true;
    if (serviceFills(schema)) attribute.computed = true;
  }
  if (sensitive) attribute.sensitive = true;
  return attribute;
}

/** Attributes in name order, as Terraform prints them. */
function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

// ---------------------------------------------------------------------------
// Monitor settings: one attribute for every type's members

/** Each settings member with the types that take it, in the order the types are listed. */
function settingsMembers(): Map<string, { types: string[]; schemas: z.ZodType[] }> {
  const out = new Map<string, { types: string[]; schemas: z.ZodType[] }>();
  for (const type of monitorTypeNames) {
    for (const { name, schema } of membersOf(bodySchema(settingsByType[type], "create"))) {
      const entry = out.get(name) ?? { types: [], schemas: [] };
      entry.types.push(type);
      entry.schemas.push(schema);
      out.set(name, entry);
    }
  }
  return out;
}

/** What one settings member does, per group of types where that differs (waterfall's timeout is not http's). */
function settingsDescription(name: string, types: string[], schemas: z.ZodType[]): string {
  const byText = new Map<string, string[]>();
  schemas.forEach((schema, i) => {
    const text = describe(name, schema);
    byText.set(text, [...(byText.get(text) ?? []), types[i]!]);
  });
  const texts = [...byText].map(([text, ts]) => (byText.size === 1 ? text : `${ts.join(", ")}: ${text}`));
  return `${texts.join(" ")} Types: ${types.join(", ")}.`;
}

function settingsAttribute(walk: Walk): Attribute {
  const settingsWalk: Walk = { ...walk, path: [...walk.path, "settings"] };
  const attributes: Record<string, Attribute> = {};
  let fills = false;
  for (const [name, { types, schemas }] of settingsMembers()) {
    const attribute = attributeOf(name, schemas[0]!, settingsWalk, false);
    const typeKey = (schema: z.ZodType) =>
      JSON.stringify(typeOf(schema, { ...settingsWalk, rules: undefined }));
    for (const other of schemas.slice(1)) {
      // One attribute serves every type, so the types must agree on its shape.
      if (typeKey(other) !== typeKey(schemas[0]!))
        throw new Error(`settings.${name} has different types across monitor types`);
      if (serviceFills(other)) attribute.computed = true;
      if (traitsOf(other).writeOnly && !attribute.sensitive) {
        attribute.sensitive = true;
        walk.rules?.sensitive.push([...settingsWalk.path, attributeName(name)]);
      }
    }
    attribute.description = settingsDescription(name, types, schemas);
    fills ||= Boolean(attribute.computed);
    attributes[attributeName(name)] = attribute;
  }
  const attribute: Attribute = {
    nested_type: { attributes: sorted(attributes), nesting_mode: "single" },
    description:
      "Settings of the monitor's type; each member names the types that take it. On update, members merge into the stored settings.",
    description_kind: "plain",
    optional: true,
  };
  if (fills) attribute.computed = true;
  return attribute;
}

// ---------------------------------------------------------------------------
// Resources

function build(kind: KindName): { schema: Schema; rules: ResourceRules } {
  const ek = engineKind(kind);
  const definition = ek.definition;
  const rules: ResourceRules = { kind, replaceOn: [], inputOnly: [], sensitive: [], generated: [] };
  const walk: Walk = { path: [], readOnly: false, rules };
  const required = new Set(definition.required ?? []);
  const attributes: Record<string, Attribute> = {};
  const kindMembers = new Map(membersOf(definition.schema).map((m) => [m.name, m]));
  for (const { name, schema, traits } of membersOf(inputSchemaOf(kind))) {
    // A side member's body may carry no description; the kind's member says what it is.
    const description = traits.description ?? kindMembers.get(name)?.traits.description;
    attributes[attributeName(name)] =
      kind === "monitor" && name === "settings"
        ? settingsAttribute(walk)
        : attributeOf(name, schema, walk, required.has(name), description);
  }
  for (const { name, schema, traits } of membersOf(definition.schema)) {
    // What the service sets, and state it keeps that a config does not write (a webhook's `enabled`).
    const kept = traits.readOnly || (traits.updateOnly && traits.default !== undefined);
    if (!kept || attributes[attributeName(name)]) continue;
    const description = traits.updateOnly
      ? `${humanized(name)} Set by the service, or by an update outside this configuration.`
      : undefined;
    const attribute = attributeOf(name, schema, { ...walk, readOnly: true }, false, description);
    if (name === "id")
      attribute.description = `${sentence(traits.description ?? "Identifier")} Import by this id.`;
    attributes[attributeName(name)] = attribute;
  }
  for (const member of generatedMembers(definition.schema)) {
    const attribute = attributeName(generatedOutputName(member));
    rules.generated.push({ member, attribute });
    attributes[attribute] = {
      type: "string",
      description: `The ${member} the service generated because the configuration sets none: known after create (the API shows it once, in the create's answer), then kept in the state. Null when the configuration sets ${attributeName(member)}, or after an import.`,
      description_kind: "plain",
      computed: true,
      sensitive: true,
    };
  }
  return {
    schema: {
      version: 0,
      block: {
        attributes: sorted(attributes),
        description: `A ${definition.title.toLowerCase()} (${definition.paths.collection}).`,
        description_kind: "plain",
      },
    },
    rules,
  };
}

const built = new Map<KindName, { schema: Schema; rules: ResourceRules }>();
function builtFor(kind: KindName) {
  let entry = built.get(kind);
  if (!entry) {
    entry = build(kind);
    built.set(kind, entry);
  }
  return entry;
}

export function resourceSchema(typeName: string): Schema {
  return builtFor(kindOfResourceType(typeName)).schema;
}

export function resourceRules(typeName: string): ResourceRules {
  return builtFor(kindOfResourceType(typeName)).rules;
}

// ---------------------------------------------------------------------------
// Data sources: what the catalogue and account routes answer

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

function computedBlock(object: z.ZodObject, description: string): Schema {
  const walk: Walk = { path: [], readOnly: true };
  const attributes: Record<string, Attribute> = {};
  for (const [name, member] of Object.entries(object.shape as Record<string, z.ZodType>))
    attributes[attributeName(name)] = attributeOf(name, member, walk, false);
  return { version: 0, block: { attributes: sorted(attributes), description, description_kind: "plain" } };
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
      return computedBlock(monitorTypesResult, "The monitor type catalogue (GET /monitor/type).");
    case "vigil_agent_pools":
      return computedBlock(agentPoolsResult, "Location pools with live location counts (GET /agent/pool).");
    case "vigil_account":
      return computedBlock(accountResult, "The account the token belongs to (GET /account).");
  }
}

/** The provider block. */
export function providerConfigSchema(): Schema {
  return {
    version: 0,
    block: {
      attributes: {
        endpoint: {
          type: "string",
          description:
            "Base URL of the API (https://api.example.com/v2). Default: the VIGIL_ENDPOINT environment variable.",
          description_kind: "plain",
          optional: true,
        },
        token: {
          type: "string",
          description: "API token. Default: the VIGIL_TOKEN environment variable.",
          description_kind: "plain",
          optional: true,
          sensitive: true,
        },
      },
      description:
        "The vigil provider: monitors, contacts, subscriptions, maintenance windows, status pages and webhooks.",
      description_kind: "plain",
    },
  };
}

/** The whole schema, as `terraform providers schema -json` prints it for this provider. */
export function providerSchema(): ProviderSchemas {
  return {
    format_version: "1.0",
    provider_schemas: {
      [providerAddress]: {
        provider: providerConfigSchema(),
        resource_schemas: sorted(
          Object.fromEntries(Object.keys(resourceTypes).map((t) => [t, resourceSchema(t)])),
        ),
        data_source_schemas: Object.fromEntries(dataSourceTypes.map((t) => [t, dataSourceSchema(t)])),
      },
    },
  };
}
