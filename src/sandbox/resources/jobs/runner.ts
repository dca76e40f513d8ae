import { performance } from "node:perf_hooks";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { JobKind } from "../../../kinds/job.ts";
import { sweepAtMostEvery } from "../../core/background.ts";
import { type BackgroundTask, type SandboxState, systemCtx } from "../../core/state.ts";
import type { Store } from "../../core/store.ts";
import { reportProcessors } from "../reports/task.ts";
import { contactProcessors } from "./contact-bulk.ts";
import {
  cancelPending,
  emitProgress,
  finishJob,
  indexJob,
  isRunnable,
  isTerminal,
  itemDocId,
  type JobDoc,
  type JobItemDoc,
  jobCollection,
  jobItemCollection,
  purgeJob,
  putJob,
  type RunnableJobDoc,
  runnableJobCollection,
  settleItem,
} from "./model.ts";
import { monitorProcessors } from "./monitor-bulk.ts";
import { asProblem, type ItemOutcome, type JobProcessor } from "./processor.ts";
import { purgeSelections } from "./selection.ts";

const processors: Record<JobKind, JobProcessor> = {
  ...monitorProcessors,
  ...contactProcessors,
  ...reportProcessors,
};

/** Items processed between two yields to the event loop: requests are served in between. */
const batchSize = 10;
/** Real time one `work` call may take before it hands over (and asks for another run at once). */
const sliceMs = 100;

/** Expired jobs and selections are swept at most this often (sandbox seconds); reads refuse them at once anyway. */
const sweepEverySec = 300;
const sweepMeta = "jobs.sweep";

/**
 * Runs jobs item by item. Each item commits in its own transaction together
 * with its result row and the job's counters, so a restart never redoes a
 * committed item; cancel (a request) lands between items.
 */
export const jobRunner: BackgroundTask = {
  name: "jobs",

  /**
   * Jobs that were running when the sandbox stopped come back `interrupted`
   * and wait for resume or cancel; queued ones never started, so they stay
   * queued and run as usual. The runnable index is rebuilt from the jobs
   * themselves, so a data file written before it existed runs its queued jobs.
   */
  start(state) {
    for (const job of state.store.scan<JobDoc>(jobCollection)) {
      if (job.state === "running") putJob(state.store, { ...job, state: "interrupted" });
      else indexJob(state.store, job);
    }
  },

  /**
   * A runnable job past its 7 days is purged at once, so the runner never
   * picks it up; every other expired job (with its items) and delete-validate
   * selection past its hour goes in the next sweep.
   */
  due(state, now) {
    for (const entry of state.store.scan<RunnableJobDoc>(runnableJobCollection)) {
      const job = state.store.get<JobDoc>(jobCollection, entry.id);
      // An entry whose job is gone is stale: drop it rather than fail every tick.
      if (!job) state.store.remove(runnableJobCollection, entry.id);
      else if (job.expiresAt <= now) purgeJob(state.store, job);
    }
    sweep(state.store, now);
  },

  async work(state) {
    const began = performance.now();
    for (;;) {
      const job = nextJob(state);
      if (!job) return;
      for (let i = 0; i < batchSize && runItem(state, job.id); i++);
      await yieldToEventLoop();
      if (performance.now() - began > sliceMs) {
        // Hand over so a stopping sandbox is not held up; a running one comes straight back.
        state.background.kick();
        return;
      }
    }
  },
};

/** Removes expired jobs and selections, at most every few minutes of sandbox time. */
function sweep(store: Store, now: number): void {
  sweepAtMostEvery(store, sweepMeta, sweepEverySec, now, () => {
    for (const job of store.scan<JobDoc>(jobCollection)) {
      if (job.expiresAt <= now) purgeJob(store, job);
    }
    purgeSelections(store, now);
  });
}

/** The oldest runnable job, across accounts. */
function nextJob(state: SandboxState): JobDoc | undefined {
  let next: RunnableJobDoc | undefined;
  for (const entry of state.store.scan<RunnableJobDoc>(runnableJobCollection)) {
    if (!next || entry.created < next.created) next = entry;
  }
  return next && state.store.get<JobDoc>(jobCollection, next.id);
}

/** Processes the job's next item, or finishes the job. Answers whether the job may have more to do. */
function runItem(state: SandboxState, jobId: string): boolean {
  const { store } = state;
  const job = store.get<JobDoc>(jobCollection, jobId);
  if (!job || !isRunnable(job)) return false;
  const ctx = systemCtx(state, job.accountId);
  if (!ctx.account) {
    // The account is gone: so is its work.
    store.transaction(() => purgeJob(store, job));
    return false;
  }
  if (job.nextIndex >= job.progress.total) {
    store.transaction(() => finishJob(ctx, job));
    return false;
  }
  const item = store.get<JobItemDoc>(jobItemCollection, itemDocId(job.id, job.nextIndex))!;
  const processor = processors[job.kind];
  try {
    store.transaction(() => {
      const outcome = processor.run(ctx, item.input, item.index, job.params);
      record(ctx, job, item, outcome);
    });
  } catch (error) {
    // The item's own writes were undone with its transaction; its failure is recorded in a new one.
    const problem = asProblem(error);
    store.transaction(() => {
      const failed = record(ctx, job, item, {
        status: "failed",
        error: problem.toDocument(ctx.baseUrl, `/job/${job.id}`),
      });
      if (processor.stopsRest?.(item.input, problem) && !isTerminal(failed.state)) {
        finishJob(ctx, cancelPending(ctx, failed));
      }
    });
  }
  return true;
}

/** Writes an item's row and moves the job on; the last item finishes it. */
function record(
  ctx: ReturnType<typeof systemCtx>,
  job: JobDoc,
  item: JobItemDoc,
  outcome: ItemOutcome & { error?: Record<string, unknown> },
): JobDoc {
  settleItem(ctx, item, {
    status: outcome.status,
    entityId: outcome.entityId ?? null,
    result: outcome.result,
    error: outcome.error ?? null,
  });
  let next = putJob(ctx.store, {
    ...job,
    state: "running",
    startedAt: job.startedAt ?? ctx.now,
    nextIndex: item.index + 1,
    progress: { ...job.progress, done: job.progress.done + 1 },
    counts: { ...job.counts, [outcome.status]: (job.counts[outcome.status] ?? 0) + 1 },
  });
  next = emitProgress(ctx, next);
  return next.nextIndex >= next.progress.total ? finishJob(ctx, next) : next;
}
