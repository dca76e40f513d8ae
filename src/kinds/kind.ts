import type { z } from "zod";
import type { KindRules, Members, Refusal } from "./account-rules.ts";
import type { ProblemCodeName } from "./problems.ts";

/**
 * A resource kind: its members (with traits), its natural key, where it lives
 * in the API and how its list behaves. The engine, the sandbox, the schemas
 * and the providers all start from these definitions.
 */
export interface KindDefinition<S extends z.ZodObject = z.ZodObject, N extends string = string> {
  /** Singular identifier, e.g. `monitor`, `alertSubscription`: a literal, so `KindName` is a union of them. */
  name: N;
  title: string;
  schema: S;
  /** Member paths that identify an object within an account, besides its id. */
  naturalKey: readonly string[];
  paths: { collection: string; item: string };
  /**
   * Members a create must carry. A monitor's `url` is not listed: whether a
   * type needs one is its variant's (`variants.requires`).
   */
  required?: readonly string[];
  /**
   * The members as the API reads them back, where that form differs from the written one (a webhook's scope
   * carries `monitorCount`; its secret and header values read back masked). Absent, `schema` (typed per
   * variant, `variants.ts`) is the read-back form too: every member a read answers is declared either way.
   */
  readBack?: z.ZodObject;
  /** Rules beyond the schema: offline, against the account, quotas and duplicates (`account-rules.ts`). */
  rules?: KindRules;
  /** Members whose schema depends on another member's value (a monitor's `settings` by its `type`). */
  variants?: KindVariants;
  /** Where objects of this kind belong, and which deletes take them along. */
  relations?: KindRelations;
  /**
   * Members written by a call of their own once the object exists (a status page's `components`, by
   * `PUT /statuspage/{id}/component`), with that call's body, whose shape holds each of them.
   */
  side?: { members: readonly string[]; body: z.ZodObject };
  list?: {
    sort: readonly string[];
    defaultSort: string;
    filters: readonly string[];
    /** What `updatedSince` catches, in the spec's words; absent when the list has no delta sync. */
    deltaSync?: string;
  };
}

/**
 * One member typed by another: `member` follows the schema that `discriminator`'s value names. Every reader
 * of a kind (validation, diff, the sandbox, JSON Schema, Terraform, Pulumi, docs) asks `variantSchemaOf`
 * (`variants.ts`) instead of knowing which kinds have variants.
 */
export interface KindVariants {
  /** The member whose value picks the variant: `type`. */
  discriminator: string;
  /** The member whose schema depends on it: `settings`. */
  member: string;
  /** Each variant's schema of `member`, by the discriminator's canonical value. */
  schemas: Readonly<Record<string, z.ZodObject>>;
  /** Other spellings the discriminator accepts, mapped to their canonical value (`pageSpeed` → `pagespeed`). */
  aliases?: Readonly<Record<string, string>>;
  /** A variant's name for people: `HTTP(S)`. */
  label?: (variant: string) => string;
  /** What `member` is, said once for every variant (frontends that type it as one object show it). */
  description?: string;
  /**
   * Discriminator values the API once took and now refuses with `code` (`keyword` monitors:
   * `monitor_type_discontinued`). They are outside the vocabulary; readers say why such a value is refused.
   */
  discontinued?: { values: readonly string[]; code: ProblemCodeName };
  /** Members a create of this variant must carry besides the kind's `required` (a web monitor's `url`). */
  requires?: (variant: string) => readonly string[];
  /**
   * Cross-member rules of the variant member that its schema cannot express (`assertMode` excludes
   * `keywords`, `preset` is sent alone), on the member as it will be stored (`merged`: the stored members
   * with the request's) and as `sent`. Refusals point into the object (`/settings/preset`); the engine
   * runs them on a config and the sandbox on a request, so both refuse alike.
   */
  rules?: (variant: string, merged: Members, sent: Members) => Refusal[];
}

/**
 * How a kind hangs together with the others. Kind order, cascades, the GitOps nesting and export's nesting
 * are derived from these declarations (`relations.ts`), never listed by kind name elsewhere.
 */
export interface KindRelations {
  /**
   * The kind this one lives under. Configs write it inside its parent (`monitors.<m>.alerts.<contact>`), and
   * deleting the parent deletes it: the API cascades, so apply sends no call of its own.
   */
  parent?: {
    /** The parent kind's name: `monitor`. */
    kind: string;
    /** The member holding the parent's id: `monitorId`. */
    member: string;
    /** The member of the parent under which configs write these objects: `alerts`. */
    nestedAs: string;
    /**
     * A reference member that names the object within its parent in configs (`contactId`: `alerts.<contact>`);
     * absent, the object has a logical name of its own (`templates.<name>`).
     */
    keyedBy?: string;
  };
  /** Other kinds whose delete also deletes objects of this kind that reference them (a contact's subscriptions). */
  deletedWith?: readonly { kind: string; member: string }[];
  /** The member of a cascading delete receipt's `cascaded` object that lists this kind's removed ids. */
  cascadedAs?: string;
}

/** A kind's definition, its name kept as a literal (`"monitor"`, not `string`) for `KindName`. */
export function defineKind<const N extends string, S extends z.ZodObject>(
  definition: KindDefinition<S, N>,
): KindDefinition<S, N> {
  return definition;
}

/**
 * What a kind is, in one sentence, as the generated schemas and docs describe it: `An alert subscription
 * (/alert).`, with the article the title's first sound takes (every title starts with a letter spoken as
 * written).
 */
export function kindSentence(definition: Pick<KindDefinition, "title" | "paths">): string {
  const noun = definition.title.toLowerCase();
  return `${/^[aeiou]/.test(noun) ? "An" : "A"} ${noun} (${definition.paths.collection}).`;
}
