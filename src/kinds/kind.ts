import type { z } from "zod";
import type { KindRules } from "./account-rules.ts";

/**
 * A resource kind: its members (with traits), its natural key, where it lives
 * in the API and how its list behaves. The engine, the sandbox, the schemas
 * and the providers all start from these definitions.
 */
export interface KindDefinition<S extends z.ZodObject = z.ZodObject> {
  /** Singular identifier, e.g. `monitor`, `alertSubscription`. */
  name: string;
  title: string;
  schema: S;
  /** Member paths that identify an object within an account, besides its id. */
  naturalKey: readonly string[];
  paths: { collection: string; item: string };
  /**
   * Members a create must carry. A monitor's `url` is not listed: whether a
   * type needs one is in the type catalogue (`monitorTypes[type].url`).
   */
  required?: readonly string[];
  /** Rules beyond the schema: offline, against the account, quotas and duplicates (`account-rules.ts`). */
  rules?: KindRules;
  list?: {
    sort: readonly string[];
    defaultSort: string;
    filters: readonly string[];
    /** What `updatedSince` catches, in the spec's words; absent when the list has no delta sync. */
    deltaSync?: string;
  };
}

export function defineKind<S extends z.ZodObject>(definition: KindDefinition<S>): KindDefinition<S> {
  return definition;
}
