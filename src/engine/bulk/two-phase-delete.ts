/** The safe two-phase bulk delete, for every route whose kind offers one (monitors, contacts). */
import { ApiError, type JobOutcome } from "../../api/index.ts";
import type { Row } from "../kinds/index.ts";
import { rowOutcome } from "./jobs.ts";
import type { BulkContext, BulkWrite, SendOptions } from "./route.ts";

export interface DeleteRequest {
  /** The route (`POST /monitor/bulk-delete`): the request's key derives from it. */
  route: string;
  /** What an item's own error names as its call: `monitor bulk delete`. */
  source: string;
  /** The filter, selecting these objects. */
  filter: Record<string, unknown>;
  /**
   * For a filter that can select other objects than these (a monitor's url filter can; an id filter cannot),
   * how to check what it selects: whether a live object is one (against a complete list), and the ids it
   * selects (listed when the validation's sample does not show them all).
   */
  selection?: { selects(row: Row): boolean; listed(): Promise<string[]> };
  validate(options: SendOptions): Promise<{ matched: number; sample: unknown[] }>;
  run(expectedCount: number, options: SendOptions): Promise<JobOutcome>;
}

/**
 * Validates the filter, checks it selects exactly these objects, then deletes with `expectedCount`. Answers
 * false, having deleted nothing, when the selection is not exactly these objects, could not be checked, or
 * changed in between (409 `selection_mismatch`): the single deletes then take over, since the first phase
 * changed nothing.
 */
export async function twoPhaseDelete<W extends BulkWrite>(
  ctx: BulkContext<W>,
  chunk: readonly Extract<W, { op: "delete" }>[],
  request: DeleteRequest,
): Promise<boolean> {
  const ids = new Set(chunk.map((w) => String(w.live.id)));
  const exactly = (seen: readonly string[]) => seen.length === ids.size && seen.every((id) => ids.has(id));
  const { selection } = request;
  const known = selection && ctx.complete(chunk[0]!.kind);
  // Checked against the complete list before anything is sent; without one, only where the caller reads.
  if (known && !exactly(known.filter((row) => selection.selects(row)).map((row) => String(row.id))))
    return false;
  if (selection && !known && !ctx.reads) return false;

  // The first phase costs a write of the quota: not spent on a delete that may not start.
  ctx.mayStart?.();
  let matched: number;
  let sample: unknown[];
  try {
    const key = ctx.keyFor(`${request.route}-validate`, chunk, request.filter);
    ({ matched, sample } = await request.validate({ idempotencyKey: key }));
  } catch {
    // The first phase changes nothing: whatever refused it, the single deletes take over and report their own failures.
    return false;
  }
  if (matched !== ids.size) return false;
  if (selection && !known) {
    const sampled = sample.map((row) => String((row as Row).id));
    if (!exactly(sampled.length >= matched ? sampled : await selection.listed())) return false;
  }

  const sent = await ctx.send(
    { label: request.route, content: request.filter },
    chunk,
    chunk.map(() => ({})),
    (options) => request.run(matched, options),
  );
  if ("error" in sent) {
    if (sent.error instanceof ApiError && sent.error.code === "selection_mismatch") return false;
    await ctx.settle(chunk.map((write) => ({ write, outcome: { done: false, error: sent.error } })));
    return true;
  }
  const rows = new Map(sent.answer.rows.map((row) => [String(row.entityId), row]));
  await ctx.settle(
    chunk.map((write) => ({
      write,
      outcome: rowOutcome(rows.get(String(write.live.id)), sent.answer, sent.replayed, request.source),
    })),
  );
  return true;
}
