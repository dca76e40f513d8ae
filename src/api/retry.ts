/**
 * The client's one retry policy: for an attempt that failed (an answer refusing it, or no answer at all),
 * whether the call is sent again and how long it waits first. What retries is the problem table's per-code
 * family (`kinds/problems.ts`), by status for a code the table lacks; `Retry-After` is read here alone,
 * against the caller's `TimeSource`.
 */
import { problemFamily } from "../kinds/problems.ts";
import type { TimeSource } from "./types.ts";

export interface RetryPolicy {
  /** HTTP requests one call may make in all, the first included. */
  attempts: number;
  /** Backoff cap of the first retry; doubles with each one. */
  baseMs: number;
  /** Backoff cap, however many retries came before. */
  maxMs: number;
}

export const defaultRetry: RetryPolicy = {
  attempts: 8,
  baseMs: 200,
  maxMs: 20_000,
};

/** A failed attempt, as the policy judges it. */
export type FailedAttempt =
  /** No answer: the connection failed (refused, reset, unresolved, TLS) or the timeout struck. */
  | { network: "timeout" | "network" }
  /** An answer refusing the call: its status, its problem code and first `errors[].reason`, and its `Retry-After`. */
  | { status: number; code: string; reason?: string | undefined; retryAfterSec?: number | undefined };

export type RetryDecision = { retry: false } | { retry: true; waitMs: number };

export interface RetryLimits {
  policy: RetryPolicy;
  /** The longest wait worth doing: a longer `Retry-After` ends the call at once. */
  maxBlockMs: number;
  /** 0 ≤ x < 1: the jitter's source. */
  random: () => number;
}

/**
 * Whether attempt number `attempt` (1 is the first request) is followed by another, and after how long. No
 * answer is always worth another attempt (a write carries its key, so a retry replays instead of writing
 * twice). An answer is when its code is of the wait-and-retry family, or when it says the first request of
 * its key is still running (409 `idempotency_key_conflict`, reason `in_flight`). The wait honours
 * `Retry-After`, plus up to `baseMs` of jitter so callers told the same moment spread out; without one it is
 * exponential backoff with full jitter.
 */
export function retryDecision(failed: FailedAttempt, attempt: number, limits: RetryLimits): RetryDecision {
  if (attempt >= limits.policy.attempts) return { retry: false };
  if ("network" in failed) return { retry: true, waitMs: backoff(attempt, limits) };
  if (!retriesAnswer(failed)) return { retry: false };
  const after = failed.retryAfterSec;
  if (after === undefined) return { retry: true, waitMs: backoff(attempt, limits) };
  if (after * 1000 > limits.maxBlockMs) return { retry: false };
  return { retry: true, waitMs: after * 1000 + limits.random() * limits.policy.baseMs };
}

function retriesAnswer(failed: { status: number; code: string; reason?: string | undefined }): boolean {
  if (failed.code === "idempotency_key_conflict" && failed.reason === "in_flight") return true;
  return problemFamily(failed.code, failed.status) === "wait-and-retry";
}

/** Full jitter: anywhere from 0 to the capped exponential step, so concurrent callers spread out. */
function backoff(attempt: number, { policy, random }: RetryLimits): number {
  return random() * Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
}

/**
 * `Retry-After` in seconds: delta-seconds, or an HTTP date counted from `time`'s now (a date already past is
 * 0). Undefined when absent or unreadable.
 */
export function retryAfterSeconds(
  value: string | undefined,
  time: Pick<TimeSource, "now">,
): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - time.now()) / 1000));
}
