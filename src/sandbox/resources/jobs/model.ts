import {
  jobItemStatuses,
  type LeafScope,
  retiredScopes,
  scopeSatisfies,
  terminalJobStates,
} from "../../../kinds/index.ts";
import type { JobItemStatus, JobKind, JobState } from "../../../kinds/job.ts";
import { newGuid } from "../../core/ids.ts";
import type { Ctx, Reply } from "../../core/operation.ts";
import { ApiProblem, invalid, notFound } from "../../core/problem.ts";
import type { Doc, Store } from "../../core/store.ts";
import { emitCallback } from "../webhooks/events.ts";
import { type WebhookDoc, webhookCollection } from "../webhooks/model.ts";

/**
 * Asynchronous jobs: what bulk operations, large copies and statistics resets
 * answer with. A job is one small document (state, counters); its items live
 * beside it as one document each, so processing an item rewrites two small
 * documents rather than a job of thousands of rows.
 */
export interface JobDoc extends Doc {
  kind: JobKind;
  state: JobState;
  /** The scopes of the operation that created the job: every job route needs them all. */
  scopes: LeafScope[];
  /** Settings of the whole job (for example the copied monitor). */
  params: Record<string, unknown>;
  /** The next item to process; items run in index order. */
  nextIndex: number;
  progress: { done: number; total: number };
  /** Counts of processed items per status; pending ones are `total - done`. */
  counts: Partial<Record<JobItemStatus, number>>;
  created: number;
  startedAt: number | null;
  finishedAt: number | null;
  expiresAt: number;
  callback: JobCallback | null;
  /** When the last `job.progress` went out (sandbox clock), for throttling. */
  lastProgressAt: number | null;
  error: Record<string, unknown> | null;
}

export interface JobCallback {
  webhookId: string;
  on?: "progress";
}

/** One item of a job: its input while pending, and once processed (or cancelled), its result row. */
export interface JobItemDoc extends Doc {
  jobId: string;
  index: number;
  /** The item as sent; dropped once the item is settled, as it may carry credentials. */
  input?: unknown;
  itemRef: string | null;
  status: JobItemStatus;
  entityId: string | null;
  result: unknown;
  error: Record<string, unknown> | null;
}

export const jobCollection = "job";
export const jobItemCollection = "jobItem";
/**
 * One `RunnableJobDoc` (keyed by the job id) per queued or running job: what
 * the runner scans, so it never reads the finished jobs kept for 7 days. It
 * lives in the store, so transactions and the data file keep it in step.
 */
export const runnableJobCollection = "jobRunnable";

export interface RunnableJobDoc extends Doc {
  created: number;
}
/** Jobs stay readable 7 days from creation, then answer 404 and are purged. */
export const jobRetention = 7 * 86400;
/** Result rows in a page of `GET /job/{id}` and in the `job.completed` callback, unless `limit` says otherwise. */
export const defaultResultsPage = 50;
/** `job.progress` goes out at most this often (sandbox seconds) while a job runs. */
export const progressEverySec = 5;

export const itemDocId = (jobId: string, index: number) => `${jobId}:${index}`;

export const isTerminal = (state: JobState) => (terminalJobStates as readonly string[]).includes(state);

export const isRunnable = (job: JobDoc) => job.state === "queued" || job.state === "running";

/** Keeps the job's entry in the runnable index in step with its state; writes only on a change. */
export function indexJob(store: Store, job: JobDoc): void {
  if (!isRunnable(job)) store.remove(runnableJobCollection, job.id);
  else if (!store.get(runnableJobCollection, job.id)) {
    store.put<RunnableJobDoc>(runnableJobCollection, {
      id: job.id,
      accountId: job.accountId,
      created: job.created,
    });
  }
}

/** Writes a job: every change of a job goes through here, so the runnable index follows its state. */
export function putJob(store: Store, job: JobDoc): JobDoc {
  store.put<JobDoc>(jobCollection, job);
  indexJob(store, job);
  return job;
}

/** A job that still exists and has not passed its 7 days. */
export function liveJob(ctx: Ctx, id: string): JobDoc | undefined {
  const job = ctx.store.owned<JobDoc>(jobCollection, ctx.account!.id, id);
  return job && job.expiresAt > ctx.now ? job : undefined;
}

/** The scopes the caller's token holds (retired names satisfy nothing). */
function grantedScopes(ctx: Ctx): string[] {
  return (ctx.claims?.scp ?? []).filter((s) => !(retiredScopes as readonly string[]).includes(s));
}

/** The first of the job's scopes the caller's token does not hold, if any. */
function missingJobScope(ctx: Ctx, job: JobDoc): LeafScope | undefined {
  const granted = grantedScopes(ctx);
  return job.scopes.find((s) => !scopeSatisfies(granted, s));
}

export const holdsJobScopes = (ctx: Ctx, job: JobDoc): boolean => missingJobScope(ctx, job) === undefined;

