import type { EngineKind, Row } from "../kinds/index.ts";
import { setAt } from "../pointer.ts";
import { digestOf } from "../state/index.ts";

/**
 * What a saved plan records of a live object, so applying it later can tell whether it changed.
 * `updated` has one-second resolution: an edit in the second the plan read the object leaves it
 * unmoved, so the digest of the comparable members is recorded beside it.
 */
export function observedOf(kind: EngineKind, row: Row): { updated?: number; digest?: string } {
  let comparable = kind.normalizeLive(row);
  // The owner reads credentials in full: they stay out of a digest that goes into a plan file
  // (masked on a copy, since normalised rows share nested values with the live row).
  const credentials = kind.credentials(comparable);
  if (credentials.length > 0) {
    comparable = structuredClone(comparable);
    for (const p of credentials) setAt(comparable, p, "(sensitive)");
  }
  return typeof row.updated === "number"
    ? { updated: row.updated, digest: digestOf(comparable) }
    : { digest: digestOf(comparable) };
}
