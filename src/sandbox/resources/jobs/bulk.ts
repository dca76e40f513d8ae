import { z } from "zod";
import { field, type LeafScope, type ProblemCodeName } from "../../../kinds/index.ts";
import { type JobKind, jobAccepted, jobCallback } from "../../../kinds/job.ts";
import type { Filter } from "../../core/list.ts";
import type { Ctx, Operation, Reply } from "../../core/operation.ts";
import { plans } from "../../core/plans.ts";
import { ApiProblem } from "../../core/problem.ts";
import { parseQuery, rawFromBody } from "../../core/query.ts";
import type { Doc } from "../../core/store.ts";
import { accountOf } from "../accounts.ts";
import { acceptedReply, assertCallback, createJob } from "./model.ts";
import { asProblem, type JobProcessor, underPointer } from "./processor.ts";
import { assertSelection, canonicalFilter, recordSelection } from "./selection.ts";

/**
 * What every bulk route shares: the envelope of items, the item limit, the
 * validate variants, the job-creating item routes, and the two-phase delete
 * with its selection by list filter.
 */

/** Codes every job-creating route can answer besides its items' own. */
export const jobRouteErrors: ProblemCodeName[] = ["validation_failed", "idempotency_key_required"];

/** `{items: [...], callback?}`: items are judged one by one later, so a bad item fails alone. */
const itemsBody = z.strictObject({
  items: field(z.array(z.unknown()).min(1), {
    description: "Up to limits.maxBulkItems item bodies; each is judged like the single route's body.",
  }),
  callback: jobCallback.optional(),
});
export type ItemsBody = z.infer<typeof itemsBody>;

const deleteFilter = field(z.record(z.string(), z.unknown()), {
  description: "Any list filter of the /q route.",
}).optional();

/** `{filter, expectedCount}` of a two-phase delete; both checked by the handler, so a missing filter answers `filter_required`. */
const deleteBody = z.strictObject({
  filter: deleteFilter,
  expectedCount: field(z.number().int().min(0), {
    description: "The `matched` of the validate call; another count answers 409 selection_mismatch.",
  }).optional(),
  callback: jobCallback.optional(),
});
type DeleteBody = z.infer<typeof deleteBody>;

const deleteValidateBody = z.strictObject({ filter: deleteFilter });

const validateAnswer = z.strictObject({
  valid: field(z.number().int().min(0), { description: "Items that would be accepted." }),
  invalid: field(
    z.array(z.strictObject({ index: z.number().int().min(0), error: z.record(z.string(), z.unknown()) })),
    { description: "Each refused item with the problem document the single route would answer." },
  ),
});

