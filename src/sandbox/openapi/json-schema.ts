import type { z } from "zod";
import { type JsonSchema, jsonSchemaOf } from "../../kinds/json-schema.ts";

export type { JsonSchema };

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
    return jsonSchemaOf(schema, {
      io,
      embedded: true,
      refFor: (part) => {
        const name = this.#names.get(part._zod.def);
        return name !== undefined && name !== self ? `#/components/schemas/${name}` : undefined;
      },
    });
  }
}
