import { z } from "zod";
import { field, jobCallback, type ProblemCodeName } from "../../../kinds/index.ts";
import type { Filter } from "../../core/list.ts";
import type { Ctx } from "../../core/operation.ts";
import { plans } from "../../core/plans.ts";
import { ApiProblem } from "../../core/problem.ts";
import { parseQuery, rawFromBody } from "../../core/query.ts";
import { accountOf } from "../accounts.ts";
import { asProblem, type JobProcessor, underPointer } from "./processor.ts";

/**
 * What every bulk route shares: the envelope of items, the item limit, the
 * validate variants, and the two-phase delete's selection by list filter.
 */

/** Codes every job-creating route can answer besides its items' own. */
export const jobRouteErrors: ProblemCodeName[] = ["validation_failed", "idempotency_key_required"];

/** `{items: [...], callback?}`: items are judged one by one later, so a bad item fails alone. */
export const itemsBody = z.strictObject({
  items: field(z.array(z.unknown()).min(1), {
    description: "Up to limits.maxBulkItems item bodies; each is judged like the single route's body.",
  }),
  callback: jobCallback.optional(),
});
export type ItemsBody = z.infer<typeof itemsBody>;

/** `{filter, expectedCount}` of a two-phase delete; both checked by the handler, so a missing filter answers `filter_required`. */
export const deleteBody = z.strictObject({
  filter: field(z.record(z.string(), z.unknown()), {
    description: "Any list filter of the /q route.",
  }).optional(),
  expectedCount: field(z.number().int().min(0), {
    description: "The `matched` of the validate call; another count answers 409 selection_mismatch.",
  }).optional(),
  callback: jobCallback.optional(),
});
export type DeleteBody = z.infer<typeof deleteBody>;

export const deleteValidateBody = z.strictObject({
  filter: field(z.record(z.string(), z.unknown()), {
    description: "Any list filter of the /q route.",
  }).optional(),
});

export const validateAnswer = z.strictObject({
  valid: field(z.number().int().min(0), { description: "Items that would be accepted." }),
  invalid: field(
    z.array(z.strictObject({ index: z.number().int().min(0), error: z.record(z.string(), z.unknown()) })),
    { description: "Each refused item with the problem document the single route would answer." },
  ),
});

export const deleteValidateAnswer = z.strictObject({
  matched: field(z.number().int().min(0), { description: "Send as expectedCount." }),
  sample: field(z.array(z.record(z.string(), z.unknown())), { description: "Up to 10 matched rows." }),
});

/** `too_many_items` beyond the plan's `limits.maxBulkItems`. */
export function assertItemCount(ctx: Ctx, count: number, pointer: string): void {
  const max = plans[accountOf(ctx).plan].limits.maxBulkItems;
  if (count > max) {
    throw new ApiProblem("too_many_items", `At most ${max} items per bulk request.`, {
      errors: [{ pointer, value: count, maximum: max }],
    });
  }
}

/**
 * Runs every item through the processor inside one dry run: each item sees
 * the ones before it (a duplicate within the body, the plan filling up), and
 * nothing is kept.
 */
export function validateItems(
  ctx: Ctx,
  processor: JobProcessor,
  items: readonly unknown[],
  instance: string,
  params: Record<string, unknown> = {},
) {
  const invalid: Array<{ index: number; error: Record<string, unknown> }> = [];
  ctx.store.dryRun(() => {
    items.forEach((input, index) => {
      try {
        processor.run(ctx, input, index, params);
      } catch (error) {
        invalid.push({ index, error: asProblem(error).toDocument(ctx.baseUrl, instance) });
      }
    });
  });
  // The dry run took back any sync sequence it drew; read the account as it is.
  ctx.account = ctx.store.get("account", ctx.account!.id);
  return { valid: items.length - invalid.length, invalid };
}

/**
 * The rows a delete filter selects, with the list's own filter definitions.
 * No filter, or an empty one, answers `filter_required`: a bulk delete never
 * means "everything" by omission.
 */
export function selectRows<Row>(
  ctx: Ctx,
  rows: Row[],
  filters: Record<string, Filter<Row>>,
  filter: Record<string, unknown> | undefined,
): Row[] {
  if (!filter || Object.keys(filter).length === 0) {
    throw new ApiProblem("filter_required", "A bulk delete needs a non-empty filter.", {
      errors: [{ pointer: "/filter", reason: "required", allowed: Object.keys(filters) }],
    });
  }
  const params = Object.fromEntries(Object.entries(filters).map(([name, f]) => [name, f.param]));
  let values: Record<string, unknown>;
  try {
    values = parseQuery(rawFromBody(filter), params, true);
  } catch (error) {
    throw error instanceof ApiProblem ? underPointer(error, "/filter") : error;
  }
  return rows.filter((row) =>
    Object.entries(values).every(([name, value]) => filters[name]!.match(row, value as never, ctx)),
  );
}

/** 409 `selection_mismatch` when the filter no longer matches what the validate call counted. */
export function assertSelection(matched: number, expectedCount: number | undefined): void {
  if (expectedCount === undefined) {
    throw new ApiProblem(
      "validation_failed",
      "expectedCount is required: send the validate call's matched.",
      {
        errors: [{ pointer: "/expectedCount", reason: "required", message: "is required" }],
      },
    );
  }
  if (matched !== expectedCount) {
    throw new ApiProblem("selection_mismatch", `The filter matches ${matched}, not ${expectedCount}.`, {
      errors: [{ pointer: "/expectedCount", value: expectedCount, matched, expectedCount }],
      extra: { matched, expectedCount },
    });
  }
}
