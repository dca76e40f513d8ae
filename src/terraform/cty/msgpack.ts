/**
 * The msgpack form of a DynamicValue, per docs/plugin-protocol/object-wire-format.md and go-cty's cty/msgpack:
 * a value is encoded per its schema type; objects and maps are msgpack maps (keys sorted, as go-cty writes them),
 * lists, sets and tuples arrays, null is nil, an unknown is an extension (code 0 wholly unknown, code 12 with a
 * map of refinements), and a "dynamic" value is a pair [type JSON as bin, value].
 */
import { decode, ExtData, encode } from "@msgpack/msgpack";
import {
  attributeType,
  CtyError,
  type CtyType,
  friendlyName,
  isCollection,
  parseType,
  pathLabel,
  typeToJson,
} from "./types.ts";
import {
  type CtyObject,
  type CtyValue,
  Dynamic,
  impliedType,
  isObjectValue,
  type NumberBound,
  normalizeInteger,
  objectValue,
  parseNumber,
  type Refinements,
  Unknown,
  unknown,
} from "./values.ts";

/** Extension code of a refined unknown; any other code is a wholly unknown value whose payload is ignored. */
const REFINED = 12;
const Refinement = {
  nullness: 1,
  stringPrefix: 2,
  numberMin: 3,
  numberMax: 4,
  lengthMin: 5,
  lengthMax: 6,
} as const;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function decodeMsgpack(bytes: Uint8Array, type: CtyType): CtyValue {
  let raw: unknown;
  try {
    raw = decode(bytes, { useBigInt64: true });
  } catch (err) {
    throw new CtyError(`invalid msgpack: ${(err as Error).message}`);
  }
  return fromWire(raw, type, "");
}

export function encodeMsgpack(value: CtyValue, type: CtyType): Uint8Array {
  return encode(toWire(value, type, ""), { useBigInt64: true, sortKeys: true });
}

function fromWire(raw: unknown, type: CtyType, path: string): CtyValue {
  if (raw instanceof ExtData) return unknownFromExt(raw, type, path);
  if (type === "dynamic") {
    if (raw === null) return null;
    if (!Array.isArray(raw) || raw.length !== 2) {
      throw new CtyError(`${pathLabel(path)}: a dynamic value must be a [type, value] pair`);
    }
    const [typeJson, inner] = raw;
    const text = typeof typeJson === "string" ? typeJson : decodeBytes(typeJson, path);
    const actual = parseType(JSON.parse(text), pathLabel(path));
    return new Dynamic(actual, fromWire(inner, actual, path));
  }
  if (raw === null) return null;
  if (typeof type === "string") return primitiveFromWire(raw, type, path);
  switch (type.kind) {
    case "list":
    case "set":
      return arrayOf(raw, type, path).map((el, i) => fromWire(el, type.element, `${path}[${i}]`));
    case "tuple": {
      const elements = arrayOf(raw, type, path);
      if (elements.length !== type.elements.length) {
        throw new CtyError(`${pathLabel(path)}: a tuple of ${type.elements.length} elements is required`);
      }
      return elements.map((el, i) => fromWire(el, type.elements[i]!, `${path}[${i}]`));
    }
    case "map":
      return objectValue(
        Object.entries(mapOf(raw, type, path)).map(([k, v]) => [
          k,
          fromWire(v, type.element, `${path}[${JSON.stringify(k)}]`),
        ]),
      );
    case "object": {
      const entries = mapOf(raw, type, path);
      for (const name of Object.keys(entries)) {
        if (!attributeType(type, name))
          throw new CtyError(`${pathLabel(path)}: unsupported attribute "${name}"`);
      }
      // Terraform sends every attribute; one left out is read as null rather than refused.
      return objectValue(
        Object.entries(type.attributes).map(([name, t]) => [
          name,
          Object.hasOwn(entries, name) ? fromWire(entries[name], t, `${path}.${name}`) : null,
        ]),
      );
    }
  }
}

function primitiveFromWire(raw: unknown, type: "string" | "number" | "bool", path: string): CtyValue {
  switch (type) {
    case "string":
      if (typeof raw === "string") return raw;
      break;
    case "bool":
      if (typeof raw === "boolean") return raw;
      break;
    case "number":
      if (typeof raw === "number" && !Number.isNaN(raw)) return raw;
      if (typeof raw === "bigint") return normalizeInteger(raw);
      if (typeof raw === "string") return parseNumber(raw, pathLabel(path));
      break;
  }
  throw new CtyError(`${pathLabel(path)}: ${type} is required`);
}

