import type { ProblemDetailEntry } from "../../../kinds/index.ts";
import type { JobItemStatus } from "../../../kinds/job.ts";
import type { Ctx } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";

/** What one processed item answers: its status, the entity it made or touched, and a result. */
export interface ItemOutcome {
  status: JobItemStatus;
  entityId?: string | null;
  result?: unknown;
}

/**
 * How a job kind processes one item. `run` throws an `ApiProblem` for a failed
 * item, exactly as the single route would refuse it; the runner, the validate
 * variants and the direct (small) copy all call it.
 */
export interface JobProcessor {
  run(ctx: Ctx, input: unknown, index: number, params: Record<string, unknown>): ItemOutcome;
  /** Whether this failure ends the job: the items after it are cancelled (`onOverlimit: stop`). */
  stopsRest?(input: unknown, problem: ApiProblem): boolean;
}

/** The same problem with every pointer moved under `prefix` (an item's place in the bulk body). */
export function underPointer(problem: ApiProblem, prefix: string): ApiProblem {
  return new ApiProblem(problem.code, problem.message, {
    errors: problem.errors?.map((e: ProblemDetailEntry) =>
      typeof e.pointer === "string" ? { ...e, pointer: `${prefix}${e.pointer}` } : e,
    ),
    extra: problem.extra,
    headers: problem.headers,
  });
}

/** Any failure of an item as a problem: refusals as they are, anything else as `internal_error`. */
export function asProblem(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  return new ApiProblem("internal_error", "Processing this item failed unexpectedly.");
}
