import { z } from "zod";
import { fieldTraits } from "../../../kinds/index.ts";

/**
 * JSON Schema (draft 2020-12) of a kind's schema, as clients send it. Field
 * traits become `default`, `readOnly`, `writeOnly` and `description`; traits
 * JSON Schema has no word for travel as `x-` keywords, which validators ignore.
 */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      const traits = fieldTraits.get(zodSchema);
      if (!traits) return;
      const out = jsonSchema as Record<string, unknown>;
      if (traits.description) out.description = traits.description;
      if (traits.default !== undefined) out.default = structuredClone(traits.default);
      if (traits.readOnly) out.readOnly = true;
      // A credential and an input-only member are both sent but never read back as sent.
      if (traits.writeOnly || traits.inputOnly) out.writeOnly = true;
      if (traits.writeOnly) out["x-credential"] = true;
      if (traits.createOnly) out["x-createOnly"] = true;
      if (traits.updateOnly) out["x-updateOnly"] = true;
      if (traits.immutable) out["x-immutable"] = true;
      if (traits.collection) out["x-collection"] = traits.collection;
      if (traits.defaultFrom) out["x-defaultFrom"] = traits.defaultFrom;
      if (traits.storedCap !== undefined) out["x-storedCap"] = traits.storedCap;
    },
  }) as Record<string, unknown>;
}

/** The same schema without its `$schema` marker, for embedding inside another document. */
export function embeddedSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = jsonSchemaOf(schema);
  return rest;
}