function unknownFromExt(ext: ExtData, type: CtyType, path: string): CtyValue {
  const payload = ext.data instanceof Uint8Array ? ext.data : new Uint8Array();
  if (ext.type !== REFINED || payload.length <= 1 || type === "dynamic") return unknown;
  let map: unknown;
  try {
    map = decode(payload, { useBigInt64: true });
  } catch (err) {
    throw new CtyError(`${pathLabel(path)}: invalid refinements: ${(err as Error).message}`);
  }
  if (typeof map !== "object" || map === null || Array.isArray(map)) {
    throw new CtyError(`${pathLabel(path)}: refinements must be a map`);
  }
  const entries = map as Record<string, unknown>;
  const refinements: { -readonly [K in keyof Refinements]: Refinements[K] } = {};
  // Keys this code does not know are future refinements: ignoring them only makes the value less precise.
  for (const [key, raw] of Object.entries(entries)) {
    switch (Number(key)) {
      case Refinement.nullness:
        // "definitely null" collapses to the null value itself, as cty's refinement builder does.
        if (raw === true) return null;
        refinements.notNull = true;
        break;
      case Refinement.stringPrefix:
        if (type !== "string" || typeof raw !== "string") {
          throw new CtyError(`${pathLabel(path)}: a string prefix refines only a string`);
        }
        refinements.stringPrefix = raw;
        break;
      case Refinement.numberMin:
      case Refinement.numberMax: {
        if (type !== "number") throw new CtyError(`${pathLabel(path)}: a number bound refines only a number`);
        const bound = fromWire(raw, { kind: "tuple", elements: ["number", "bool"] }, path);
        const [n, inclusive] = Array.isArray(bound) ? bound : [];
        if ((typeof n !== "number" && typeof n !== "bigint") || typeof inclusive !== "boolean") {
          throw new CtyError(`${pathLabel(path)}: a number bound must be [number, bool]`);
        }
        const value: NumberBound = { value: n, inclusive };
        if (Number(key) === Refinement.numberMin) refinements.numberMin = value;
        else refinements.numberMax = value;
        break;
      }
      case Refinement.lengthMin:
      case Refinement.lengthMax: {
        const n = typeof raw === "bigint" ? Number(raw) : raw;
        if (!isCollection(type) || typeof n !== "number" || !Number.isInteger(n)) {
          throw new CtyError(`${pathLabel(path)}: a length bound must be an integer on a collection`);
        }
        if (Number(key) === Refinement.lengthMin) refinements.lengthMin = n;
        else refinements.lengthMax = n;
        break;
      }
    }
  }
  return new Unknown(refinements);
}

function toWire(value: CtyValue | undefined, type: CtyType, path: string): unknown {
  if (type === "dynamic") {
    if (value === undefined || value === null) return null;
    if (value instanceof Unknown) return unknownToWire(value, type);
    const actual = value instanceof Dynamic ? value.type : impliedType(value);
    const inner = value instanceof Dynamic ? value.value : value;
    return [new TextEncoder().encode(JSON.stringify(typeToJson(actual))), toWire(inner, actual, path)];
  }
  if (value === undefined || value === null) return null;
  if (value instanceof Unknown) return unknownToWire(value, type);
  if (value instanceof Dynamic) {
    throw new CtyError(`${pathLabel(path)}: a dynamic value where ${friendlyName(type)} is required`);
  }
  if (typeof type === "string") {
    const ok =
      type === "number"
        ? typeof value === "number" || typeof value === "bigint"
        : typeof value === (type === "bool" ? "boolean" : "string");
    if (!ok) throw new CtyError(`${pathLabel(path)}: ${type} is required`);
    return type === "number" ? numberToWire(value as number | bigint, path) : value;
  }
  switch (type.kind) {
    case "list":
    case "set":
      return arrayOf<CtyValue>(value, type, path).map((el, i) => toWire(el, type.element, `${path}[${i}]`));
    case "tuple": {
      const elements = arrayOf<CtyValue>(value, type, path);
      if (elements.length !== type.elements.length) {
        throw new CtyError(`${pathLabel(path)}: a tuple of ${type.elements.length} elements is required`);
      }
      return elements.map((el, i) => toWire(el, type.elements[i]!, `${path}[${i}]`));
    }
    case "map":
      return Object.fromEntries(
        Object.entries(objectOf(value, type, path)).map(([k, v]) => [
          k,
          toWire(v, type.element, `${path}[${JSON.stringify(k)}]`),
        ]),
      );
    case "object": {
      const attributes = objectOf(value, type, path);
      for (const name of Object.keys(attributes)) {
        if (!attributeType(type, name))
          throw new CtyError(`${pathLabel(path)}: unsupported attribute "${name}"`);
      }
      return Object.fromEntries(
        Object.entries(type.attributes).map(([name, t]) => [
          name,
          toWire(Object.hasOwn(attributes, name) ? attributes[name] : null, t, `${path}.${name}`),
        ]),
      );
    }
  }
}