const deleteValidateAnswer = z.strictObject({
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

/** A delete selecting more than `limits.maxBulkItems` entities is refused as an item list that long would be. */
function assertMatchedCount(ctx: Ctx, matched: number): void {
  const max = plans[accountOf(ctx).plan].limits.maxBulkItems;
  if (matched > max) {
    throw new ApiProblem(
      "too_many_items",
      `The filter matches ${matched}; a bulk delete takes at most ${max}.`,
      {
        errors: [{ pointer: "/filter", reason: "too_many_matched", matched, maximum: max }],
        extra: { matched, maximum: max },
      },
    );
  }
}

/**
 * Runs every item through the processor inside one dry run: each item sees
 * the ones before it (a duplicate within the body, the plan filling up), and
 * nothing is kept.
 */
function validateItems(
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

export const acceptedResponse = { status: 202, description: "The job: poll Location.", schema: jobAccepted };

/** The item routes of one job kind: the job-creating route and its validate variant. */
export interface ItemsRoutes {
  /** The job kind, also the id of the job-creating operation. */
  kind: JobKind;
  validateId: string;
  /** The job-creating route; validate answers its failures with this `instance`. */
  path: string;
  validatePath: string;
  summary: string;
  validateSummary: string;
  scope: LeafScope;
  /** Further scopes a body needs; the job keeps them beside `scope`. */
  extraScopes?: (body: unknown) => LeafScope[];
  processor: JobProcessor;
  /** The item member that names an item in its result row (`url`, `id`, `address`). */
  itemRef: string;
}

/** Queues a job of one item per body item, after the envelope's checks. */
function startItemsJob(ctx: Ctx, routes: ItemsRoutes, body: ItemsBody): Reply {
  assertItemCount(ctx, body.items.length, "/items");
  assertCallback(ctx, body.callback);
  const job = createJob(ctx, {
    kind: routes.kind,
    scopes: [routes.scope, ...(routes.extraScopes?.(body) ?? [])],
    items: body.items.map((input) => {
      const ref =
        input !== null && typeof input === "object"
          ? (input as Record<string, unknown>)[routes.itemRef]
          : undefined;
      return { input, itemRef: typeof ref === "string" ? ref : null };
    }),
    callback: body.callback,
  });
  return acceptedReply(job);
}

/** The validate variant: every item judged as the job would, nothing kept, no job. */
function validateOperation(routes: ItemsRoutes): Operation {
  return {
    id: routes.validateId,
    method: "POST",
    path: routes.validatePath,
    summary: routes.validateSummary,
    scope: routes.scope,
    ...(routes.extraScopes && { extraScopes: routes.extraScopes }),
    body: itemsBody,
    errors: ["validation_failed", "too_many_items"],
    response: {
      status: 200,
      description: "Valid count and each refused item's problem.",
      schema: validateAnswer,
    },
    handle: (ctx, req) => {
      const body = req.body as ItemsBody;
      assertItemCount(ctx, body.items.length, "/items");
      assertCallback(ctx, body.callback);
      return { status: 200, body: validateItems(ctx, routes.processor, body.items, routes.path) };
    },
  };
}

/** The validate variant and the job-creating route of one job kind. */
export function itemsOperations(routes: ItemsRoutes): Operation[] {
  return [
    validateOperation(routes),
    {
      id: routes.kind,
      method: "POST",
      path: routes.path,
      summary: routes.summary,
      scope: routes.scope,
      ...(routes.extraScopes && { extraScopes: routes.extraScopes }),
      idempotency: "required",
      body: itemsBody,
      errors: [...jobRouteErrors, "too_many_items"],
      response: acceptedResponse,
      handle: (ctx, req) => startItemsJob(ctx, routes, req.body as ItemsBody),
    },
  ];
}

/**
 * The rows a delete filter selects, with the list's own filter definitions,
 * and the filter in one spelling. No filter, or an empty one, answers
 * `filter_required`: a bulk delete never means "everything" by omission.
 */
function selectRows<Row>(
  ctx: Ctx,
  rows: Row[],
  filters: Record<string, Filter<Row>>,
  filter: Record<string, unknown> | undefined,
): { rows: Row[]; filterKey: string } {
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
  return {
    rows: rows.filter((row) =>
      Object.entries(values).every(([name, value]) => filters[name]!.match(row, value as never, ctx)),
    ),
    filterKey: canonicalFilter(values),
  };
}

/** The two-phase delete of one kind of entity. */
export interface BulkDeleteRoutes<Row extends Doc & { created: number }> {
  /** The job kind, also the id of the delete operation. */
  kind: JobKind;
  validateId: string;
  /** The delete route; the validate route is this path with `-validate`. */
  path: string;
  /** What is deleted, in the summaries ("monitors"). */
  noun: string;
  scope: LeafScope;
  collection: string;
  filters: Record<string, Filter<Row>>;
  /** A matched row as the sample shows it. */
  sampleRow: (row: Row) => Record<string, unknown>;
}

/** The selection of a delete filter: the account's rows, oldest first. */
function selection<Row extends Doc & { created: number }>(
  ctx: Ctx,
  routes: BulkDeleteRoutes<Row>,
  filter: Record<string, unknown> | undefined,
) {
  const all = ctx.store.all<Row>(routes.collection, ctx.account!.id).sort((a, b) => a.created - b.created);
  const { rows, filterKey } = selectRows(ctx, all, routes.filters, filter);
  assertMatchedCount(ctx, rows.length);
  return { rows, filterKey, ids: rows.map((row) => row.id), kind: routes.kind };
}

const selectionErrors: ProblemCodeName[] = [
  "filter_required",
  "too_many_items",
  "unknown_parameter",
  "unknown_enum_value",
];

/**
 * `…-delete-validate {filter}` (counts, samples and records the selection)
 * and `…-delete {filter, expectedCount}` (deletes it when unchanged).
 */
export function bulkDeleteOperations<Row extends Doc & { created: number }>(
  routes: BulkDeleteRoutes<Row>,
): Operation[] {
  return [
    {
      id: routes.validateId,
      method: "POST",
      path: `${routes.path}-validate`,
      summary: `Count the ${routes.noun} a delete filter selects (phase one of a bulk delete).`,
      scope: routes.scope,
      body: deleteValidateBody,
      errors: ["validation_failed", ...selectionErrors],
      response: {
        status: 200,
        description: "matched, and a sample of the selection.",
        schema: deleteValidateAnswer,
      },
      handle: (ctx, req) => {
        const selected = selection(ctx, routes, (req.body as DeleteBody).filter);
        recordSelection(ctx, selected);
        return {
          status: 200,
          body: { matched: selected.rows.length, sample: selected.rows.slice(0, 10).map(routes.sampleRow) },
        };
      },
    },
    {
      id: routes.kind,
      method: "POST",
      path: routes.path,
      summary: `Delete the ${routes.noun} a filter selects, when it still selects what the validate call counted (phase two).`,
      scope: routes.scope,
      idempotency: "required",
      body: deleteBody,
      errors: [...jobRouteErrors, ...selectionErrors, "selection_mismatch"],
      response: acceptedResponse,
      handle: (ctx, req) => {
        const body = req.body as DeleteBody;
        const selected = selection(ctx, routes, body.filter);
        assertSelection(ctx, selected, body.expectedCount);
        assertCallback(ctx, body.callback);
        const job = createJob(ctx, {
          kind: routes.kind,
          scopes: [routes.scope],
          items: selected.ids.map((id) => ({ input: id, itemRef: id })),
          callback: body.callback,
        });
        return acceptedReply(job);
      },
    },
  ];
}
