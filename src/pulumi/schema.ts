/**
 * The Pulumi package schema (https://www.pulumi.com/docs/iac/extending-pulumi/schema/), rendered from the
 * kinds' attribute trees (`src/kinds/attributes.ts`), as the Terraform schema is: each resource's attributes
 * give its properties, required inputs, secrets and replacements; property names are the API's member names,
 * descriptions the kinds' own (a referenced kind named by its class). Nested objects become named types
 * (`vigil:index:MonitorSettings`). `schemas/pulumi-schema.json` holds it (`npm run generate`); the SDK
 * (src/pulumi/sdk) is generated from it.
 */

import { engineKind, engineKinds } from "../engine/kinds/index.ts";
import type { KindName } from "../engine/model.ts";
import { catalogueResults } from "../kinds/data-sources.ts";
import {
  type AttributeNode,
  type AttributeType,
  computedTree,
  connectionSettings,
  connectionText,
  type Description,
  descriptionText,
  kindSentence,
  resourceTree,
} from "../kinds/index.ts";
import { readShippedSync } from "../shipped.ts";
import {
  type FunctionSpec,
  type ObjectTypeSpec,
  type PackageSpec,
  type PropertySpec,
  type ResourceSpec,
  type TypeDefinition,
  type TypeSpec,
  typeRef,
} from "./package-spec.ts";
import { functionTokens, packageName, resourceToken } from "./tokens.ts";

export * from "./package-spec.ts";

const packageJson = JSON.parse(readShippedSync("package.json")) as {
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

// ---------------------------------------------------------------------------
// Attributes to properties and types

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
  /** Only ever read (a computed-only member, a function's result): always present members are required. */
  outputOnly: boolean;
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

/** A description in the kinds' words, a referenced kind named by its SDK class. */
const text = (description: Description) =>
  descriptionText(description, (kind) => className(kind as KindName));

/** A value's type; a string of a few values is a named enum type (`vigil:index:MonitorType`). */
function typeOf(type: AttributeType, holder: Description, place: Place, registry: TypeRegistry): TypeSpec {
  if (type.kind === "scalar") {
    if (type.scalar === "number") return { type: type.integer ? "integer" : "number" };
    if (type.scalar === "bool") return { type: "boolean" };
    if (!type.values) return { type: "string" };
    return {
      $ref: registry.add(place.typeName, { type: "string", enum: type.values.map((value) => ({ value })) }),
    };
  }
  if (type.kind === "object" && type.mode === "single")
    return { $ref: objectType(holder, type.attributes, place, registry) };
  const items: Place = { ...place, typeName: itemTypeName(place.typeName) };
  const item =
    type.kind === "object"
      ? { $ref: objectType(holder, type.attributes, items, registry) }
      : typeOf(type.element, holder, items, registry);
  if (type.mode === "map") return { type: "object", additionalProperties: item };
  return { type: "array", items: item };
}

/** The named object type of a nested attribute; its `$ref`. */
function objectType(
  holder: Description,
  attributes: readonly AttributeNode[],
  place: Place,
  registry: TypeRegistry,
): string {
  const { properties, required } = propertiesOf(attributes, place, registry);
  const spec: ObjectTypeSpec = { type: "object", description: text(holder), properties };
  if (required.length > 0) spec.required = required;
  return registry.add(place.typeName, spec);
}

const computedOnly = (a: AttributeNode) => a.presence === "computed";

function propertyOf(attribute: AttributeNode, place: Place, registry: TypeRegistry): PropertySpec {
  const property: PropertySpec = { ...typeOf(attribute.type, attribute.description, place, registry) };
  property.description = text(attribute.description);
  if (attribute.writeOnly) property.secret = true;
  if (attribute.replaces) property.replaceOnChanges = true;
  return property;
}

/** The properties of an object's attributes, and those always present. */
function propertiesOf(
  attributes: readonly AttributeNode[],
  parent: Place,
  registry: TypeRegistry,
): { properties: Record<string, PropertySpec>; required: string[] } {
  const properties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  for (const attribute of attributes) {
    const place: Place = {
      typeName: `${parent.typeName}${pascal(attribute.name)}`,
      outputOnly: parent.outputOnly || computedOnly(attribute),
    };
    properties[attribute.name] = propertyOf(attribute, place, registry);
    // A type that is only ever read requires what is always present; one that is also written, what a config must set.
    if (attribute.presence === "required" || (parent.outputOnly && attribute.alwaysRead))
      required.push(attribute.name);
  }
  return { properties, required };
}

// ---------------------------------------------------------------------------
// Resources

function resourceSpec(kind: KindName, registry: TypeRegistry): ResourceSpec {
  const definition = engineKind(kind).definition;
  const properties: Record<string, PropertySpec> = {};
  const inputProperties: Record<string, PropertySpec> = {};
  const required: string[] = [];
  const requiredInputs: string[] = [];
  for (const attribute of resourceTree(definition).attributes) {
    // Pulumi gives every resource its `id`.
    if (attribute.name === "id") continue;
    const place: Place = {
      typeName: `${className(kind)}${pascal(attribute.name)}`,
      outputOnly: computedOnly(attribute),
    };
    const property = propertyOf(attribute, place, registry);
    properties[attribute.name] = property;
    if (!place.outputOnly) inputProperties[attribute.name] = property;
    if (attribute.presence === "required") requiredInputs.push(attribute.name);
    // Outputs always present: what a config must set, and what the service fills and never reads back as null.
    const computed = attribute.presence === "computed" || attribute.filled;
    if (attribute.presence === "required" || (computed && attribute.alwaysRead))
      required.push(attribute.name);
  }
  const spec: ResourceSpec = {
    type: "object",
    description: kindSentence(definition),
    properties,
    inputProperties,
  };
  if (required.length > 0) spec.required = required;
  if (requiredInputs.length > 0) spec.requiredInputs = requiredInputs;
  return spec;
}

// ---------------------------------------------------------------------------
// Functions: the catalogue and account reads

/** Each function's read, by the engine's catalogue name. */
export const functionSources: Readonly<Record<keyof typeof functionTokens, keyof typeof catalogueResults>> = {
  getMonitorTypes: "monitorTypes",
  getAgentPools: "agentPools",
  getAccount: "account",
};

function functionSpec(name: keyof typeof functionSources, registry: TypeRegistry): FunctionSpec {
  const { result, description } = catalogueResults[functionSources[name]];
  const { properties, required } = propertiesOf(
    computedTree(result),
    { typeName: pascal(name), outputOnly: true },
    registry,
  );
  const outputs: ObjectTypeSpec = { type: "object", properties };
  if (required.length > 0) outputs.required = required;
  return { description, outputs };
}

// ---------------------------------------------------------------------------
// The package

function configVariables(): Record<string, PropertySpec> {
  const out: Record<string, PropertySpec> = {};
  for (const setting of connectionSettings) {
    const property: PropertySpec = { type: "string", description: connectionText(setting) };
    if (setting.writeOnly) property.secret = true;
    property.defaultInfo = { environment: [setting.environment] };
    out[setting.name] = property;
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
      description:
        "The vigil provider: monitors, contacts, subscriptions, maintenance windows, status pages and webhooks.",
      properties: variables,
      inputProperties: variables,
    },
    resources,
    functions,
    types: Object.fromEntries([...registry.types].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}
