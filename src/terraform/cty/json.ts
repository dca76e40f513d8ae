/**
 * The JSON form of a DynamicValue (docs/plugin-protocol/object-wire-format.md, go-cty's cty/json), which
 * Terraform also uses for the raw state of UpgradeResourceState. JSON cannot carry unknowns. Raw state is written
 * per the schema of the provider version that stored it, so attributes the current type lacks are dropped
 * (upgrading is exactly the moment they go away) and attributes it lacks are null.
 */
import { CtyError, type CtyType, friendlyName, parseType, pathLabel } from "./types.ts";
import { type CtyValue, Dynamic, objectValue, parseNumber } from "./values.ts";

/** A JSON number kept as its source text, so big and precise numbers are not rounded by JSON.parse. */
class JsonNumber {
  readonly source: string;
  constructor(source: string) {
    this.source = source;
  }
}

// Node 22 passes the source text of a primitive to a JSON.parse reviver; TypeScript's lib does not type it yet.
type Reviver = (key: string, value: unknown, context?: { source?: string }) => unknown;
const keepNumberText: Reviver = (_key, value, context) =>
  typeof value === "number" ? new JsonNumber(context?.source ?? String(value)) : value;

export function decodeJson(bytes: Uint8Array | string, type: CtyType): CtyValue {
  const text = typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes);
  let raw: unknown;
  try {
    raw = JSON.parse(text, keepNumberText as (key: string, value: unknown) => unknown);
  } catch (err) {
    throw new CtyError(`invalid JSON: ${(err as Error).message}`);
  }
  return fromJson(raw, type, "");
}

function fromJson(raw: unknown, type: CtyType, path: string): CtyValue {
  if (raw === null) return null;
  if (type === "dynamic") {
    const { type: typeJson, value } = recordOf(raw, type, path);
    if (typeJson === undefined || value === undefined) {
      throw new CtyError(`${pathLabel(path)}: a dynamic value needs "type" and "value"`);
    }
    const actual = parseType(typeJson, pathLabel(path));
    return new Dynamic(actual, fromJson(value, actual, path));
  }
  if (typeof type === "string") return primitive(raw, type, path);
  switch (type.kind) {
    case "list":
    case "set":
      return arrayOf(raw, type, path).map((el, i) => fromJson(el, type.element, `${path}[${i}]`));
    case "tuple": {
      const elements = arrayOf(raw, type, path);
      if (elements.length !== type.elements.length) {
        throw new CtyError(`${pathLabel(path)}: a tuple of ${type.elements.length} elements is required`);
      }
      return elements.map((el, i) => fromJson(el, type.elements[i]!, `${path}[${i}]`));
    }
    case "map":
      return objectValue(
        Object.entries(recordOf(raw, type, path)).map(([k, v]) => [
          k,
          fromJson(v, type.element, `${path}[${JSON.stringify(k)}]`),
        ]),
      );
    case "object": {
      const entries = recordOf(raw, type, path);
      return objectValue(
        Object.entries(type.attributes).map(([name, t]) => [
          name,
          Object.hasOwn(entries, name) ? fromJson(entries[name], t, `${path}.${name}`) : null,
        ]),
      );
    }
  }
}

/** The conversions cty/json accepts: numbers and bools as strings, and strings for numbers and bools. */
function primitive(raw: unknown, type: "string" | "number" | "bool", path: string): CtyValue {
  switch (type) {
    case "string":
      if (typeof raw === "string") return raw;
      if (raw instanceof JsonNumber) return raw.source;
      if (typeof raw === "boolean") return String(raw);
      break;
    case "number":
      if (raw instanceof JsonNumber) return parseNumber(raw.source, pathLabel(path));
      if (typeof raw === "string") return parseNumber(raw, pathLabel(path));
      break;
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      break;
  }
  throw new CtyError(`${pathLabel(path)}: ${type} is required`);
}

function arrayOf(raw: unknown, type: CtyType, path: string): readonly unknown[] {
  if (!Array.isArray(raw)) throw new CtyError(`${pathLabel(path)}: ${friendlyName(type)} is required`);
  return raw;
}

function recordOf(raw: unknown, type: CtyType, path: string): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || raw instanceof JsonNumber) {
    throw new CtyError(
      `${pathLabel(path)}: ${type === "dynamic" ? "dynamic value" : friendlyName(type)} is required`,
    );
  }
  return raw as Record<string, unknown>;
}
