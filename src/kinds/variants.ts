import type { z } from "zod";
import type { KindDefinition } from "./kind.ts";

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