/** The job for a job route: 404 when missing or expired, 403 `missing_scope` without the creating operation's scopes. */
export function requireJob(ctx: Ctx, id: string): JobDoc {
  const job = liveJob(ctx, id);
  if (!job) throw notFound("job", id);
  const required = missingJobScope(ctx, job);
  if (required) {
    throw new ApiProblem("missing_scope", `This job was created by an operation that needs ${required}.`, {
      errors: [{ required, granted: grantedScopes(ctx) }],
    });
  }
  return job;
}

/** A callback must name a webhook of this account; checked when the job is requested. */
export function assertCallback(ctx: Ctx, callback: JobCallback | undefined): void {
  if (!callback) return;
  if (!ctx.store.owned<WebhookDoc>(webhookCollection, ctx.account!.id, callback.webhookId)) {
    throw invalid([
      {
        pointer: "/callback/webhookId",
        value: callback.webhookId,
        reason: "not_found",
        message: "no webhook with this id in the account",
      },
    ]);
  }
}

/** Creates a queued job with its items; the background runner picks it up once the request commits. */
export function createJob(
  ctx: Ctx,
  options: {
    kind: JobKind;
    scopes: LeafScope[];
    items: Array<{ input: unknown; itemRef?: string | null }>;
    params?: Record<string, unknown>;
    callback?: JobCallback;
  },
): JobDoc {
  const id = newGuid();
  const accountId = ctx.account!.id;
  options.items.forEach((item, index) => {
    ctx.store.put<JobItemDoc>(jobItemCollection, {
      id: itemDocId(id, index),
      accountId,
      jobId: id,
      index,
      input: item.input,
      itemRef: item.itemRef ?? null,
      status: "pending",
      entityId: null,
      result: undefined,
      error: null,
    });
  });
  const job = putJob(ctx.store, {
    id,
    accountId,
    kind: options.kind,
    state: "queued",
    scopes: options.scopes,
    params: options.params ?? {},
    nextIndex: 0,
    progress: { done: 0, total: options.items.length },
    counts: {},
    created: ctx.now,
    startedAt: null,
    finishedAt: null,
    expiresAt: ctx.now + jobRetention,
    callback: options.callback ?? null,
    lastProgressAt: null,
    error: null,
  });
  return emitProgress(ctx, job);
}

/** How long a poller should wait: about a second per 200 items left, 1 to 10 seconds. */
export function retryAfter(job: JobDoc): string {
  const left = job.progress.total - job.progress.done;
  return String(Math.min(10, Math.max(1, Math.ceil(left / 200))));
}

/** The 202 answer of every job-creating operation (and of resume). */
export function acceptedReply(job: JobDoc): Reply {
  return {
    status: 202,
    headers: { Location: `/job/${job.id}`, "Retry-After": retryAfter(job) },
    body: { jobId: job.id, accepted: job.progress.total - job.progress.done },
  };
}

/** Item counts per status, every status named. */
export function summaryOf(job: JobDoc): Record<JobItemStatus, number> {
  const summary = Object.fromEntries(jobItemStatuses.map((s) => [s, job.counts[s] ?? 0])) as Record<
    JobItemStatus,
    number
  >;
  summary.pending = job.progress.total - job.progress.done;
  return summary;
}

export function renderRow(item: JobItemDoc): Record<string, unknown> {
  return {
    index: item.index,
    ...(item.itemRef !== null && { itemRef: item.itemRef }),
    status: item.status,
    entityId: item.entityId,
    ...(item.result !== undefined && { result: item.result }),
    ...(item.error && { error: item.error }),
  };
}

interface ResultsCursor {
  j: string;
  i: number;
  s: string[];
}

/**
 * One page of a job's result rows in index order, optionally only some
 * statuses. The cursor is bound to the job and the status filter.
 */
export function resultsPage(
  ctx: Ctx,
  job: JobDoc,
  options: { limit?: number; cursor?: string; statuses?: string[] } = {},
) {
  const statuses = options.statuses ?? [];
  const limit = options.limit ?? defaultResultsPage;
  let start = 0;
  if (options.cursor !== undefined) {
    const c = ctx.services.cursors.decode<ResultsCursor>(options.cursor, "cursor");
    if (c.j !== job.id || JSON.stringify(c.s) !== JSON.stringify(statuses)) {
      throw new ApiProblem("invalid_cursor", "The cursor belongs to another job or status filter.", {
        errors: [{ pointer: "/cursor", parameter: "cursor", reason: "foreign" }],
      });
    }
    start = c.i + 1;
  }
  const rows: JobItemDoc[] = [];
  let hasMore = false;
  for (let i = start; i < job.progress.total; i++) {
    const item = ctx.store.get<JobItemDoc>(jobItemCollection, itemDocId(job.id, i));
    if (!item || (statuses.length > 0 && !statuses.includes(item.status))) continue;
    if (rows.length === limit) {
      hasMore = true;
      break;
    }
    rows.push(item);
  }
  const last = rows.at(-1);
  const nextCursor =
    hasMore && last
      ? ctx.services.cursors.encode({ j: job.id, i: last.index, s: statuses } satisfies ResultsCursor)
      : null;
  return { rows: rows.map(renderRow), nextCursor, hasMore };
}

