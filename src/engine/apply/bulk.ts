/**
 * Bulk writes, where they take fewer calls than one call per object:
 * monitors and contacts through jobs (creates, updates, two-phase deletes),
 * subscriptions through the one-transaction `/alert/bulk` and `/report/bulk`.
 */
import { ApiError, itemError, type JobOutcome, type JobResultRow } from "../../api/index.ts";
import { cascadedSubscriptions, type Members, type Row } from "../kinds/index.ts";
import type { KindName, ResourceState } from "../model.ts";
import { isUnder } from "../pointer.ts";
import type { Applier } from "./applier.ts";
import { createBody, updateBody } from "./bodies.ts";
import { stateAddressOf, type Work } from "./model.ts";
import { duplicateOf, vanished } from "./refusals.ts";

export interface BulkStrategy {
  write(applier: Applier, creates: Work[], updates: Work[]): Promise<void>;
  remove?(applier: Applier, deletes: Work[]): Promise<void>;
}

/** A job costs one write and a few polls: below this many objects, single calls are as cheap. */
const jobMinimum = 3;
/** A subscription bulk answers at once: two objects already save a call. */
const syncBulkMinimum = 2;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Resolved works with what their write needs; unresolvable ones are already recorded as failed. */
function resolved(applier: Applier, works: readonly Work[]): Work[] {
  return works.filter((w) => applier.resolve(w) !== undefined);
}

interface Submitted {
  work: Work;
  before: ResourceState | undefined;
}

/** Where a bulk item's write is journaled: a delete's object (a replace's deposed half), else the address itself. */
function journalAddress(work: Work, action: "create" | "update" | "delete"): string {
  return action === "delete" ? stateAddressOf(work) : work.action.address;
}

/** Journals a chunk's items under one key, then runs the job; a refused submission fails every item. */
async function runChunk(
  applier: Applier,
  label: string,
  chunk: readonly Work[],
  items: readonly Members[],
  action: "create" | "update" | "delete",
  submit: (key: string, onAccepted: (a: { jobId: string }) => Promise<void>) => Promise<JobOutcome>,
): Promise<{ outcome?: JobOutcome; submitted: Submitted[] }> {
  const addresses = chunk.map((work) => journalAddress(work, action));
  const key = applier.journal.keyFor(label, addresses);
  const submitted = chunk.map((work, i) => ({ work, before: applier.state.resources[addresses[i]!] }));
  // Each item is journaled as what it is: a contact chunk mixes creates and updates, and a create-first
  // replace's create must not overwrite the deposed entry that still holds the old object.
  await applier.journal.begin(
    submitted.map(({ work, before }, i) => {
      const creates =
        action !== "delete" && (work.action.action === "create" || work.action.action === "replace");
      return {
        address: addresses[i]!,
        entry: creates || !before ? applier.pendingEntry(work) : before,
        action: creates ? "create" : action,
        body: items[i],
      };
    }),
    key,
  );
  try {
    const outcome = await submit(key, (accepted) => applier.journal.attachJob(addresses, accepted.jobId));
    return { outcome, submitted };
  } catch (error) {
    for (const [i, { work, before }] of submitted.entries()) {
      applier.undo(addresses[i]!, before, error);
      applier.fail(work, error);
    }
    await applier.journal.save();
    return { submitted };
  }
}

/** Settles each job row; `ok` handles a row whose item succeeded. */
async function settleRows(
  applier: Applier,
  action: "create" | "update" | "delete",
  submitted: readonly Submitted[],
  rows: readonly JobResultRow[],
  ok: (s: Submitted, row: JobResultRow) => Promise<void> | void,
): Promise<void> {
  const seen = new Set<number>();
  for (const row of rows) {
    const s = submitted[row.index];
    if (!s) continue;
    seen.add(row.index);
    if (["created", "createdDisabled", "updated", "skipped", "deleted"].includes(row.status))
      await ok(s, row);
    else if (row.status === "failed" && duplicateOf(row.error) && s.work.action.action !== "delete") {
      await applier.adoptDuplicate(s.work, row.error, s.before);
    } else {
      applier.journal.abandon(journalAddress(s.work, action), s.before);
      // The item's problem as its own single call would have answered it: pointers at the object, not `/items/N`.
      const route = `${s.work.kind.name} bulk ${action}`;
      applier.fail(
        s.work,
        row.error ? itemError(row.error, `/items/${row.index}`, route) : `item ${row.status}`,
      );
    }
  }
  // Rows the job never reported stay pending: the next run resolves them.
  submitted.forEach((s, i) => {
    if (!seen.has(i)) applier.fail(s.work, "the job did not report this item");
  });
  await applier.journal.save();
}

