import { createHash } from "node:crypto";
import type { JobKind } from "../../../kinds/job.ts";
import type { Ctx } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import type { Doc, Store } from "../../core/store.ts";

/**
 * What a delete-validate call saw, so that the delete can refuse a changed
 * selection even when its count is the same (one entity left the selection,
 * another joined). One small document per (account, delete kind, canonical
 * filter): it survives a restart with `--data`, and expires after an hour.
 */
export interface SelectionDoc extends Doc {
  kind: JobKind;
  /** sha256 of the selected ids, sorted. */
  digest: string;
  matched: number;
  expiresAt: number;
}

export const selectionCollection = "bulkDeleteSelection";
/** How long (sandbox seconds) a delete-validate call's selection is held against the delete. */
export const selectionRetention = 3600;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The parsed filter in one spelling: members sorted by name, any-of lists sorted and deduplicated. */
export function canonicalFilter(values: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(values)
      .sort()
      .map((name) => {
        const value = values[name];
        return [name, Array.isArray(value) ? [...new Set(value.map(String))].sort() : value];
      }),
  );
}

/** A selection of one delete kind, by one filter, in one account. */
export interface Selection {
  kind: JobKind;
  filterKey: string;
  ids: string[];
}

const selectionId = (ctx: Ctx, s: Selection) =>
  sha256(JSON.stringify([ctx.account!.id, s.kind, s.filterKey]));
const digestOf = (ids: string[]) => sha256([...ids].sort().join("\n"));

/** Records what the validate call selected, replacing an earlier record for the same filter. */
export function recordSelection(ctx: Ctx, selection: Selection): void {
  ctx.store.put<SelectionDoc>(selectionCollection, {
    id: selectionId(ctx, selection),
    accountId: ctx.account!.id,
    kind: selection.kind,
    digest: digestOf(selection.ids),
    matched: selection.ids.length,
    expiresAt: ctx.now + selectionRetention,
  });
}

/**
 * 409 `selection_mismatch` when the filter selects another count than
 * `expectedCount`, or the same count of other entities than the last
 * delete-validate call with this filter recorded. An accepted delete uses
 * the record up.
 */
export function assertSelection(ctx: Ctx, selection: Selection, expectedCount: number | undefined): void {
  if (expectedCount === undefined) {
    throw new ApiProblem(
      "validation_failed",
      "expectedCount is required: send the validate call's matched.",
      {
        errors: [{ pointer: "/expectedCount", reason: "required", message: "is required" }],
      },
    );
  }
  const matched = selection.ids.length;
  if (matched !== expectedCount) {
    throw new ApiProblem("selection_mismatch", `The filter matches ${matched}, not ${expectedCount}.`, {
      errors: [
        { pointer: "/expectedCount", reason: "count_changed", value: expectedCount, matched, expectedCount },
      ],
      extra: { matched, expectedCount },
    });
  }
  const id = selectionId(ctx, selection);
  const recorded = ctx.store.owned<SelectionDoc>(selectionCollection, ctx.account!.id, id);
  if (recorded && recorded.expiresAt > ctx.now && recorded.digest !== digestOf(selection.ids)) {
    throw new ApiProblem(
      "selection_mismatch",
      `The filter still matches ${matched}, but not the same ones as the validate call.`,
      {
        errors: [{ pointer: "/filter", reason: "members_changed", matched, expectedCount }],
        extra: { matched, expectedCount },
      },
    );
  }
  ctx.store.remove(selectionCollection, id);
}

/** Drops the records past their hour. */
export function purgeSelections(store: Store, now: number): void {
  for (const doc of store.scan<SelectionDoc>(selectionCollection)) {
    if (doc.expiresAt <= now) store.remove(selectionCollection, doc.id);
  }
}
