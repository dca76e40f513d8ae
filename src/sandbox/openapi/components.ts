import { z } from "zod";
import { monitorDeleteReceipt } from "../../kinds/events.ts";
import { kinds } from "../../kinds/index.ts";
import { pageOf } from "../../kinds/page.ts";
import { problemDocumentSchema } from "../../kinds/problem-document.ts";

/** The answer of every paged list, whatever its rows. */
const pageSchema = pageOf(z.unknown());

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
