/**
 * cty values in JavaScript. Known values are plain data: `null`, strings, booleans, numbers (a `bigint` for an
 * integer beyond 2^53, so ids and counters stay exact), arrays (lists, sets, tuples) and plain objects (objects,
 * maps). `Unknown` stands for a value decided only at apply; `Dynamic` carries the runtime type of a value whose
 * schema type is "dynamic".
 */
import { CtyError, type CtyType, object, tuple } from "./types.ts";

export type CtyValue =
  | null
  | string
  | number
  | bigint
  | boolean
  | Unknown
  | Dynamic
  | readonly CtyValue[]
  | CtyObject;

export interface CtyObject {
  readonly [name: string]: CtyValue;
}

export interface NumberBound {
  readonly value: number | bigint;
  readonly inclusive: boolean;
}

/** What Terraform knows about an unknown value before apply (msgpack extension 12). */
export interface Refinements {
  readonly notNull?: true;
  readonly stringPrefix?: string;
  readonly numberMin?: NumberBound;
  readonly numberMax?: NumberBound;
  readonly lengthMin?: number;
  readonly lengthMax?: number;
}

export class Unknown {
  readonly refinements: Refinements;
  constructor(refinements: Refinements = {}) {
    this.refinements = refinements;
  }
  get refined(): boolean {
    return Object.keys(this.refinements).length > 0;
  }
}

/** A wholly unknown value, for building plans. */
export const unknown = new Unknown();

/** A value of schema type "dynamic", with the type it has at run time. */
export class Dynamic {
  readonly type: CtyType;
  readonly value: CtyValue;
  constructor(type: CtyType, value: CtyValue) {
    this.type = type;
    this.value = value;
  }
}

/** Whether a value is wholly known: no unknown anywhere inside it. */
export function isKnown(value: CtyValue): boolean {
  if (value instanceof Unknown) return false;
  if (value instanceof Dynamic) return isKnown(value.value);
  if (Array.isArray(value)) return value.every(isKnown);
  if (isObjectValue(value)) return Object.values(value).every(isKnown);
  return true;
}

/** A plain object value (a cty object or map), as opposed to null, an array or a marker. */
export function isObjectValue(value: CtyValue | undefined): value is CtyObject {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Unknown) &&
    !(value instanceof Dynamic)
  );
}

/** An object value built safely from entries (a `__proto__` attribute stays an attribute). */
export function objectValue(entries: Iterable<readonly [string, CtyValue]>): CtyObject {
  return Object.fromEntries(entries);
}

/** One step of a tfplugin6 AttributePath, as the protobuf loader gives it (int keys may arrive as strings). */
export type AttributePathStep =
  | { readonly attribute_name: string }
  | { readonly element_key_string: string }
  | { readonly element_key_int: number | string | bigint };

/**
 * The value at a path: `undefined` when the path does not exist in the value (or crosses a null); inside an
 * unknown everything is unknown, as in cty.
 */
export function getPath(value: CtyValue, steps: readonly AttributePathStep[]): CtyValue | undefined {
  let current: CtyValue | undefined = value;
  for (const step of steps) {
    if (current instanceof Unknown) return unknown;
    if (current instanceof Dynamic) current = current.value;
    current = child(current, step);
    if (current === undefined) return undefined;
  }
  return current;
}

/** A copy of `value` with the value at `steps` replaced; throws when the path does not exist. */
export function setPath(
  value: CtyValue,
  steps: readonly AttributePathStep[],
  replacement: CtyValue,
): CtyValue {
  const [step, ...rest] = steps;
  if (!step) return replacement;
  if (value instanceof Dynamic) return new Dynamic(value.type, setPath(value.value, steps, replacement));
  const current = child(value, step);
  if (current === undefined) throw new CtyError(`no value at ${formatPath(steps)}`);
  const next = setPath(current, rest, replacement);
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(keyOf(step))] = next;
    return copy;
  }
  return objectValue([...Object.entries(value as CtyObject), [String(keyOf(step)), next]]);
}

function child(value: CtyValue, step: AttributePathStep): CtyValue | undefined {
  if ("element_key_int" in step) {
    const index = Number(step.element_key_int);
    return Array.isArray(value) && Number.isInteger(index) ? value[index] : undefined;
  }
  const name = "attribute_name" in step ? step.attribute_name : step.element_key_string;
  return isObjectValue(value) && Object.hasOwn(value, name) ? value[name] : undefined;
}

function keyOf(step: AttributePathStep): string | number | bigint {
  if ("attribute_name" in step) return step.attribute_name;
  if ("element_key_string" in step) return step.element_key_string;
  return step.element_key_int;
}

/** A path the way Terraform prints one: `settings.timeout`, `tags["env"]`, `locations[0]`. */
export function formatPath(steps: readonly AttributePathStep[]): string {
  let out = "";
  for (const step of steps) {
    if ("attribute_name" in step) out += out ? `.${step.attribute_name}` : step.attribute_name;
    else if ("element_key_string" in step) out += `[${JSON.stringify(step.element_key_string)}]`;
    else out += `[${step.element_key_int}]`;
  }
  return out || "(root)";
}

/** The type a plain value implies, for a value written to a "dynamic" attribute without a `Dynamic` wrapper. */
export function impliedType(value: CtyValue): CtyType {
  if (value instanceof Dynamic) return value.type;
  if (value === null || value instanceof Unknown) return "dynamic";
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number" || typeof value === "bigint") return "number";
  if (Array.isArray(value)) return tuple(value.map(impliedType));
  return object(Object.fromEntries(Object.entries(value as CtyObject).map(([k, v]) => [k, impliedType(v)])));
}

const decimal = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * A number from its decimal text (cty sends numbers too big or too precise for int64/float64 as strings).
 * Integers stay exact (bigint beyond 2^53); other decimals round to the nearest float64.
 */
export function parseNumber(text: string, where = "(root)"): number | bigint {
  if (!decimal.test(text)) throw new CtyError(`${where}: not a number: ${JSON.stringify(text)}`);
  if (/^[-+]?\d+$/.test(text)) return normalizeInteger(BigInt(text));
  return Number(text);
}

/** A bigint as a number when that is exact, so small integers are always plain numbers. */
export function normalizeInteger(n: bigint): number | bigint {
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}
