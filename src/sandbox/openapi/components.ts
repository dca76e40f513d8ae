import { z } from "zod";
import { monitorDeleteReceipt } from "../../kinds/events.ts";
import { field } from "../../kinds/field.ts";
import { kinds } from "../../kinds/index.ts";
import { problemDocumentSchema } from "../../kinds/problem-document.ts";

/** The answer of every paged list (`{data, nextCursor, hasMore}`), whatever its rows. */
const pageSchema = z.object({
  data: z.array(z.unknown()),
  nextCursor: field(z.string().nullable(), { description: "Send as cursor; null on the last page." }),
  hasMore: z.boolean(),
  count: field(z.object({ total: z.number().int(), matched: z.number().int() }), {
    description: "With expand=count.",
  }).optional(),
  syncCursor: field(z.string(), { description: "Delta-sync lists: send as updatedSince." }).optional(),
});

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** Every schema the document publishes once under `components.schemas`, by name. */
export function componentSchemas(): Record<string, z.ZodType> {
  return {
    Problem: problemDocumentSchema,
    Page: pageSchema,
    ...Object.fromEntries(kinds.map((kind) => [pascal(kind.name), kind.schema])),
    MonitorDeleteReceipt: monitorDeleteReceipt,
  };
}
