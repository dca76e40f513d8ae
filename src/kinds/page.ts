import { z } from "zod";
import { field } from "./field.ts";

/** The answer of a paged list, `{data, nextCursor, hasMore}`, with rows of `row`. */
export function pageOf(row: z.ZodType) {
  return z.object({
    data: z.array(row),
    nextCursor: field(z.string().nullable(), { description: "Send as cursor; null on the last page." }),
    hasMore: z.boolean(),
    count: field(z.object({ total: z.number().int(), matched: z.number().int() }), {
      description: "With expand=count.",
    }).optional(),
    syncCursor: field(z.string(), { description: "Delta-sync lists: send as updatedSince." }).optional(),
  });
}
