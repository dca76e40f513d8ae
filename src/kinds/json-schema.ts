import { z } from "zod";
import { type FieldTraits, fieldTraits } from "./field.ts";

export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema keywords for a field's traits. JSON Schema has no word for some
 * traits, so those travel as `x-` keywords, which validators ignore.
 */
export function traitKeywords(traits: FieldTraits): JsonSchema {
  const out: JsonSchema = {};
  if (traits.description) out.description = traits.description;
  if (traits.default !== undefined) out.default = structuredClone(traits.default);
  if (traits.readOnly) out.readOnly = true;
  // Credentials, input-only and create-only members are all sent but never read back as sent.
  if (traits.writeOnly || traits.inputOnly || traits.createOnly) out.writeOnly = true;
  if (traits.writeOnly) out["x-credential"] = true;
  if (traits.createOnly) out["x-createOnly"] = true;
  if (traits.updateOnly) out["x-updateOnly"] = true;
  if (traits.immutable) out["x-immutable"] = true;
  if (traits.collection) out["x-collection"] = traits.collection;
  if (traits.defaultFrom) out["x-defaultFrom"] = traits.defaultFrom;
  if (traits.storedCap !== undefined) out["x-storedCap"] = traits.storedCap;
  return out;
}

export interface JsonSchemaOptions {
  /** `input`: what clients send (default); `output`: what the API answers. */
  io?: "input" | "output";
  /** Drop `$schema`, for a schema embedded in another document. */
  embedded?: boolean;
  /** A `$ref` to use instead of inlining this schema, if it is published elsewhere. */
  refFor?: (schema: z.core.$ZodType) => string | undefined;
}

/** Draft 2020-12 JSON Schema of a kind's zod schema, with its field traits as keywords. */
export function jsonSchemaOf(schema: z.ZodType, options: JsonSchemaOptions = {}): JsonSchema {
  const result = z.toJSONSchema(schema, {
    io: options.io ?? "input",
    target: "draft-2020-12",
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      const out = jsonSchema as JsonSchema;
      const ref = options.refFor?.(zodSchema);
      if (ref !== undefined) {
        for (const key of Object.keys(out)) delete out[key];
        out.$ref = ref;
      }
      // zod bounds every integer by the safe range; that says nothing to a reader.
      if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
      if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
      const traits = fieldTraits.get(zodSchema as unknown as z.ZodType);
      if (traits) Object.assign(out, traitKeywords(traits));
      // Answers grow additively (new members may appear), so a response schema never forbids extras.
      if (options.io === "output" && out.additionalProperties === false) delete out.additionalProperties;
    },
  }) as JsonSchema;
  if (options.embedded) delete result.$schema;
  return result;
}