function settleCreated(applier: Applier) {
  return ({ work }: Submitted, row: JobResultRow) => {
    const id = String(row.entityId);
    applier.journal.settle(work.action.address, applier.entryFor(work, id));
    applier.succeed(work, id);
  };
}

/** The planned changes as bodies; an update whose body is empty (only side members, say) needs no bulk item. */
function updateItems(applier: Applier, works: readonly Work[]): { work: Work; body: Members }[] {
  const out: { work: Work; body: Members }[] = [];
  for (const work of resolved(applier, works)) {
    const body = updateBody(
      work.kind,
      work.action.changes,
      work.members!,
      work.kind.normalizeDesired(work.members!),
    );
    if (Object.keys(body).length === 0) {
      applier.journal.settle(work.action.address, applier.entryFor(work, work.action.id!));
      applier.succeed(work, work.action.id);
    } else out.push({ work, body });
  }
  return out;
}

const jobOptions = (applier: Applier, key: string, onAccepted: (a: { jobId: string }) => Promise<void>) => ({
  idempotencyKey: key,
  onAccepted,
  ...(applier.options.time && { time: applier.options.time }),
});

const monitors: BulkStrategy = {
  async write(applier, creates, updates) {
    const ops = applier.options.ops.monitors;
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
    const ops = applier.options.ops.monitors;
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

/**
 * The safe delete: validate the filter, check it selects exactly the objects
 * meant, then delete with `expectedCount`. Answers false (nothing deleted) when
 * the selection is not exactly ours, so the caller falls back to single calls.
 */
async function twoPhaseDelete(
  applier: Applier,
  label: string,
  group: readonly Work[],
  validate: () => Promise<{ matched: number }>,
  run: (
    count: number,
    key: string,
    onAccepted: (a: { jobId: string }) => Promise<void>,
  ) => Promise<JobOutcome>,
): Promise<boolean> {
  let matched: number;
  try {
    ({ matched } = await validate());
  } catch {
    // The first phase changes nothing: whatever refused it, the single deletes take over and report their own failures.
    return false;
  }
  if (matched !== group.length) return false;
  const { outcome, submitted } = await runChunk(
    applier,
    label,
    group,
    group.map(() => ({})),
    "delete",
    (key, on) => run(matched, key, on),
  );
  if (!outcome) {
    // A changed selection (409 selection_mismatch) deleted nothing: the single calls take over.
    const mismatch = applier.result.failures.filter((f) => f.problem?.code === "selection_mismatch");
    if (mismatch.length > 0) {
      applier.result.failures = applier.result.failures.filter(
        (f) => f.problem?.code !== "selection_mismatch",
      );
      for (const { work } of submitted) applier.unfail(work.action.address);
      return false;
    }
    return true;
  }
  const byId = new Map(submitted.map((s) => [String(s.work.action.id), s]));
  const ordered = outcome.rows.map((row) => byId.get(String(row.entityId)));
  await settleRows(
    applier,
    "delete",
    ordered.filter((s): s is Submitted => s !== undefined),
    outcome.rows.map((row, index) => ({ ...row, index })).filter((_, i) => ordered[i] !== undefined),
    ({ work }, row) => {
      applier.noteCascaded(cascadedSubscriptions(row.result));
      applier.journal.settle(stateAddressOf(work), undefined);
      applier.succeed(work, work.action.id);
    },
  );
  return true;
}

const contacts: BulkStrategy = {
  async write(applier, creates, updates) {
    const ops = applier.options.ops.contacts;
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
    const ops = applier.options.ops.contacts;
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

/** Subscriptions: `POST /alert/bulk` (or `/report/bulk`), one transaction, each create replacing its pair's set. */
function subscriptions(name: "alertSubscription" | "reportSubscription", setMember: string): BulkStrategy {
  const routes = (applier: Applier) =>
    name === "alertSubscription"
      ? applier.options.ops.alertSubscriptions
      : applier.options.ops.reportSubscriptions;
  const pair = (m: Row) => ({ monitorId: String(m.monitorId), contactId: String(m.contactId) });
  const pairKey = (m: Row) => `${m.monitorId}/${m.contactId}`;

  /** Sends one transaction; refused items (pointers `/create/<i>`, `/delete/<i>`) are set aside and the rest sent again once. */
  async function send(
    applier: Applier,
    side: "create" | "delete",
    works: Work[],
    itemOf: (w: Work) => Members,
    done: (w: Work, created?: Row) => void,
  ): Promise<void> {
    for (const chunk of chunks(works, applier.options.maxBulkItems)) {
      let remaining = chunk;
      for (let attempt = 0; attempt < 2 && remaining.length > 0; attempt++) {
        const items = remaining.map(itemOf);
        const action = side === "delete" ? "delete" : "update";
        // As in runChunk: a replace's new pair is journaled at its address, never over the deposed old one.
        const addresses = remaining.map((work) => journalAddress(work, action));
        const submitted = remaining.map((work, i) => ({
          work,
          before: applier.state.resources[addresses[i]!],
        }));
        const key = applier.journal.keyFor(`${name}-bulk-${side}-${attempt}`, addresses);
        await applier.journal.begin(
          submitted.map(({ work, before }, i) => ({
            address: addresses[i]!,
            entry: before ?? applier.pendingEntry(work),
            action: before ? action : "create",
            body: items[i],
          })),
          key,
        );
        try {
          const answer = (await routes(applier).bulk({ [side]: items }, { idempotencyKey: key })) as {
            created?: Row[];
          };
          const created = new Map((answer.created ?? []).map((row) => [pairKey(row), row]));
          for (const w of remaining) done(w, created.get(pairKey(itemOf(w))));
          await applier.journal.save();
          remaining = [];
        } catch (error) {
          const refused = new Set<number>();
          const gone = new Set<number>();
          if (error instanceof ApiError && error.status === 422) {
            for (const entry of error.errors) {
              const m = new RegExp(`^/${side}/(\\d+)`).exec(entry.pointer ?? "");
              if (!m) continue;
              refused.add(Number(m[1]));
              // A pair whose subscription, monitor or contact no longer exists is already deleted.
              if (side === "delete" && vanished.has(String(entry.reason))) gone.add(Number(m[1]));
            }
          }
          for (const [i, { before }] of submitted.entries()) applier.undo(addresses[i]!, before, error);
          if (refused.size === 0) {
            for (const w of remaining) applier.fail(w, error);
            await applier.journal.save();
            break;
          }
          const next: Work[] = [];
          remaining.forEach((w, i) => {
            if (!refused.has(i)) next.push(w);
            else if (gone.has(i)) done(w);
            else {
              const prefix = `/${side}/${i}`;
              const entries = (error as ApiError).errors.filter((e) => isUnder(e.pointer ?? "", prefix));
              applier.fail(
                w,
                itemError(
                  { ...(error as ApiError).problem, errors: entries },
                  prefix,
                  (error as ApiError).route,
                ),
              );
            }
          });
          await applier.journal.save();
          remaining = next;
        }
      }
    }
  }

  return {
    async write(applier, creates, updates) {
      const works = resolved(applier, [...creates, ...updates]);
      if (works.length < syncBulkMinimum) {
        await applier.each(
          works.filter((w) => creates.includes(w)),
          (w) => applier.createOne(w),
        );
        await applier.each(
          works.filter((w) => updates.includes(w)),
          (w) => applier.updateOne(w),
        );
        return;
      }
      const needed = works.filter((w) => creates.includes(w) || w.action.changes.length > 0);
      for (const w of works.filter((w) => !needed.includes(w))) {
        applier.journal.settle(w.action.address, applier.entryFor(w, w.action.id!));
        applier.succeed(w, w.action.id);
      }
      await send(
        applier,
        "create",
        needed,
        (w) => ({ ...pair(w.members!), [setMember]: w.members![setMember] }),
        (w, row) => {
          const id = String(row?.id ?? w.action.id);
          applier.journal.settle(w.action.address, applier.entryFor(w, id));
          applier.succeed(w, id);
        },
      );
    },
    async remove(applier, deletes) {
      if (deletes.length < syncBulkMinimum) {
        await applier.each(deletes, (w) => applier.deleteOne(w, stateAddressOf(w)));
        return;
      }
      await send(
        applier,
        "delete",
        deletes,
        (w) => pair(w.live ?? { ...applier.state.resources[stateAddressOf(w)]?.naturalKey }),
        (w) => {
          applier.journal.settle(stateAddressOf(w), undefined);
          applier.succeed(w, w.action.id);
        },
      );
    },
  };
}

export const bulkStrategies: Partial<Record<KindName, BulkStrategy>> = {
  monitor: monitors,
  contact: contacts,
  alertSubscription: subscriptions("alertSubscription", "alertTypes"),
  reportSubscription: subscriptions("reportSubscription", "frequencies"),
};