/** The job as the list shows it: everything but the result rows. */
export function renderJob(job: JobDoc): Record<string, unknown> {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    progress: job.progress,
    summary: summaryOf(job),
    created: job.created,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
    expiresAt: job.expiresAt,
    callback: job.callback,
    error: job.error,
  };
}

/** Queues `job.progress` when the callback asks for it: on queueing, on starting, then at most every few seconds. */
export function emitProgress(ctx: Ctx, job: JobDoc): JobDoc {
  if (job.callback?.on !== "progress" || (job.state !== "queued" && job.state !== "running")) return job;
  const starting = job.state === "running" && job.progress.done === 1;
  if (!starting && job.lastProgressAt !== null && ctx.now - job.lastProgressAt < progressEverySec) return job;
  emitCallback(
    ctx,
    job.callback.webhookId,
    "job.progress",
    { jobId: job.id, kind: job.kind, state: job.state, summary: summaryOf(job), progress: job.progress },
    job.id,
  );
  return putJob(ctx.store, { ...job, lastProgressAt: ctx.now });
}

/** Queues `job.completed` with the first page of results. */
function emitCompleted(ctx: Ctx, job: JobDoc): void {
  if (!job.callback) return;
  const page = resultsPage(ctx, job);
  const resultsUrl = `${ctx.baseUrl}/job/${job.id}${page.nextCursor ? `?cursor=${page.nextCursor}` : ""}`;
  emitCallback(
    ctx,
    job.callback.webhookId,
    "job.completed",
    {
      jobId: job.id,
      kind: job.kind,
      state: job.state,
      summary: summaryOf(job),
      progress: job.progress,
      created: job.created,
      finishedAt: job.finishedAt,
      ...(job.error && { error: job.error }),
      results: page.rows,
      resultsTruncated: page.hasMore,
      resultsUrl,
    },
    job.id,
  );
}

/**
 * An item's result row in place of its input: only pending items keep their
 * input (resume needs it), so bodies with write-only credentials or inline
 * contacts are not stored for the job's 7 days.
 */
export function settleItem(
  ctx: Ctx,
  item: JobItemDoc,
  row: Pick<JobItemDoc, "status" | "entityId" | "result" | "error">,
): void {
  const { input: _input, ...kept } = item;
  ctx.store.put<JobItemDoc>(jobItemCollection, { ...kept, ...row });
}

/** Marks every item not yet processed `cancelled`. */
export function cancelPending(ctx: Ctx, job: JobDoc): JobDoc {
  let cancelled = 0;
  for (let i = job.nextIndex; i < job.progress.total; i++) {
    const item = ctx.store.get<JobItemDoc>(jobItemCollection, itemDocId(job.id, i));
    if (!item) continue;
    settleItem(ctx, item, { status: "cancelled", entityId: null, result: undefined, error: null });
    cancelled++;
  }
  return putJob(ctx.store, {
    ...job,
    nextIndex: job.progress.total,
    progress: { ...job.progress, done: job.progress.done + cancelled },
    counts: { ...job.counts, cancelled: (job.counts.cancelled ?? 0) + cancelled },
  });
}

/**
 * Ends a job: `cancelled` when asked, else `succeeded` (every item ok),
 * `failed` (no item ok) or `partial`. A failed job carries its first
 * failure as `error`. Emits `job.completed` to the callback.
 */
export function finishJob(ctx: Ctx, job: JobDoc, cancelled = false): JobDoc {
  const failed = job.counts.failed ?? 0;
  const skippedByStop = job.counts.cancelled ?? 0;
  const ok = job.progress.total - failed - skippedByStop;
  const state: JobState = cancelled
    ? "cancelled"
    : failed === 0 && skippedByStop === 0
      ? "succeeded"
      : ok === 0
        ? "failed"
        : "partial";
  let error: Record<string, unknown> | null = null;
  if (state === "failed") {
    for (let i = 0; i < job.progress.total && !error; i++) {
      error = ctx.store.get<JobItemDoc>(jobItemCollection, itemDocId(job.id, i))?.error ?? null;
    }
  }
  const done = putJob(ctx.store, {
    ...job,
    state,
    error,
    startedAt: job.startedAt ?? ctx.now,
    finishedAt: ctx.now,
  });
  emitCompleted(ctx, done);
  return done;
}

/** Removes a job and its items (after its 7 days). */
export function purgeJob(store: Store, job: JobDoc): void {
  for (let i = 0; i < job.progress.total; i++) store.remove(jobItemCollection, itemDocId(job.id, i));
  store.remove(runnableJobCollection, job.id);
  store.remove(jobCollection, job.id);
}
