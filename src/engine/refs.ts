import { isRef } from "./model.ts";
import { isObject } from "./pointer.ts";

/** A reference whose target does not exist yet: its id is known only after apply. */
export interface Unknown {
  $unknown: string;
}

export function isUnknown(value: unknown): value is Unknown {
  return isObject(value) && typeof value.$unknown === "string";
}

/** Every address `value` references. */
export function refsIn(value: unknown, out: string[] = []): string[] {
  if (isRef(value)) out.push(value.$ref);
  else if (Array.isArray(value)) for (const item of value) refsIn(item, out);
  else if (isObject(value)) for (const item of Object.values(value)) refsIn(item, out);
  return out;
}

/** Replaces each reference by its target's id, or by an `Unknown` when the target has none yet. */
export function resolveRefs(value: unknown, idOf: (address: string) => string | undefined): unknown {
  if (isRef(value)) return idOf(value.$ref) ?? { $unknown: value.$ref };
  if (Array.isArray(value)) return value.map((item) => resolveRefs(item, idOf));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, idOf)]));
  }
  return value;
}

export function hasUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(hasUnknown);
  if (isObject(value)) return Object.values(value).some(hasUnknown);
  return false;
}
