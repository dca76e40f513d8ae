/**
 * cty types: what a Terraform value's wire encoding is driven by. Parsed from the JSON type expressions of a
 * schema (`"string"`, `["list", "string"]`, `["object", {...}]`) and derived from schema blocks the way
 * Terraform's configschema computes a block's implied type.
 */
import type { AttributeJson, BlockJson, BlockTypeJson, NestingMode } from "../schema-json.ts";

export type PrimitiveType = "string" | "number" | "bool";

export type CtyType =
  | PrimitiveType
  /** DynamicPseudoType: the value carries its own type on the wire. */
  | "dynamic"
  | { readonly kind: "list" | "set" | "map"; readonly element: CtyType }
  | { readonly kind: "object"; readonly attributes: Readonly<Record<string, CtyType>> }
  | { readonly kind: "tuple"; readonly elements: readonly CtyType[] };

export type ObjectType = Extract<CtyType, { kind: "object" }>;
export type CollectionType = Extract<CtyType, { kind: "list" | "set" | "map" }>;

export class CtyError extends Error {
  override name = "CtyError";
}

/** A decoder's path (`.settings.timeout`, `.tags[0]`) as error messages show it. */
export function pathLabel(path: string): string {
  return path ? path.replace(/^\./, "") : "(root)";
}

export const list = (element: CtyType): CtyType => ({ kind: "list", element });
export const set = (element: CtyType): CtyType => ({ kind: "set", element });
export const map = (element: CtyType): CtyType => ({ kind: "map", element });
export const tuple = (elements: CtyType[]): CtyType => ({ kind: "tuple", elements });
export const object = (attributes: Record<string, CtyType>): ObjectType => ({
  kind: "object",
  attributes: Object.fromEntries(Object.entries(attributes)),
});

export function isCollection(type: CtyType): type is CollectionType {
  return typeof type === "object" && (type.kind === "list" || type.kind === "set" || type.kind === "map");
}

/** The attribute type of `name`, own properties only (an attribute named `constructor` is not inherited). */
export function attributeType(type: ObjectType, name: string): CtyType | undefined {
  return Object.hasOwn(type.attributes, name) ? type.attributes[name] : undefined;
}

/**
 * Parses a type expression as cty's JSON type encoding writes it. The optional third element of an object type
 * (its optional attributes) only matters when decoding configuration; on the wire the type is the same.
 */
export function parseType(json: unknown, where = "type"): CtyType {
  if (json === "string" || json === "number" || json === "bool" || json === "dynamic") return json;
  if (Array.isArray(json) && typeof json[0] === "string") {
    const [kind, arg] = json;
    switch (kind) {
      case "list":
      case "set":
      case "map":
        if (json.length === 2) return { kind, element: parseType(arg, `${where}[1]`) };
        break;
      case "object":
        if ((json.length === 2 || json.length === 3) && isRecord(arg)) {
          return object(
            Object.fromEntries(
              Object.entries(arg).map(([name, t]) => [name, parseType(t, `${where}.${name}`)]),
            ),
          );
        }
        break;
      case "tuple":
        if (json.length === 2 && Array.isArray(arg)) {
          return tuple(arg.map((t, i) => parseType(t, `${where}[${i}]`)));
        }
        break;
    }
  }
  throw new CtyError(`${where}: not a cty type expression: ${JSON.stringify(json)}`);
}

/**
 * The JSON type expression of a type, as cty writes it (and as a dynamic value's type travels): attribute names
 * sorted, as Go's encoding/json writes a map, so equal types give equal JSON.
 */
export function typeToJson(type: CtyType): unknown {
  if (typeof type === "string") return type;
  switch (type.kind) {
    case "object":
      return [
        "object",
        Object.fromEntries(
          Object.keys(type.attributes)
            .sort()
            .map((name) => [name, typeToJson(type.attributes[name]!)]),
        ),
      ];
    case "tuple":
      return ["tuple", type.elements.map(typeToJson)];
    default:
      return [type.kind, typeToJson(type.element)];
  }
}

/** Whether a type contains "dynamic" anywhere: such block collections have no static type in Terraform. */
export function hasDynamic(type: CtyType): boolean {
  if (type === "dynamic") return true;
  if (typeof type === "string") return false;
  switch (type.kind) {
    case "object":
      return Object.values(type.attributes).some(hasDynamic);
    case "tuple":
      return type.elements.some(hasDynamic);
    default:
      return hasDynamic(type.element);
  }
}

export function typeEquals(a: CtyType, b: CtyType): boolean {
  return JSON.stringify(typeToJson(a)) === JSON.stringify(typeToJson(b));
}

/** A readable type name for error messages: `list of object`, `map of string`. */
export function friendlyName(type: CtyType): string {
  if (typeof type === "string") return type;
  switch (type.kind) {
    case "object":
    case "tuple":
      return type.kind;
    default:
      return `${type.kind} of ${friendlyName(type.element)}`;
  }
}

/** The object type of a block's values: one attribute per attribute and one per nested block type. */
export function blockType(block: BlockJson): ObjectType {
  const attributes: [string, CtyType][] = [];
  for (const [name, attribute] of Object.entries(block.attributes ?? {})) {
    attributes.push([name, schemaAttributeType(attribute, name)]);
  }
  for (const [name, nested] of Object.entries(block.block_types ?? {})) {
    attributes.push([name, nestedBlockType(nested)]);
  }
  return object(Object.fromEntries(attributes));
}

/** An attribute's type: its `type` expression, or the type its `nested_type` implies. */
export function schemaAttributeType(attribute: AttributeJson, name = "attribute"): CtyType {
  if (attribute.nested_type) {
    const { attributes, nesting_mode } = attribute.nested_type;
    const inner = object(
      Object.fromEntries(Object.entries(attributes).map(([n, a]) => [n, schemaAttributeType(a, n)])),
    );
    return nest(nesting_mode, inner);
  }
  if (attribute.type === undefined) throw new CtyError(`${name}: an attribute needs type or nested_type`);
  return parseType(attribute.type, name);
}

function nestedBlockType(nested: BlockTypeJson): CtyType {
  const inner = blockType(nested.block);
  // hcldec gives list and map blocks with a dynamic inside a tuple/object spec, whose type is only known per value.
  if ((nested.nesting_mode === "list" || nested.nesting_mode === "map") && hasDynamic(inner))
    return "dynamic";
  return nest(nested.nesting_mode, inner);
}

function nest(mode: NestingMode | "group", inner: ObjectType): CtyType {
  switch (mode) {
    case "single":
    case "group":
      return inner;
    case "list":
    case "set":
    case "map":
      return { kind: mode, element: inner };
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
