/**
 * What `GET /healthz` answers: starting until the first refresh has
 * succeeded, then healthy until refreshes keep failing (the API unreachable,
 * the token refused, the state's database down), with the time of the last
 * read that succeeded either way.
 */
import { QuotaExhaustedError, type TimeSource } from "../api/index.ts";
import type { WatchMetrics } from "./metrics.ts";

/** Refreshes that must fail in a row before the watcher calls itself unhealthy. */
export const failingAfter = 3;

export interface HealthReport {
  /** 200 when true, 503 otherwise. */
  ok: boolean;
  body: {
    /** `standby`: a replica waiting to take over from the active one (200). */
    status: "starting" | "ok" | "failing" | "standby";
    /** With replicas (a PostgreSQL state): whether this one is the active watcher. */
    role?: "active" | "standby";
    /** ISO 8601, on the watcher's clock; null before the first. */
    lastSuccessfulRead: string | null;
    failedRefreshes: number;
    detail?: string;
  };
}

export class Health {
  readonly #metrics: WatchMetrics;
  readonly #time: TimeSource;
  #ready = false;
  #lastSuccessAt: number | undefined;
  #failures = 0;
  #lastError = "";

  constructor(metrics: WatchMetrics, time: TimeSource) {
    this.#metrics = metrics;
    this.#time = time;
  }

  get ready(): boolean {
    return this.#ready;
  }

  /** The first refresh succeeded. */
  started(): void {
    this.#ready = true;
  }

  /** Reads succeeded (a refresh, or the reads of a burst of events). `refresh`: it was a refresh, which ends a run of failed ones. */
  succeeded(refresh: boolean): void {
    this.#lastSuccessAt = this.#time.now();
    this.#metrics.lastSuccess.set(this.#lastSuccessAt / 1000);
    if (!refresh) return;
    this.#failures = 0;
    this.#metrics.failedRefreshes.set(0);
  }

  /** A refresh failed. */
  failed(message: string): void {
    this.#failures++;
    this.#lastError = message;
    this.#metrics.failedRefreshes.set(this.#failures);
  }

  report(): HealthReport {
    return healthReport({
      started: this.#ready,
      lastSuccessfulRead:
        this.#lastSuccessAt === undefined ? null : new Date(this.#lastSuccessAt).toISOString(),
      failures: this.#failures,
      starting: "the first refresh has not finished",
      failing: `the last ${this.#failures} refreshes failed; the latest: ${this.#lastError}`,
      healthy: { status: "ok" },
    });
  }
}

/** What a health report is made of: the watcher's refreshes, or a standby replica's tries of the lease. */
export interface HealthState {
  /** The first refresh (or try of the lease) has answered: until then, starting. */
  started: boolean;
  role?: "active" | "standby";
  lastSuccessfulRead: string | null;
  /** Failed in a row: from `failingAfter` on, failing. */
  failures: number;
  /** The detail while starting, and while failing. */
  starting: string;
  failing: string;
  /** What it says otherwise. */
  healthy: { status: "ok" | "standby"; detail?: string };
}

/** One rule for every `/healthz`: starting (503), then failing (503) after `failingAfter` failures, else 200. */
export function healthReport(state: HealthState): HealthReport {
  const base = {
    ...(state.role && { role: state.role }),
    lastSuccessfulRead: state.lastSuccessfulRead,
    failedRefreshes: state.failures,
  };
  if (!state.started) return { ok: false, body: { status: "starting", ...base, detail: state.starting } };
  if (state.failures >= failingAfter)
    return { ok: false, body: { status: "failing", ...base, detail: state.failing } };
  const { status, ...detail } = state.healthy;
  return { ok: true, body: { status, ...base, ...detail } };
}

/** What the watcher says once it is ready: what start-up took, and that the read budget governs from then on. */
export function readyLine(reads: number, ms: number, queued: number): string {
  const meanwhile = queued > 0 ? ` Judging what events said meanwhile of ${queued} object(s).` : "";
  return `Ready (GET /healthz answers 200) after ${reads} reads in ${(ms / 1000).toFixed(1)} s; the read budget paces the watcher from now on.${meanwhile}`;
}

/** What a failed refresh or round of events says on stderr, and in `/healthz`'s detail. */
export function failureMessage(error: unknown): string {
  if (error instanceof QuotaExhaustedError) return `${error.message} Waiting for the next refresh.`;
  return (error as Error).message ?? String(error);
}
