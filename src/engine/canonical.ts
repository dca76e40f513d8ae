/**
 * Canonical forms for comparison: a value is walked beside its zod schema, and
 * every array the kind declares a set is sorted, so order the API does not
 * keep never shows as a change.
 */
import type { z } from "zod";
import { type FieldTraits, shapeOf, traitsOf } from "../kinds/index.ts";
import { isObject } from "./pointer.ts";
import { canonicalJson } from "./state/index.ts";

/** The option of a union whose members best cover the value's members. */
function unionOption(options: readonly z.ZodType[], value: unknown): z.ZodType | undefined {
  if (!isObject(value)) return undefined;
  const keys = Object.keys(value);
  let best: z.ZodType | undefined;
  let bestScore = -1;
  for (const option of options) {
    const shape = shapeOf(option);
    if (shape.type !== "object") continue;
    const declares = (k: string) => Object.hasOwn(shape.members, k);
    const score = keys.filter(declares).length - keys.filter((k) => !declares(k)).length;
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
    let shape = shapeOf(current);
    if (shape.type === "union") {
      const option = unionOption(shape.options, currentValue);
      if (!option) return undefined;
      shape = shapeOf(option);
    }
    if (shape.type === "object")
      current = Object.hasOwn(shape.members, token) ? shape.members[token] : undefined;
    else if (shape.type === "array") current = shape.element;
    else if (shape.type === "record") current = shape.value;
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
    const element = schema && shapeOf(schema).type === "array" ? schemaAt(schema, ["0"]) : undefined;
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
    // Built from entries, so a member named `__proto__` stays a member instead of setting the prototype.
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonicalize(value[key], schema ? schemaAt(schema, [key], value) : undefined)]),
    );
  }
  return value;
}

export function sameValue(a: unknown, b: unknown): boolean {
  // An absent member (a removed one, say) has no JSON form: it equals only another absent one.
  if (a === undefined || b === undefined) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}
