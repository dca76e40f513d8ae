import type { z } from "zod";
import type { Members, Refusal } from "./account-rules.ts";
import type { KindDefinition } from "./kind.ts";
import type { ProblemCodeName } from "./problems.ts";

/** The discriminator's canonical value in these members (an alias resolved), or undefined when it names none. */
export function variantOf(definition: KindDefinition, members: Record<string, unknown>): string | undefined {
  const variants = definition.variants;
  const value = variants ? members[variants.discriminator] : undefined;
  if (typeof value !== "string") return undefined;
  const canonical =
    (variants?.aliases && Object.hasOwn(variants.aliases, value) && variants.aliases[value]) || value;
  return variants && Object.hasOwn(variants.schemas, canonical) ? canonical : undefined;
}

const typedSchemas = new WeakMap<KindDefinition, Map<string, z.ZodObject>>();

/**
 * The kind's schema with its variant member typed for these members (a monitor's `settings` for its `type`),
 * so the variant's members carry their traits; the kind's own schema when there is no variant to apply.
 */
export function variantSchemaOf(definition: KindDefinition, members: Record<string, unknown>): z.ZodObject {
  const variant = variantOf(definition, members);
  if (!definition.variants || variant === undefined) return definition.schema;
  let byVariant = typedSchemas.get(definition);
  if (!byVariant) {
    byVariant = new Map();
    typedSchemas.set(definition, byVariant);
  }
  let schema = byVariant.get(variant);
  if (!schema) {
    const { member, schemas } = definition.variants;
    schema = definition.schema.extend({ [member]: schemas[variant]!.optional() });
    byVariant.set(variant, schema);
  }
  return schema;
}

/** The code the API refuses a discontinued discriminator value with (`keyword` monitors), or undefined. */
export function discontinuedCode(definition: KindDefinition, value: unknown): ProblemCodeName | undefined {
  const discontinued = definition.variants?.discontinued;
  return typeof value === "string" && discontinued?.values.includes(value) ? discontinued.code : undefined;
}

/** The members a create of these members' variant must carry besides the kind's own `required`. */
export function variantRequires(definition: KindDefinition, members: Members): readonly string[] {
  const variant = variantOf(definition, members);
  return variant === undefined ? [] : (definition.variants?.requires?.(variant) ?? []);
}

/**
 * The variant member's cross-member refusals: on a config (`sent` omitted, the member as written is both
 * what is sent and what is stored) or on a request merged into stored members.
 */
export function variantRuleRefusals(definition: KindDefinition, members: Members, sent?: Members): Refusal[] {
  const variants = definition.variants;
  const variant = variantOf(definition, members);
  if (!variants?.rules || variant === undefined) return [];
  const value = members[variants.member];
  const merged =
    typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Members) : {};
  return variants.rules(variant, merged, sent ?? merged);
}

/** The variant member's schema for a discriminator value (canonical or alias): `settings` of `http` monitors. */
export function variantMemberSchema(definition: KindDefinition, value: unknown): z.ZodObject | undefined {
  const variants = definition.variants;
  const variant = variants ? variantOf(definition, { [variants.discriminator]: value }) : undefined;
  return variant === undefined ? undefined : variants?.schemas[variant];
}
