/**
 * Contacts in bulk: creates and updates as one create-or-update job (`POST /contact/bulk`), deletes as
 * two-phase deletes by an id filter.
 */
import { bodySchema } from "../../kinds/index.ts";
import { runJobs } from "./jobs.ts";
import { type BulkRoute, byOp, chunked, patchOf } from "./route.ts";
import { twoPhaseDelete } from "./two-phase-delete.ts";

export const contacts: BulkRoute = {
  kind: "contact",
  queueOf: (op) => (op === "delete" ? "delete" : "write"),
  updateItem(kind, live, desired, changes) {
    const body = patchOf(kind, desired, changes);
    // The bulk write finds the contact by (type, address): an update that moves them cannot be matched.
    if (!body || "type" in body || "address" in body) return undefined;
    const item = { type: live.type, address: live.address, ...body };
    return bodySchema(kind.schemaFor(desired), "create").safeParse(item).success ? item : undefined;
  },
  async send(ctx, writes) {
    const ops = ctx.ops.contacts;
    const creates = byOp(writes, "create");
    const updates = byOp(writes, "update");
    // The bulk write creates or updates by (type, address): a create goes through it only when the complete
    // list shows the key free, so it never takes over a contact that exists already.
    const kind = creates[0]?.kind;
    const rows =
      kind &&
      (ctx.complete(kind) ??
        (ctx.reads && creates.length + updates.length > 1 ? (await kind.listAll(ctx.ops)).rows : undefined));
    const taken = new Set(rows?.map((row) => kind!.naturalKey(kind!.normalizeLive(row))));
    const free = rows
      ? creates.filter((w) => !taken.has(w.kind.naturalKey(w.kind.normalizeDesired(w.body))))
      : [];
    const bulk = new Set(free);
    await ctx.single(creates.filter((w) => !bulk.has(w)));
    await runJobs(ctx, [...free, ...updates], {
      route: "POST /contact/bulk",
      source: "contact bulk update",
      item: (w) => (w.op === "create" ? w.body : w.item),
      submit: (items, options) => ops.bulkWrite(items as never, options),
    });
    for (const chunk of await chunked(
      ctx,
      ctx.order(byOp(writes, "delete"), (w) => w.live.id),
    )) {
      // The id filter selects exactly these contacts.
      const filter = { id: chunk.map((w) => String(w.live.id)) };
      const removed =
        chunk.length >= ctx.policy.twoPhaseDelete &&
        (await twoPhaseDelete(ctx, chunk, {
          route: "POST /contact/bulk-delete",
          source: "contact bulk delete",
          filter,
          validate: (options) => ops.bulkDeleteValidate(filter, options),
          run: (count, options) => ops.bulkDelete(filter, count, options),
        }));
      if (!removed) await ctx.single(chunk);
    }
  },
};
