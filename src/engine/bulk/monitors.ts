/**
 * Monitors in bulk: creates and updates as jobs (`POST /monitor/bulk`, `/monitor/bulk-update`), deletes as
 * two-phase deletes by type and address.
 */
import { z } from "zod";
import { bodySchema } from "../../kinds/index.ts";
import { runJobs } from "./jobs.ts";
import { type BulkRoute, byOp, chunked, patchOf } from "./route.ts";
import { twoPhaseDelete } from "./two-phase-delete.ts";

/** A bulk-update item's schema, per monitor type: built once, since an apply may check thousands of items. */
const itemShapes = new WeakMap<z.ZodObject, z.ZodObject>();
function itemShape(schema: z.ZodObject): z.ZodObject {
  let shape = itemShapes.get(schema);
  if (!shape) {
    shape = bodySchema(schema, "update").extend({ id: z.string().min(1) });
    itemShapes.set(schema, shape);
  }
  return shape;
}

export const monitors: BulkRoute = {
  kind: "monitor",
  queueOf: (op) => op,
  updateItem(kind, live, desired, changes) {
    const body = patchOf(kind, desired, changes);
    if (!body) return undefined;
    const item = { id: String(live.id), ...body };
    return itemShape(kind.schemaFor(desired)).safeParse(item).success ? item : undefined;
  },
  async send(ctx, writes) {
    const ops = ctx.ops.monitors;
    await runJobs(ctx, byOp(writes, "create"), {
      route: "POST /monitor/bulk",
      source: "monitor bulk create",
      item: (w) => w.body,
      submit: (items, options) => ops.bulkCreate(items as never, options),
    });
    await runJobs(ctx, byOp(writes, "update"), {
      route: "POST /monitor/bulk-update",
      source: "monitor bulk update",
      item: (w) => w.item,
      submit: (items, options) => ops.bulkUpdate(items as never, options),
    });
    // A filter selects by type and address (monitors have no id filter): one per type.
    const deletes = byOp(writes, "delete");
    const byType = new Map<string, typeof deletes>();
    const singles: typeof deletes = [];
    for (const w of deletes) {
      const { type, url } = w.live;
      if (typeof type !== "string" || typeof url !== "string") singles.push(w);
      else byType.set(type, [...(byType.get(type) ?? []), w]);
    }
    for (const [type, group] of byType) {
      for (const chunk of await chunked(
        ctx,
        ctx.order(group, (w) => w.live.id),
      )) {
        const urls = chunk.map((w) => String(w.live.url));
        const wanted = new Set(urls);
        const filter = { type: [type], url: urls };
        const removed =
          chunk.length >= ctx.policy.twoPhaseDelete &&
          (await twoPhaseDelete(ctx, chunk, {
            route: "POST /monitor/bulk-delete",
            source: "monitor bulk delete",
            filter,
            selection: {
              // The service's filter matches the address as given and as it normalised it.
              selects: (m) =>
                String(m.type) === type && (wanted.has(String(m.url)) || wanted.has(String(m.effectiveUrl))),
              listed: async () =>
                (await ops.all({ filters: filter, fields: ["id"], limit: 500 })).map((m) => String(m.id)),
            },
            validate: (options) => ops.bulkDeleteValidate(filter, options),
            run: (count, options) => ops.bulkDelete(filter, count, options),
          }));
        if (!removed) singles.push(...chunk);
      }
    }
    await ctx.single(singles);
  },
};
