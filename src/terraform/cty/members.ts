/**
 * Between a resource's cty object (snake_case attributes, every attribute present, null = unset) and the engine's
 * members (camelCase API members, unset = absent). Only object attribute names are renamed: map keys are data
 * (tag names, header names) and pass through, as do the keys inside a "dynamic" value, which has no schema names.
 */
import { camelCase, snakeCase } from "../names.ts";
import { attributeType, CtyError, type CtyType, type ObjectType, pathLabel } from "./types.ts";
import {
  type AttributePathStep,
  type CtyObject,
  type CtyValue,
  Dynamic,
  formatPath,
  impliedType,
  isObjectValue,
  objectValue,
  parseNumber,
  Unknown,
} from "./values.ts";

export type Members = Record<string, unknown>;

export interface MembersResult {
  readonly members: Members;
  /** Where the value holds unknowns (a config value decided only at apply); those members are left out. */
  readonly unknown: readonly (readonly AttributePathStep[])[];
}

/** The engine members of a cty object value: nulls dropped, names camelCased, unknowns reported and left out. */
export function toMembers(value: CtyValue, type: ObjectType): MembersResult {
  const unknown: AttributePathStep[][] = [];
  if (value instanceof Unknown) return { members: {}, unknown: [[]] };
  const members = value === null ? {} : (toMember(value, type, [], unknown) as Members);
  return { members, unknown };
}

function toMember(
  value: CtyValue,
  type: CtyType,
  path: AttributePathStep[],
  unknown: AttributePathStep[][],
): unknown {
  if (value instanceof Unknown) {
    unknown.push(path);
    return undefined;
  }
  if (value === null) return null;
  if (value instanceof Dynamic) return toMember(value.value, value.type, path, unknown);
  if (typeof value === "bigint") return Number(value);
  if (typeof type === "string") return value;
  switch (type.kind) {
    case "object": {
      const members: [string, unknown][] = [];
      for (const [name, v] of Object.entries(value as CtyObject)) {
        const t = attributeType(type, name);
        if (!t) throw new CtyError(`${formatPath(path)}: unsupported attribute "${name}"`);
        const member = toMember(v, t, [...path, { attribute_name: name }], unknown);
        if (member !== null && member !== undefined) members.push([camelCase(name), member]);
      }
      return Object.fromEntries(members);
    }
    case "map":
      return Object.fromEntries(
        Object.entries(value as CtyObject).flatMap(([k, v]) => {
          const member = toMember(v, type.element, [...path, { element_key_string: k }], unknown);
          return member === undefined ? [] : [[k, member]];
        }),
      );
    case "set": {
      // A set element has no path of its own in Terraform: an unknown inside one is reported at the set.
      const inner: AttributePathStep[][] = [];
      const elements = (value as readonly CtyValue[]).flatMap((v) => {
        const member = toMember(v, type.element, path, inner);
        return member === undefined ? [] : [member];
      });
      if (inner.length > 0) unknown.push(path);
      return elements;
    }
    case "list":
    case "tuple":
      return (value as readonly CtyValue[]).flatMap((v, i) => {
        const t = type.kind === "tuple" ? type.elements[i] : type.element;
        if (!t) throw new CtyError(`${formatPath(path)}: too many tuple elements`);
        const member = toMember(v, t, [...path, { element_key_int: i }], unknown);
        return member === undefined ? [] : [member];
      });
  }
}

/**
 * The cty object of engine members: every attribute of the type present (null when the member is absent),
 * member names snake_cased at every level. Members the type has no attribute for are not part of the resource's
 * Terraform schema and are left out. `Unknown` values pass through, for planned values.
 */
export function fromMembers(members: Members, type: ObjectType): CtyObject {
  return fromMember(members, type, "") as CtyObject;
}

/** One member's value as a cty value of `type` (a part of a resource: `settings`, one header). */
export function memberToCty(value: unknown, type: CtyType): CtyValue {
  return fromMember(value, type, "");
}

/** One cty value as a member (names camelCased, nulls dropped); unknowns inside it are left out. */
export function ctyToMember(value: CtyValue, type: CtyType): unknown {
  return toMember(value, type, [], []);
}

function fromMember(value: unknown, type: CtyType, path: string): CtyValue {
  if (value === undefined || value === null) return null;
  if (value instanceof Unknown || value instanceof Dynamic) return value;
  if (type === "dynamic") {
    const plain = plainValue(value, path);
    return new Dynamic(impliedType(plain), plain);
  }
  if (typeof type === "string") return primitive(value, type, path);
  switch (type.kind) {
    case "object": {
      const attributes = new Map<string, unknown>();
      for (const [member, v] of Object.entries(record(value, path))) attributes.set(snakeCase(member), v);
      return objectValue(
        Object.entries(type.attributes).map(([name, t]) => [
          name,
          fromMember(attributes.get(name), t, `${path}.${name}`),
        ]),
      );
    }
    case "map":
      return objectValue(
        Object.entries(record(value, path)).map(([k, v]) => [
          k,
          fromMember(v, type.element, `${path}[${JSON.stringify(k)}]`),
        ]),
      );
    case "list":
    case "set":
      return array(value, path).map((v, i) => fromMember(v, type.element, `${path}[${i}]`));
    case "tuple": {
      const elements = array(value, path);
      if (elements.length !== type.elements.length) {
        throw new CtyError(`${pathLabel(path)}: a tuple of ${type.elements.length} elements is required`);
      }
      return elements.map((v, i) => fromMember(v, type.elements[i]!, `${path}[${i}]`));
    }
  }
}

/** A member where the schema says string, number or bool, with the conversions cty itself would make. */
function primitive(value: unknown, type: "string" | "number" | "bool", path: string): CtyValue {
  if (
    type === "string" &&
    (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
  ) {
    return String(value);
  }
  if (type === "number") {
    if ((typeof value === "number" && !Number.isNaN(value)) || typeof value === "bigint") return value;
    if (typeof value === "string") return parseNumber(value, pathLabel(path));
  }
  if (type === "bool" && typeof value === "boolean") return value;
  throw new CtyError(`${pathLabel(path)}: ${type} is required, not ${JSON.stringify(value)}`);
}

/** A member of a "dynamic" attribute: plain JSON data as it is. */
function plainValue(value: unknown, path: string): CtyValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || typeof value === "boolean" || typeof value === "bigint") return value;
  if (typeof value === "number" && !Number.isNaN(value)) return value;
  if (Array.isArray(value)) return value.map((v, i) => plainValue(v, `${path}[${i}]`));
  if (isObjectValue(value as CtyValue)) {
    return objectValue(Object.entries(value as object).map(([k, v]) => [k, plainValue(v, `${path}.${k}`)]));
  }
  throw new CtyError(`${pathLabel(path)}: not a plain value`);
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CtyError(`${pathLabel(path)}: an object is required`);
  }
  return value as Record<string, unknown>;
}

function array(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new CtyError(`${pathLabel(path)}: a list is required`);
  return value;
}
