/**
 * Creates and updates as bulk-job items (monitors, contacts): one job per request, each write settled from
 * its own result row, and how a job's row says what became of its item.
 */
import { itemError, type JobOutcome, type JobResultRow } from "../../api/index.ts";
import { duplicateOf } from "../apply/refusals.ts";
import type { Members } from "../kinds/index.ts";
import { type BulkContext, type BulkWrite, chunked, type ItemOutcome, type SendOptions } from "./route.ts";

export interface JobRequest<W> {
  /** The route (`POST /monitor/bulk`): the request's key derives from it. */
  route: string;
  /** What an item's own error names as its call: `monitor bulk create`. */
  source: string;
  /** The item a write carries. */
  item(write: W): Members;
  submit(items: Members[], options: SendOptions): Promise<JobOutcome>;
}

/** Writes as job items, one job per request; a request too small to pay takes the single routes. */
export async function runJobs<W extends BulkWrite, T extends W>(
  ctx: BulkContext<W>,
  writes: readonly T[],
  request: JobRequest<T>,
): Promise<void> {
  for (const chunk of await chunked(ctx, ctx.order(writes, request.item))) {
    if (chunk.length < ctx.policy.job) {
      await ctx.single(chunk);
      continue;
    }
    const items = chunk.map((w) => request.item(w));
    const sent = await ctx.send({ label: request.route, content: items }, chunk, items, (options) =>
      request.submit(items, options),
    );
    if ("error" in sent) {
      // The job failed as a whole (refused, interrupted, unreachable): every write gets its problem.
      await ctx.settle(chunk.map((write) => ({ write, outcome: { done: false, error: sent.error } })));
      continue;
    }
    const rows = new Map(sent.answer.rows.map((row) => [row.index, row]));
    await ctx.settle(
      chunk.map((write, i) => ({
        write,
        outcome: rowOutcome(rows.get(i), sent.answer, sent.replayed, request.source),
      })),
    );
  }
}

const doneStatuses = new Set(["created", "createdDisabled", "updated", "skipped", "deleted"]);

/** What a job's result row says of its item; the item's problem as its single call would have answered it. */
export function rowOutcome(
  row: JobResultRow | undefined,
  outcome: Pick<JobOutcome, "job">,
  replayed: boolean,
  source: string,
): ItemOutcome {
  const job = String(outcome.job.id);
  // Rows the job never reported may have happened: the next run finds out.
  if (!row) return { done: false, error: new Error(`job ${job} did not report this item`) };
  if (doneStatuses.has(row.status)) {
    const id = row.entityId === undefined || row.entityId === null ? undefined : String(row.entityId);
    return { done: true, id, status: row.status, receipt: row.result, replayed };
  }
  if (row.status === "failed") {
    const error = row.error
      ? itemError(row.error, `/items/${row.index}`, source)
      : new Error(`job ${job} failed this item without saying why`);
    const duplicate = duplicateOf(row.error);
    return { done: false, error, happened: false, ...(duplicate && { duplicate }) };
  }
  return { done: false, error: new Error(`job ${job} was cancelled before this item ran`), happened: false };
}
