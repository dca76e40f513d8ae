/**
 * Canonical forms for comparison: a value is walked beside its zod schema, and
 * every array the kind declares a set is sorted, so order the API does not
 * keep never shows as a change.
 */
import { z } from "zod";
import { type FieldTraits, traitsOf, unwrapOptional } from "../kinds/index.ts";
import { isObject } from "./pointer.ts";
import { canonicalJson } from "./state/index.ts";

/** Peels wrappers (optional, nullable, default, registered clones) down to the structural schema. */
function structural(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 10; i++) {
    const inner = unwrapOptional(current);
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable)
      current = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodDefault) current = inner.def.innerType as z.ZodType;
    else return inner;
  }
  return current;
}

/** The option of a union whose members best cover the value's members. */
function unionOption(schema: z.ZodUnion, value: unknown): z.ZodType | undefined {
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  let best: z.ZodType | undefined;
  let bestScore = -1;
  for (const option of schema.options as z.ZodType[]) {
    const inner = structural(option);
    if (!(inner instanceof z.ZodObject)) continue;
    const shape = inner.shape as Record<string, unknown>;
    const score = keys.filter((k) => k in shape).length - keys.filter((k) => !(k in shape)).length;
    if (score > bestScore) {
      best = option;
      bestScore = score;
    }
  }
  return best;
}

/** The schema of the member at `tokens` under `schema`, or undefined where the schema says nothing. */
export function schemaAt(
  schema: z.ZodType,
  tokens: readonly string[],
  value?: unknown,
): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  let currentValue = value;
  for (const token of tokens) {
    if (!current) return undefined;
    let inner = structural(current);
    if (inner instanceof z.ZodUnion) {
      const option = unionOption(inner, currentValue);
      if (!option) return undefined;
      inner = structural(option);
    }
    if (inner instanceof z.ZodObject) current = (inner.shape as Record<string, z.ZodType>)[token];
    else if (inner instanceof z.ZodArray) current = inner.element as z.ZodType;
    else if (inner instanceof z.ZodRecord) current = inner.valueType as z.ZodType;
    else return undefined;
    currentValue =
      isObject(currentValue) || Array.isArray(currentValue) ? (currentValue as never)[token] : undefined;
  }
  return current;
}

export function traitsAt(schema: z.ZodType, tokens: readonly string[], value?: unknown): FieldTraits {
  const at = schemaAt(schema, tokens, value);
  return at ? traitsOf(at) : {};
}

/** `value` with every set sorted (by canonical JSON) and object members in key order. */
export function canonicalize(value: unknown, schema: z.ZodType | undefined): unknown {
  if (Array.isArray(value)) {
    const element = schema && structural(schema) instanceof z.ZodArray ? schemaAt(schema, ["0"]) : undefined;
    const items = value.map((item) => canonicalize(item, element));
    if (schema && traitsOf(schema).collection === "set") {
      return items
        .map((item) => [canonicalJson(item), item] as const)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, item]) => item);
    }
    return items;
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      out[key] = canonicalize(value[key], schema ? schemaAt(schema, [key], value) : undefined);
    }
    return out;
  }
  return value;
}

export function sameValue(a: unknown, b: unknown): boolean {
  // An absent member (a removed one, say) has no JSON form: it equals only another absent one.
  if (a === undefined || b === undefined) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}
