/**
 * The Terraform resources' schemas, rendered from the kinds' attribute trees (`src/kinds/attributes.ts`):
 * required / optional / computed / sensitive come from the tree, names are the members' in snake_case,
 * and the rules (replacements, input-only and sensitive paths) are the tree's in attribute names.
 */

import { engineKind, engineKinds } from "../engine/kinds/index.ts";
import type { KindName } from "../engine/model.ts";
import {
  type AttributeNode,
  type AttributeType,
  descriptionText,
  kindNamed,
  kindSentence,
  resourceTree,
} from "../kinds/index.ts";
import { camelCase, snakeCase } from "./names.ts";
import type { AttributeJson, BlockJson, NestedTypeJson, NestingMode, SchemaJson } from "./schema-json.ts";

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
// From the attribute tree

/** Attributes in name order, as Terraform prints them. */
export function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function ctyOf(type: AttributeType): CtyType {
  if (type.kind === "scalar") return type.scalar;
  if (type.kind === "collection") return [type.mode, ctyOf(type.element)];
  throw new Error("an object has nested attributes, not a cty type");
}

function typeOf(type: AttributeType): Pick<Attribute, "type" | "nested_type"> {
  if (type.kind !== "object") return { type: ctyOf(type) };
  return { nested_type: { attributes: attributesOf(type.attributes), nesting_mode: type.mode } };
}

/** A tree's attributes by attribute name. */
export function attributesOf(nodes: readonly AttributeNode[]): Record<string, Attribute> {
  return sorted(Object.fromEntries(nodes.map((node) => [attributeName(node.name), attributeOf(node)])));
}

function attributeOf(node: AttributeNode): Attribute {
  const attribute: Attribute = {
    ...typeOf(node.type),
    description: descriptionText(node.description, (kind) => resourceTypeName(kindNamed(kind))),
    description_kind: "plain",
  };
  if (node.presence === "computed") attribute.computed = true;
  else if (node.presence === "required") attribute.required = true;
  else {
    attribute.optional = true;
    if (node.filled) attribute.computed = true;
  }
  // A credential (a secret, a password, a header value) is never shown by terraform plan.
  if (node.writeOnly) attribute.sensitive = true;
  return attribute;
}

const attributePath = (path: readonly string[]): AttributePath =>
  path.map((step) => (step === "*" ? step : attributeName(step)));

function build(kind: KindName): { schema: Schema; rules: ResourceRules } {
  const definition = engineKind(kind).definition;
  const tree = resourceTree(definition);
  const attributes = attributesOf(tree.attributes);
  if (attributes.id) attributes.id.description = `${attributes.id.description} Import by this id.`;
  const rules: ResourceRules = {
    kind,
    replaceOn: tree.rules.replaceOn.map(attributePath),
    inputOnly: tree.rules.inputOnly.map(attributePath),
    sensitive: tree.rules.sensitive.map(attributePath),
    generated: tree.rules.generated.map((g) => ({ member: g.member, attribute: attributeName(g.output) })),
  };
  return {
    schema: {
      version: 0,
      block: {
        attributes,
        description: kindSentence(definition),
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
