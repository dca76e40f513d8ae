import { jobItemStatuses, jobStates } from "../../../kinds/index.ts";
import { jobAccepted, jobKind, jobKinds, jobSchema } from "../../../kinds/job.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations, type Operation } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import { contactBulkOperations } from "./contact-bulk.ts";
import {
  acceptedReply,
  cancelPending,
  finishJob,
  holdsJobScopes,
  isTerminal,
  type JobDoc,
  jobCollection,
  putJob,
  renderJob,
  requireJob,
  resultsPage,
  retryAfter,
} from "./model.ts";
import { monitorBulkOperations } from "./monitor-bulk.ts";

/** Fresh on every non-terminal answer; a terminal job carries none. */
const pollHeaders = (job: JobDoc): Record<string, string> =>
  isTerminal(job.state) ? {} : { "Retry-After": retryAfter(job) };

function jobWithResults(ctx: Ctx, job: JobDoc, query: Record<string, unknown>) {
  const page = resultsPage(ctx, job, {
    limit: query.limit as number | undefined,
    cursor: query.cursor as string | undefined,
    statuses: query.status as string[] | undefined,
  });
  return {
    ...renderJob(job),
    results: page.rows,
    resultsNextCursor: page.nextCursor,
    resultsHasMore: page.hasMore,
  };
}

/**
 * Job routes need the scopes of the operation that created each job; the
 * handler checks them (`scopeByHandler`), `scope` only picks the quota
 * windows. The list shows the jobs whose scopes the token holds.
 */
const jobRoutes: Operation[] = defineOperations(
  ...listOperations<JobDoc>({
    id: "job.list",
    path: "/job",
    kind: jobKind,
    summary: "List jobs whose creating operation's scopes the token holds (kept 7 days).",
    scope: "account:read",
    rows: (ctx) =>
      ctx.store
        .all<JobDoc>(jobCollection, ctx.account!.id)
        .filter((job) => job.expiresAt > ctx.now && holdsJobScopes(ctx, job)),
    rowId: (job) => job.id,
    filters: {
      state: {
        param: { type: "enum", values: jobStates, list: true, description: "Any of these states." },
        match: (job, states: string[]) => states.includes(job.state),
      },
      kind: {
        param: { type: "enum", values: jobKinds, list: true, description: "Any of these kinds." },
        match: (job, kinds: string[]) => kinds.includes(job.kind),
      },
    },
    sort: { columns: { created: { key: (job) => job.created, time: true } }, default: "created" },
    render: (_ctx, job) => renderJob(job),
  }).map((op) => ({ ...op, scopeByHandler: true })),
  {
    id: "job.get",
    method: "GET",
    path: "/job/{id}",
    summary: "Read a job with one page of its result rows; non-terminal answers carry Retry-After.",
    scope: "account:read",
    scopeByHandler: true,
    query: {
      limit: { type: "int", min: 1, max: 500, description: "Result rows per page, 1-500 (default 50)." },
      cursor: { type: "string", description: "The previous answer's resultsNextCursor." },
      status: {
        type: "enum",
        values: jobItemStatuses,
        list: true,
        description: "Only result rows of these statuses.",
      },
    },
    errors: [
      "not_found",
      "missing_scope",
      "invalid_limit",
      "invalid_cursor",
      "unknown_parameter",
      "unknown_enum_value",
    ],
    response: { status: 200, description: "The job and a page of its results.", schema: jobSchema },
    handle: (ctx, req) => {
      const job = requireJob(ctx, req.params.id!);
      return { status: 200, headers: pollHeaders(job), body: jobWithResults(ctx, job, req.query) };
    },
  },
  {
    id: "job.cancel",
    method: "POST",
    path: "/job/{id}/cancel",
    summary: "Cancel a job: items not yet processed are cancelled, processed ones stay.",
    scope: "account:write",
    scopeByHandler: true,
    idempotency: "required",
    errors: ["not_found", "missing_scope", "job_not_cancellable", "idempotency_key_required"],
    response: { status: 200, description: "The cancelled job.", schema: jobSchema },
    handle: (ctx, req) => {
      const job = requireJob(ctx, req.params.id!);
      if (isTerminal(job.state)) {
        throw new ApiProblem("job_not_cancellable", `The job has already finished (${job.state}).`, {
          errors: [{ value: job.state, reason: "terminal" }],
        });
      }
      const cancelled = finishJob(ctx, cancelPending(ctx, job), true);
      return { status: 200, body: jobWithResults(ctx, cancelled, {}) };
    },
  },
  {
    id: "job.resume",
    method: "POST",
    path: "/job/{id}/resume",
    summary: "Continue a job the sandbox interrupted when it stopped.",
    scope: "account:write",
    scopeByHandler: true,
    idempotency: "required",
    errors: ["not_found", "missing_scope", "job_not_resumable", "idempotency_key_required"],
    response: { status: 202, description: "The job continues: poll Location.", schema: jobAccepted },
    handle: (ctx, req) => {
      const job = requireJob(ctx, req.params.id!);
      if (job.state !== "interrupted") {
        throw new ApiProblem("job_not_resumable", `Only interrupted jobs resume; this one is ${job.state}.`, {
          errors: [{ value: job.state, allowed: ["interrupted"] }],
        });
      }
      // Only a running job is interrupted at start-up, so it picks up where it stopped.
      const resumed = putJob(ctx.store, { ...job, state: "running" });
      return acceptedReply(resumed);
    },
  },
);

/** Jobs, and the bulk routes of monitors and contacts that create them. */
export const jobOperations: Operation[] = [...jobRoutes, ...monitorBulkOperations, ...contactBulkOperations];
