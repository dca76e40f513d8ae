/** Monitors in bulk: creates and updates as jobs, deletes as two-phase deletes by type and address. */
import type { Row } from "../../kinds/index.ts";
import { createBody } from "../bodies.ts";
import { stateAddressOf, type Work } from "../model.ts";
import { jobMinimum, jobOptions, runChunk, settleCreated, settleRows, updateItems } from "./jobs.ts";
import { type BulkStrategy, chunks, resolved } from "./strategy.ts";
import { twoPhaseDelete } from "./two-phase-delete.ts";

export const monitors: BulkStrategy<"monitor"> = {
  kind: "monitor",
  async write(applier, creates, updates) {
    const ops = applier.options.ops.monitor;
    if (creates.length >= jobMinimum) {
      for (const chunk of chunks(resolved(applier, creates), applier.options.maxBulkItems)) {
        const items = chunk.map((w) => createBody(w.kind, w.members!));
        const { outcome, submitted } = await runChunk(
          applier,
          "monitor-bulk-create",
          chunk,
          items,
          "create",
          (key, on) => ops.bulkCreate(items as never, jobOptions(applier, key, on)),
        );
        if (outcome) await settleRows(applier, "create", submitted, outcome.rows, settleCreated(applier));
      }
    } else await applier.each(creates, (w) => applier.createOne(w));

    if (updates.length >= jobMinimum) {
      const pending = updateItems(applier, updates);
      await applier.journal.save();
      for (const chunk of chunks(pending, applier.options.maxBulkItems)) {
        const items = chunk.map(({ work, body }) => ({ id: work.action.id!, ...body }));
        const { outcome, submitted } = await runChunk(
          applier,
          "monitor-bulk-update",
          chunk.map((c) => c.work),
          items,
          "update",
          (key, on) => ops.bulkUpdate(items as never, jobOptions(applier, key, on)),
        );
        if (outcome) {
          await settleRows(applier, "update", submitted, outcome.rows, ({ work }) => {
            applier.journal.settle(work.action.address, applier.entryFor(work, work.action.id!));
            applier.succeed(work, work.action.id);
          });
        }
      }
    } else await applier.each(updates, (w) => applier.updateOne(w));
  },

  async remove(applier, deletes) {
    const ops = applier.options.ops.monitor;
    const all = [...(applier.options.live.get("monitor")?.values() ?? [])];
    const singles: Work[] = [];
    // A filter selects by type and address; it is used only when, against the complete list, it selects exactly these.
    const byType = new Map<string, Work[]>();
    for (const w of deletes) {
      const type = w.live?.type;
      if (
        !applier.options.complete.has("monitor") ||
        typeof type !== "string" ||
        typeof w.live?.url !== "string"
      )
        singles.push(w);
      else byType.set(type, [...(byType.get(type) ?? []), w]);
    }
    // Indexed once: a destroy of 20,000 monitors checks 20 chunks against the whole list.
    const byTypeLive = new Map<string, Row[]>();
    for (const m of all) byTypeLive.set(String(m.type), [...(byTypeLive.get(String(m.type)) ?? []), m]);
    // A delete selects at most maxBulkItems objects: a larger group goes in chunks, each its own two-phase delete.
    for (const [type, whole] of byType) {
      if (whole.length < jobMinimum) {
        singles.push(...whole);
        continue;
      }
      for (const group of chunks(whole, applier.options.maxBulkItems)) {
        const urls = group.map((w) => String(w.live!.url));
        const wanted = new Set(urls);
        const ids = new Set(group.map((w) => String(w.live!.id)));
        const selected = (byTypeLive.get(type) ?? []).filter(
          (m) => wanted.has(String(m.url)) || wanted.has(String(m.effectiveUrl)),
        );
        if (
          group.length < jobMinimum ||
          selected.length !== ids.size ||
          selected.some((m) => !ids.has(String(m.id)))
        ) {
          singles.push(...group);
          continue;
        }
        const filter = { type: [type], url: urls };
        const removed = await twoPhaseDelete(
          applier,
          "monitor-bulk-delete",
          group,
          () =>
            ops.bulkDeleteValidate(filter, {
              idempotencyKey: applier.journal.keyFor("monitor-bulk-delete-validate", [...ids]),
            }),
          (count, key, on) => ops.bulkDelete(filter, count, jobOptions(applier, key, on)),
        );
        if (!removed) singles.push(...group);
      }
    }
    await applier.each(singles, (w) => applier.deleteOne(w, stateAddressOf(w)));
  },
};
