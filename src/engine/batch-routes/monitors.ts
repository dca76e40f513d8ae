/**
 * Monitors in batches: creates and updates as jobs (`POST /monitor/bulk`, `/monitor/bulk-update`), deletes
 * as two-phase deletes by type and address.
 */
import { z } from "zod";
import { bodySchema } from "../../kinds/index.ts";
import type { DeleteWrite } from "../batch-contract.ts";
import { runItems } from "./jobs.ts";
import { type BatchRoute, byOp, chunked, jobOptions, ownKey, patchOf, sorted } from "./route.ts";
import { twoPhaseDelete, twoPhaseMinimum } from "./two-phase-delete.ts";

export const monitors: BatchRoute<"monitor"> = {
  kind: "monitor",
  family: (op) => op,
  updateItem(kind, live, desired, changes) {
    const body = patchOf(kind, desired, changes);
    if (!body) return undefined;
    const item = { id: String(live.id), ...body };
    const shape = bodySchema(kind.schemaFor(desired), "update").extend({ id: z.string().min(1) });
    return shape.safeParse(item).success ? item : undefined;
  },
  async send(ctx, batch) {
    const ops = ctx.session.ops.monitor;
    await runItems(ctx, byOp(batch, "create"), "POST /monitor/bulk", (items, key) =>
      ops.bulkCreate(items as never, jobOptions(ctx, key)),
    );
    await runItems(ctx, byOp(batch, "update"), "POST /monitor/bulk-update", (items, key) =>
      ops.bulkUpdate(items as never, jobOptions(ctx, key)),
    );
    // A filter selects by type and address (monitors have no id filter): one per type.
    const byType = new Map<string, DeleteWrite[]>();
    const singles: DeleteWrite[] = [];
    for (const w of byOp(batch, "delete")) {
      const { type, url } = w.live;
      if (typeof type !== "string" || typeof url !== "string") singles.push(w);
      else byType.set(type, [...(byType.get(type) ?? []), w]);
    }
    for (const [type, group] of byType) {
      for (const chunk of await chunked(ctx, sorted(group, ownKey))) {
        if (chunk.length < twoPhaseMinimum) {
          singles.push(...chunk);
          continue;
        }
        const filter = { type: [type], url: chunk.map((w) => String(w.live.url)) };
        await twoPhaseDelete(ctx, chunk, "POST /monitor/bulk-delete", {
          validate: (key) => ops.bulkDeleteValidate(filter, { idempotencyKey: key }),
          selected: async () =>
            (await ops.all({ filters: filter, fields: ["id"], limit: 500 })).map((m) => String(m.id)),
          run: (count, key) => ops.bulkDelete(filter, count, jobOptions(ctx, key)),
        });
      }
    }
    await Promise.all(singles.map((w) => ctx.single(w)));
  },
};
