/** The safe two-phase bulk delete of monitors and contacts. */
import { ApiError, itemError, type JobOutcome } from "../../api/index.ts";
import type { BatchContext, DeleteWrite } from "../batch-contract.ts";
import type { Row } from "../kinds/index.ts";
import { ownKey } from "./route.ts";

/** A two-phase delete costs two writes: for two objects, their single deletes cost as much, with no job. */
export const twoPhaseMinimum = 3;

/**
 * The two-phase delete: validate the filter, check it selects exactly these objects, then delete with
 * `expectedCount`. When the selection is not exactly ours, or changed in between, the single deletes
 * take over: the first phase changed nothing.
 */
export async function twoPhaseDelete(
  ctx: BatchContext,
  chunk: readonly DeleteWrite[],
  route: string,
  phases: {
    validate(key: string): Promise<{ matched: number; sample: unknown[] }>;
    /** The ids the filter selects, when the sample may not show them all; absent for a filter of ids. */
    selected?(): Promise<string[]>;
    run(expectedCount: number, key: string): Promise<JobOutcome>;
  },
): Promise<void> {
  const singles = () => Promise.all(chunk.map((w) => ctx.single(w)));
  const ids = new Set(chunk.map((w) => String(w.live.id)));
  const key = ctx.keyFor(route, chunk.map(ownKey));
  let matched: number;
  let sample: unknown[];
  try {
    ({ matched, sample } = await phases.validate(`${key}-validate`));
  } catch {
    await singles();
    return;
  }
  if (matched !== ids.size) {
    await singles();
    return;
  }
  if (phases.selected) {
    const sampled = sample.map((row) => String((row as Row).id));
    const seen = sampled.length >= matched ? sampled : await phases.selected();
    if (seen.length !== ids.size || seen.some((id) => !ids.has(id))) {
      await singles();
      return;
    }
  }
  let outcome: JobOutcome;
  try {
    outcome = await phases.run(matched, key);
  } catch (error) {
    if (error instanceof ApiError && error.code === "selection_mismatch") await singles();
    else for (const w of chunk) w.reject(error);
    return;
  }
  const rows = new Map(outcome.rows.map((row) => [String(row.entityId), row]));
  for (const w of chunk) {
    const row = rows.get(String(w.live.id));
    // `skipped`: deleted by someone else meanwhile, which is what was asked.
    if (row?.status === "deleted" || row?.status === "skipped") w.resolve();
    else if (row?.status === "failed") w.reject(itemError(row.error ?? {}, `/items/${row.index}`, route));
    else w.reject(new Error(`job ${outcome.job.id} did not delete ${w.live.id}`));
  }
}
