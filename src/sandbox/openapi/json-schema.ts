import { z } from "zod";
import { type FieldTraits, fieldTraits } from "../../kinds/field.ts";

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
  // A credential and an input-only member are both sent but never read back as sent.
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

/**
 * Zod schemas published once under `components.schemas`. They are found by
 * their definition, so the clones `field()` makes of a kind resolve to it too.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  readonly #names = new Map<unknown, string>();

  /** Registers every component first, then converts them, so components can refer to each other. */
  constructor(components: Record<string, z.ZodType>) {
    for (const [name, schema] of Object.entries(components)) this.#names.set(schema._zod.def, name);
    for (const [name, schema] of Object.entries(components)) {
      this.schemas[name] = this.convert(schema, "output", name);
    }
  }

  /** A draft 2020-12 schema for embedding in the document; registered components become `$ref`s. */
  convert(schema: z.ZodType, io: "input" | "output", self?: string): JsonSchema {
    const { $schema: _, ...rest } = z.toJSONSchema(schema, {
      io,
      target: "draft-2020-12",
      unrepresentable: "any",
      override: ({ zodSchema, jsonSchema }) => {
        const out = jsonSchema as JsonSchema;
        const name = this.#names.get(zodSchema._zod.def);
        if (name !== undefined && name !== self) {
          for (const key of Object.keys(out)) delete out[key];
          out.$ref = `#/components/schemas/${name}`;
        }
        // zod bounds every integer by the safe range; that says nothing to a reader.
        if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
        if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
        const traits = fieldTraits.get(zodSchema);
        if (traits) Object.assign(out, traitKeywords(traits));
      },
    }) as JsonSchema;
    return rest;
  }
}
