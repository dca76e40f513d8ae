import type { z } from "zod";
import type { jobResultRow } from "../kinds/events.ts";
import { type ProblemDocument, terminalJobStates } from "../kinds/index.ts";
import type { JobItemStatus, jobAccepted, jobSchema } from "../kinds/job.ts";
import { retryAfterSeconds } from "./retry.ts";
import type { ApiResponse, Caller, RequestSpec, TimeSource } from "./types.ts";
import { realTime } from "./types.ts";

export type Job = z.infer<typeof jobSchema>;
export type JobAccepted = z.infer<typeof jobAccepted>;
export type JobResultRow = z.infer<typeof jobResultRow>;

/** A failed job item: the problem document the single route would have answered, and which item it was. */
export class JobItemError extends Error {
  readonly index: number;
  readonly itemRef: string | undefined;
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: NonNullable<ProblemDocument["errors"]>;
  readonly problem: ProblemDocument;

  constructor(row: JobResultRow, problem: ProblemDocument) {
    super(
      `item ${row.index}${row.itemRef ? ` (${row.itemRef})` : ""}: ${problem.code}: ${problem.detail ?? problem.title}`,
    );
    this.name = "JobItemError";
    this.index = row.index;
    this.itemRef = row.itemRef;
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    this.problem = problem;
  }
}

const okStatuses: ReadonlySet<JobItemStatus> = new Set([
  "created",
  "createdDisabled",
  "updated",
  "skipped",
  "deleted",
]);

export interface JobOutcome {
  job: Job;
  /** Every result row, in index order. */
  rows: JobResultRow[];
  /** The rows whose item succeeded. */
  ok: JobResultRow[];
  /** One error per failed item. */
  failures: JobItemError[];
  /** Items not processed (the job was cancelled). */
  cancelled: JobResultRow[];
}

export interface JobRunOptions {
  time?: TimeSource;
  signal?: AbortSignal;
  /** Rows per results page, 1-500. */
  pageSize?: number;
  /** Each non-terminal poll. */
  onProgress?: (job: Job) => void;
  /** Poll pace when an answer carries no `Retry-After`, in seconds. */
  defaultRetryAfterSec?: number;
  /** Called once the job exists, before the first wait: the engine journals its id, to find it again after a crash. */
  onAccepted?: (accepted: JobAccepted) => void | Promise<void>;
}

const isTerminal = (state: Job["state"]) => (terminalJobStates as readonly string[]).includes(state ?? "");

function retryAfterMs(headers: Record<string, string>, fallbackSec: number, time: TimeSource): number {
  return (retryAfterSeconds(headers["retry-after"], time) ?? fallbackSec) * 1000;
}

/**
 * A job the server marked `interrupted` (it stopped while the job ran): it
 * goes on only after `POST /job/{id}/resume`, so waiting would never end.
 */
export class JobInterruptedError extends Error {
  readonly jobId: string;
  constructor(jobId: string) {
    super(`Job ${jobId} was interrupted by a server restart; resume it with POST /job/${jobId}/resume.`);
    this.name = "JobInterruptedError";
    this.jobId = jobId;
  }
}

function getJob(caller: Caller, id: string, query: Record<string, string | number>, signal?: AbortSignal) {
  return caller.call<Job>({
    method: "GET",
    path: `/job/${encodeURIComponent(id)}`,
    route: "GET /job/{id}",
    quotaClass: "read",
    query,
    signal,
  });
}

/** Reads every results page of a job (from `cursor`, when the first pages are read), following `resultsNextCursor`. */
export async function jobResults(
  caller: Caller,
  id: string,
  options: {
    pageSize?: number;
    status?: readonly JobItemStatus[];
    signal?: AbortSignal;
    cursor?: string;
  } = {},
): Promise<JobResultRow[]> {
  const rows: JobResultRow[] = [];
  let cursor = options.cursor;
  for (;;) {
    const query: Record<string, string | number> = { limit: options.pageSize ?? 500 };
    if (cursor) query.cursor = cursor;
    if (options.status) query.status = options.status.join(",");
    const { body } = await getJob(caller, id, query, options.signal);
    rows.push(...(body.results ?? []));
    if (!body.resultsHasMore || !body.resultsNextCursor) return rows;
    cursor = body.resultsNextCursor;
  }
}

/**
 * Waits for a job to reach a terminal state, polling at the pace its
 * `Retry-After` asks, then reads all its results. Also resumes waiting on a
 * job submitted before a crash.
 */
export async function waitForJob(
  caller: Caller,
  id: string,
  options: JobRunOptions = {},
): Promise<JobOutcome> {
  const time = options.time ?? realTime;
  const fallbackSec = options.defaultRetryAfterSec ?? 1;
  // Every poll asks for a whole page of rows: the terminal one then brings the results with it (all of them,
  // for a job of up to a page of items), instead of a read of its own after it.
  const limit = options.pageSize ?? 500;
  let res: ApiResponse<Job> = await getJob(caller, id, { limit }, options.signal);
  while (!isTerminal(res.body.state)) {
    if (res.body.state === "interrupted") throw new JobInterruptedError(id);
    options.onProgress?.(res.body);
    await time.sleep(retryAfterMs(res.headers, fallbackSec, time), options.signal);
    res = await getJob(caller, id, { limit }, options.signal);
  }
  const { results: page, resultsNextCursor: next, resultsHasMore: more, ...job } = res.body;
  const rows = [...(page ?? [])];
  if (more && next)
    rows.push(...(await jobResults(caller, id, { pageSize: limit, signal: options.signal, cursor: next })));
  return outcomeOf(job, rows);
}

export function outcomeOf(job: Job, rows: JobResultRow[]): JobOutcome {
  const outcome: JobOutcome = { job, rows, ok: [], failures: [], cancelled: [] };
  for (const row of rows) {
    if (okStatuses.has(row.status)) outcome.ok.push(row);
    else if (row.status === "cancelled") outcome.cancelled.push(row);
    else if (row.status === "failed" && row.error) outcome.failures.push(new JobItemError(row, row.error));
  }
  return outcome;
}

/**
 * Submits a job-creating request (202 `{jobId, accepted}`) and waits for its
 * results. The submission carries an idempotency key (the caller's, or the
 * client's own), so a retried submission never starts a second job.
 */
export async function runJob(
  caller: Caller,
  submit: RequestSpec,
  options: JobRunOptions = {},
): Promise<JobOutcome> {
  const accepted = await caller.call<JobAccepted>({ ...submit, signal: submit.signal ?? options.signal });
  if (accepted.status !== 202 || typeof accepted.body?.jobId !== "string") {
    throw new Error(`${submit.route} answered ${accepted.status} without a job`);
  }
  await options.onAccepted?.(accepted.body);
  // The 202 names the first pause: nothing is ready before it. A replayed 202 is the answer stored when the
  // job was submitted, so its pause ran from then: the job may be done already, and one poll tells.
  const time = options.time ?? realTime;
  if (accepted.headers["idempotency-replayed"]?.trim() !== "true")
    await time.sleep(retryAfterMs(accepted.headers, options.defaultRetryAfterSec ?? 1, time), options.signal);
  return waitForJob(caller, accepted.body.jobId, options);
}
