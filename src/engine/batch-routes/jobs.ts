/**
 * Creates and updates as bulk-job items (monitors, contacts): one job per chunk, each caller settled from its
 * own result row.
 */
import { itemError, type JobOutcome, type JobResultRow } from "../../api/index.ts";
import type { BatchContext, CreateWrite, UpdateWrite } from "../batch-contract.ts";
import type { Members } from "../kinds/index.ts";
import { chunked, itemOf, ownKey, sorted } from "./route.ts";

/** Creates and updates as job items, one job per chunk; each caller settles from its own result row. */
export async function runItems(
  ctx: BatchContext,
  writes: readonly (CreateWrite | UpdateWrite)[],
  route: string,
  run: (items: Members[], key: string) => Promise<JobOutcome>,
): Promise<void> {
  for (const chunk of await chunked(ctx, sorted(writes, itemOf))) {
    if (chunk.length === 1) {
      await ctx.single(chunk[0]!);
      continue;
    }
    const key = ctx.keyFor(
      route,
      chunk.map((w) => [itemOf(w), ownKey(w)]),
    );
    let outcome: JobOutcome;
    try {
      outcome = await run(chunk.map(itemOf), key);
    } catch (error) {
      // The job failed as a whole (refused, interrupted, unreachable): every caller gets its problem.
      for (const w of chunk) w.reject(error);
      continue;
    }
    const replayed = ctx.session.replayed(key);
    const rows = new Map(outcome.rows.map((row) => [row.index, row]));
    await Promise.all(
      chunk.map((w, i) => settleItem(ctx, w, rows.get(i), replayed, route, String(outcome.job.id))),
    );
  }
}

async function settleItem(
  ctx: BatchContext,
  w: CreateWrite | UpdateWrite,
  row: JobResultRow | undefined,
  replayed: boolean,
  route: string,
  jobId: string,
): Promise<void> {
  if (!row) {
    w.reject(new Error(`job ${jobId} did not report this item`));
    return;
  }
  if (row.status === "failed") {
    // A duplicate is refused, never adopted: the object holding the key may be another state's.
    w.reject(itemError(row.error ?? {}, `/items/${row.index}`, route));
    return;
  }
  if (row.status === "cancelled" || row.status === "pending") {
    w.reject(new Error(`job ${jobId} was cancelled before this item ran`));
    return;
  }
  if (w.op === "update") {
    w.resolve();
    return;
  }
  // `createdDisabled`: created, and disabled by the plan's limit, as the object then reads.
  if (row.status === "created" || row.status === "createdDisabled") {
    await ctx.created(w, String(row.entityId), replayed);
    return;
  }
  // A create-or-update job that found the address taken (by a contact made since the batch looked).
  w.reject(
    new Error(
      `a ${w.kind.name} with this natural key already existed (${row.entityId}); the bulk write ${row.status} it instead of creating one: import it`,
    ),
  );
}
