/**
 * The SDK's types (tools/pulumi/generate-sdk.ts): a property type in TypeScript, the input and output
 * type modules (every object type the resources and functions reach) and the enums.
 */
import {
  isEnumType,
  type ObjectTypeSpec,
  type PackageSpec,
  type PropertySpec,
  type TypeSpec,
} from "../../src/pulumi/schema.ts";
import { doc, HEADER, LINE_WIDTH, nameOf, quote } from "./sdk-text.ts";

// ---------------------------------------------------------------------------
// Types

type Mode = "input" | "output";

const typeRefPrefix = "#/types/";

/** Whether a type token names an enum (a union of strings, in the `enums` module). */
const isEnum = (schema: PackageSpec, token: string) => {
  const found = schema.types[token];
  if (!found) throw new Error(`unresolved type ${token}`);
  return isEnumType(found);
};

/**
 * The TypeScript type of a schema type; in input mode every level takes an Input. Object types are named
 * in `namespace` (the input or output module), enums in `enums`.
 */
export function tsType(type: TypeSpec, mode: Mode, namespace: string, schema: PackageSpec): string {
  const wrap = (t: string) => (mode === "input" ? `pulumi.Input<${t}>` : t);
  if (type.$ref) {
    if (!type.$ref.startsWith(typeRefPrefix)) throw new Error(`no TypeScript type for ${type.$ref}`);
    const token = type.$ref.slice(typeRefPrefix.length);
    return wrap(`${isEnum(schema, token) ? "enums." : namespace}${nameOf(token)}`);
  }
  switch (type.type) {
    case "string":
      return wrap("string");
    case "number":
    case "integer":
      return wrap("number");
    case "boolean":
      return wrap("boolean");
    case "array":
      return wrap(`${tsType(type.items!, mode, namespace, schema)}[]`);
    case "object":
      if (!type.additionalProperties) throw new Error("an object type needs additionalProperties or a $ref");
      return wrap(`Record<string, ${tsType(type.additionalProperties, mode, namespace, schema)}>`);
    default:
      throw new Error(`no TypeScript type for ${JSON.stringify(type)}`);
  }
}

/** The types a property's type names, directly or through items and values. */
function referenced(type: TypeSpec): string[] {
  if (type.$ref?.startsWith(typeRefPrefix)) return [type.$ref.slice(typeRefPrefix.length)];
  if (type.items) return referenced(type.items);
  if (type.additionalProperties) return referenced(type.additionalProperties);
  return [];
}

/** Which kinds of named type some properties use: object types, enums. */
export function uses(
  schema: PackageSpec,
  properties: readonly PropertySpec[],
): { objects: boolean; enums: boolean } {
  const tokens = properties.flatMap(referenced);
  return {
    objects: tokens.some((t) => !isEnum(schema, t)),
    enums: tokens.some((t) => isEnum(schema, t)),
  };
}

/** Every object type reachable from some properties, in the schema's order. */
export function reachable(schema: PackageSpec, roots: readonly Record<string, PropertySpec>[]): string[] {
  const seen = new Set<string>();
  const visit = (properties: Record<string, PropertySpec>) => {
    for (const property of Object.values(properties))
      for (const token of referenced(property)) {
        if (seen.has(token) || isEnum(schema, token)) continue;
        seen.add(token);
        visit((schema.types[token] as ObjectTypeSpec).properties);
      }
  };
  for (const root of roots) visit(root);
  return Object.keys(schema.types).filter((t) => seen.has(t));
}

export function typesModule(schema: PackageSpec, tokens: readonly string[], mode: Mode): string {
  const lines = [...HEADER];
  const specs = tokens.map((token) => schema.types[token] as ObjectTypeSpec);
  const usesEnums = uses(
    schema,
    specs.flatMap((spec) => Object.values(spec.properties)),
  ).enums;
  if (mode === "input" && tokens.length > 0) lines.push('import type * as pulumi from "@pulumi/pulumi";');
  if (usesEnums) lines.push('import type * as enums from "./enums.ts";');
  if (lines.length > HEADER.length) lines.push("");
  tokens.forEach((token, i) => {
    const spec = specs[i]!;
    const required = new Set(spec.required ?? []);
    lines.push(...doc(spec.description, ""), `export interface ${nameOf(token)} {`);
    for (const [name, property] of Object.entries(spec.properties)) {
      lines.push(...doc(property.description, "  "));
      const optional = required.has(name) ? "" : "?";
      lines.push(`  ${name}${optional}: ${tsType(property, mode, "", schema)};`);
    }
    lines.push("}", "");
  });
  return `${lines.join("\n").trimEnd()}\n`;
}

/** The enums: each a union of its values, one a line when they do not fit on one. */
export function enumsModule(schema: PackageSpec): string {
  const lines = [...HEADER];
  for (const [token, spec] of Object.entries(schema.types)) {
    if (!isEnumType(spec)) continue;
    const values = spec.enum.map((e) => quote(e.value));
    const head = `export type ${nameOf(token)} =`;
    const one = `${head} ${values.join(" | ")};`;
    if (one.length <= LINE_WIDTH) lines.push(one);
    else lines.push(head, ...values.map((v, i) => `  | ${v}${i === values.length - 1 ? ";" : ""}`));
    lines.push("");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
