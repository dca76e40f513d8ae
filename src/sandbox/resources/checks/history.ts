import type { Ctx } from "../../core/operation.ts";
import type { Doc } from "../../core/store.ts";

/** Where simulated checks keep what they found: results (`res_`), state spans and incidents (`inc_`). */
export const resultCollection = "checkResult";
export const spanCollection = "stateSpan";
export const incidentCollection = "incident";

/** A stored row of check history; every row names its monitor. */
export interface HistoryDoc extends Doc {
  monitorId: string;
}

/**
 * `POST /monitor/{id}/reset-stats`: forgets a monitor's results, spans and
 * resolved incidents, so statistics start over. An open incident stays: the
 * monitor is still down, and its recovery must close it. Answers how many rows went.
 */
export function resetCheckHistory(ctx: Ctx, monitorId: string): number {
  let removed = 0;
  for (const collection of [resultCollection, spanCollection, incidentCollection]) {
    for (const row of ctx.store.all<HistoryDoc & { state?: string }>(collection, ctx.account!.id)) {
      if (row.monitorId !== monitorId || row.state === "open") continue;
      ctx.store.remove(collection, row.id);
      removed++;
    }
  }
  return removed;
}