/** Like go-cty: an int64 as a msgpack int, another finite non-integer as float64, any other number as text. */
function numberToWire(n: number | bigint, path: string): number | bigint | string {
  if (typeof n === "number") {
    if (Number.isNaN(n)) throw new CtyError(`${pathLabel(path)}: NaN is not a number in cty`);
    if (!Number.isInteger(n)) return n;
    // Up to 32 bits the encoder picks the compact form itself; wider integers go through bigint for int64.
    if (n >= -(2 ** 31) && n < 2 ** 32) return n;
    n = BigInt(n);
  }
  if (n < INT64_MIN || n > INT64_MAX) return n.toString();
  return n >= -(2n ** 31n) && n < 2n ** 32n ? Number(n) : n;
}

function unknownToWire(value: Unknown, type: CtyType): ExtData {
  const entries: [number, unknown][] = [];
  const r = value.refinements;
  // Only the refinements that apply to the type, as go-cty writes them (a dynamic unknown has none).
  if (type !== "dynamic") {
    if (r.notNull) entries.push([Refinement.nullness, false]);
    if (type === "string" && r.stringPrefix) entries.push([Refinement.stringPrefix, r.stringPrefix]);
    if (type === "number") {
      for (const [key, bound] of [
        [Refinement.numberMin, r.numberMin],
        [Refinement.numberMax, r.numberMax],
      ] as const) {
        if (bound) entries.push([key, [numberToWire(bound.value, ""), bound.inclusive]]);
      }
    }
    if (isCollection(type)) {
      if (r.lengthMin) entries.push([Refinement.lengthMin, r.lengthMin]);
      if (r.lengthMax !== undefined) entries.push([Refinement.lengthMax, r.lengthMax]);
    }
  }
  // Without refinements the old one-byte form is required, for providers and Terraforms that predate them.
  if (entries.length === 0) return new ExtData(0, new Uint8Array([0]));
  // A map with integer keys, which a JS object cannot carry, so the payload is assembled from its parts.
  const parts = [Uint8Array.of(0x80 | entries.length)];
  for (const [key, v] of entries) parts.push(Uint8Array.of(key), encode(v, { useBigInt64: true }));
  return new ExtData(REFINED, Buffer.concat(parts));
}

/** An array (of wire values when decoding, of cty values when encoding), or the error naming the type. */
function arrayOf<T = unknown>(value: unknown, type: CtyType, path: string): readonly T[] {
  if (!Array.isArray(value)) throw new CtyError(`${pathLabel(path)}: ${friendlyName(type)} is required`);
  return value;
}

function mapOf(raw: unknown, type: CtyType, path: string): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || raw instanceof Uint8Array) {
    throw new CtyError(`${pathLabel(path)}: ${friendlyName(type)} is required`);
  }
  return raw as Record<string, unknown>;
}

function objectOf(value: CtyValue, type: CtyType, path: string): CtyObject {
  if (!isObjectValue(value)) throw new CtyError(`${pathLabel(path)}: ${friendlyName(type)} is required`);
  return value;
}

function decodeBytes(bytes: unknown, path: string): string {
  if (!(bytes instanceof Uint8Array))
    throw new CtyError(`${pathLabel(path)}: a dynamic value's type must be bytes`);
  return new TextDecoder().decode(bytes);
}
