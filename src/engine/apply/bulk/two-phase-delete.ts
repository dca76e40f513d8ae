/** The safe two-phase bulk delete of monitors and contacts. */
import type { JobOutcome } from "../../../api/index.ts";
import { cascadedOf } from "../../kinds/index.ts";
import { stateAddressOf, type Work } from "../model.ts";
import { runChunk, type Submitted, settleRows } from "./jobs.ts";
import type { BulkApplier } from "./strategy.ts";

/**
 * The safe delete: validate the filter, check it selects exactly the objects
 * meant, then delete with `expectedCount`. Answers false (nothing deleted) when
 * the selection is not exactly ours, so the caller falls back to single calls.
 */
export async function twoPhaseDelete(
  applier: BulkApplier,
  label: string,
  group: readonly Work[],
  validate: () => Promise<{ matched: number }>,
  run: (
    count: number,
    key: string,
    onAccepted: (a: { jobId: string }) => Promise<void>,
  ) => Promise<JobOutcome>,
): Promise<boolean> {
  // The first phase costs a write of the quota: not spent on a delete that may not start.
  applier.journal.assertMayStart();
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
    return !applier.retract("selection_mismatch");
  }
  const byId = new Map(submitted.map((s) => [String(s.work.action.id), s]));
  const ordered = outcome.rows.map((row) => byId.get(String(row.entityId)));
  await settleRows(
    applier,
    "delete",
    ordered.filter((s): s is Submitted => s !== undefined),
    outcome.rows.map((row, index) => ({ ...row, index })).filter((_, i) => ordered[i] !== undefined),
    ({ work }, row) => {
      applier.noteCascaded(cascadedOf(work.action.kind, row.result));
      applier.journal.settle(stateAddressOf(work), undefined);
      applier.succeed(work, work.action.id);
    },
  );
  return true;
}
