/** Contacts in bulk: creates and updates in one job keyed by (type, address), deletes by id in two phases. */
import type { Members } from "../../kinds/index.ts";
import { createBody } from "../bodies.ts";
import { stateAddressOf, type Work } from "../model.ts";
import { jobMinimum, jobOptions, runChunk, settleRows, updateItems } from "./jobs.ts";
import { type BulkStrategy, chunks, resolved } from "./strategy.ts";
import { twoPhaseDelete } from "./two-phase-delete.ts";

export const contacts: BulkStrategy<"contact"> = {
  kind: "contact",
  async write(applier, creates, updates) {
    const ops = applier.options.ops.contact;
    const live = [...(applier.options.live.get("contact")?.values() ?? [])];
    const kind = creates[0]?.kind ?? updates[0]?.kind;
    // The bulk write creates or updates by (type, address): a create goes through it only when the complete
    // list shows no contact with that key, so it can never take over an object another address manages.
    const takenKeys = new Set(live.map((row) => kind?.naturalKey(kind.normalizeLive(row))));
    const canBulkCreate = (w: Work) =>
      applier.options.complete.has("contact") &&
      !takenKeys.has(w.kind.naturalKey(w.kind.normalizeDesired(w.members!)));
    const ready = resolved(applier, creates);
    const bulkCreates = ready.filter(canBulkCreate);
    const singleCreates = ready.filter((w) => !bulkCreates.includes(w));
    const pendingUpdates = updates.length > 0 ? updateItems(applier, updates) : [];
    // An update that moves the address cannot be matched by (type, address): it goes alone.
    const bulkUpdates = pendingUpdates.filter(
      ({ body }) => body.address === undefined && body.type === undefined,
    );
    const singleUpdates = pendingUpdates.filter((u) => !bulkUpdates.includes(u)).map((u) => u.work);
    if (bulkCreates.length + bulkUpdates.length >= jobMinimum) {
      const works = [...bulkCreates, ...bulkUpdates.map((u) => u.work)];
      const items: Members[] = [
        ...bulkCreates.map((w) => createBody(w.kind, w.members!)),
        ...bulkUpdates.map(({ work, body }) => ({
          type: work.live?.type,
          address: work.live?.address,
          ...body,
        })),
      ];
      for (const [i, chunk] of chunks(works, applier.options.maxBulkItems).entries()) {
        const chunkItems = items.slice(
          i * applier.options.maxBulkItems,
          (i + 1) * applier.options.maxBulkItems,
        );
        const { outcome, submitted } = await runChunk(
          applier,
          "contact-bulk-write",
          chunk,
          chunkItems,
          "update",
          (key, on) => ops.bulkWrite(chunkItems as never, jobOptions(applier, key, on)),
        );
        if (outcome) {
          await settleRows(applier, "update", submitted, outcome.rows, ({ work }, row) => {
            const id = String(row.entityId ?? work.action.id);
            applier.journal.settle(work.action.address, applier.entryFor(work, id));
            applier.succeed(work, id);
          });
        }
      }
    } else {
      singleCreates.push(...bulkCreates);
      singleUpdates.push(...bulkUpdates.map((u) => u.work));
    }
    await applier.each(singleCreates, (w) => applier.createOne(w));
    await applier.each(singleUpdates, (w) => applier.updateOne(w));
  },

  async remove(applier, deletes) {
    const ops = applier.options.ops.contact;
    if (deletes.length < jobMinimum) {
      await applier.each(deletes, (w) => applier.deleteOne(w, stateAddressOf(w)));
      return;
    }
    // A delete selects at most maxBulkItems objects: more go in chunks, each its own two-phase delete.
    for (const group of chunks(deletes, applier.options.maxBulkItems)) {
      // The id filter selects exactly these contacts.
      const filter = { id: group.map((w) => String(w.action.id)) };
      const removed =
        group.length >= jobMinimum &&
        (await twoPhaseDelete(
          applier,
          "contact-bulk-delete",
          group,
          () =>
            ops.bulkDeleteValidate(filter, {
              idempotencyKey: applier.journal.keyFor("contact-bulk-delete-validate", filter.id),
            }),
          (count, key, on) => ops.bulkDelete(filter, count, jobOptions(applier, key, on)),
        ));
      if (!removed) await applier.each(group, (w) => applier.deleteOne(w, stateAddressOf(w)));
    }
  },
};
