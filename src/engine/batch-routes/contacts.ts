/**
 * Contacts in batches: creates and updates as one create-or-update job (`POST /contact/bulk`), deletes as
 * two-phase deletes by an id filter.
 */
import { bodySchema } from "../../kinds/index.ts";
import type { CreateWrite } from "../batch-contract.ts";
import { runItems } from "./jobs.ts";
import { type BatchRoute, byOp, chunked, jobOptions, ownKey, patchOf, sorted } from "./route.ts";
import { twoPhaseDelete, twoPhaseMinimum } from "./two-phase-delete.ts";

export const contacts: BatchRoute<"contact"> = {
  kind: "contact",
  family: (op) => (op === "delete" ? "delete" : "write"),
  updateItem(kind, live, desired, changes) {
    const body = patchOf(kind, desired, changes);
    // The bulk write finds the contact by (type, address): an update that moves them cannot be matched.
    if (!body || "type" in body || "address" in body) return undefined;
    const item = { type: live.type, address: live.address, ...body };
    return bodySchema(kind.schemaFor(desired), "create").safeParse(item).success ? item : undefined;
  },
  async send(ctx, batch) {
    const ops = ctx.session.ops.contact;
    const creates = byOp(batch, "create");
    const updates = byOp(batch, "update");
    // The bulk write creates or updates by (type, address): a create goes through it only when the list
    // shows the key free, so it never takes over a contact that exists already.
    let free: CreateWrite[] = [];
    if (creates.length > 0 && creates.length + updates.length > 1) {
      const kind = creates[0]!.kind;
      const { rows } = await kind.listAll(ctx.session.ops);
      const taken = new Set(rows.map((row) => kind.naturalKey(kind.normalizeLive(row))));
      free = creates.filter((w) => !taken.has(kind.naturalKey(kind.normalizeDesired(w.desired))));
    }
    const bulk = [...free, ...updates];
    await Promise.all(creates.filter((w) => !free.includes(w)).map((w) => ctx.single(w)));
    if (bulk.length > 0)
      await runItems(ctx, bulk, "POST /contact/bulk", (items, key) =>
        ops.bulkWrite(items as never, jobOptions(ctx, key)),
      );
    const deletes = byOp(batch, "delete");
    for (const chunk of await chunked(ctx, sorted(deletes, ownKey))) {
      if (chunk.length < twoPhaseMinimum) {
        await Promise.all(chunk.map((w) => ctx.single(w)));
        continue;
      }
      // The id filter selects exactly these contacts.
      const filter = { id: chunk.map((w) => String(w.live.id)) };
      await twoPhaseDelete(ctx, chunk, "POST /contact/bulk-delete", {
        validate: (key) => ops.bulkDeleteValidate(filter, { idempotencyKey: key }),
        run: (count, key) => ops.bulkDelete(filter, count, jobOptions(ctx, key)),
      });
    }
  },
};
