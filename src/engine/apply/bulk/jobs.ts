/**
 * Bulk jobs (monitors, contacts): a chunk journaled under one key and submitted, then its result rows
 * settled one by one, each failed item with its own problem.
 */
import { itemError, type JobOutcome, type JobResultRow } from "../../../api/index.ts";
import type { Members } from "../../kinds/index.ts";
import type { ResourceState } from "../../model.ts";
import { updateBody } from "../bodies.ts";
import { rethrowIfStateLost } from "../journal.ts";
import type { Work } from "../model.ts";
import { duplicateOf } from "../refusals.ts";
import { type BulkApplier, journalAddress, resolved } from "./strategy.ts";

/** A job costs one write and a few polls: below this many objects, single calls are as cheap. */
export const jobMinimum = 3;

export interface Submitted {
  work: Work;
  before: ResourceState | undefined;
}

/** Journals a chunk's items under one key, then runs the job; a refused submission fails every item. */
export async function runChunk(
  applier: BulkApplier,
  label: string,
  chunk: readonly Work[],
  items: readonly Members[],
  action: "create" | "update" | "delete",
  submit: (key: string, onAccepted: (a: { jobId: string }) => Promise<void>) => Promise<JobOutcome>,
): Promise<{ outcome?: JobOutcome; submitted: Submitted[] }> {
  const addresses = chunk.map((work) => journalAddress(work, action));
  const key = applier.journal.keyFor(label, addresses);
  const submitted = chunk.map((work, i) => ({ work, before: applier.entryAt(addresses[i]!) }));
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
    rethrowIfStateLost(error);
    for (const [i, { work, before }] of submitted.entries()) {
      applier.undo(addresses[i]!, before, error);
      applier.fail(work, error);
    }
    await applier.journal.save();
    return { submitted };
  }
}

/** Settles each job row; `ok` handles a row whose item succeeded. */
export async function settleRows(
  applier: BulkApplier,
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

export function settleCreated(applier: BulkApplier) {
  return ({ work }: Submitted, row: JobResultRow) => {
    const id = String(row.entityId);
    applier.journal.settle(work.action.address, applier.entryFor(work, id));
    applier.succeed(work, id);
  };
}

/** The planned changes as bodies; an update whose body is empty (only side members, say) needs no bulk item. */
export function updateItems(applier: BulkApplier, works: readonly Work[]): { work: Work; body: Members }[] {
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

export const jobOptions = (
  applier: BulkApplier,
  key: string,
  onAccepted: (a: { jobId: string }) => Promise<void>,
) => ({
  idempotencyKey: key,
  onAccepted,
  ...(applier.options.time && { time: applier.options.time }),
});
