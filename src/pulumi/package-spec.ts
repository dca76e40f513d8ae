/**
 * The Pulumi package schema's format (https://www.pulumi.com/docs/iac/extending-pulumi/schema/), as far as
 * vigil's package uses it, and what reads a package back (the SDK generator, the provider's tests).
 */

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

/** The `$ref` of a type of this package. */
export const typeRef = (token: string) => `#/types/${token}`;

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
