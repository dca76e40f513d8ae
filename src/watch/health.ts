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
    status: "starting" | "ok" | "failing";
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
    const lastSuccessfulRead =
      this.#lastSuccessAt === undefined ? null : new Date(this.#lastSuccessAt).toISOString();
    const base = { lastSuccessfulRead, failedRefreshes: this.#failures };
    if (!this.#ready)
      return {
        ok: false,
        body: { status: "starting", ...base, detail: "the first refresh has not finished" },
      };
    if (this.#failures >= failingAfter)
      return {
        ok: false,
        body: {
          status: "failing",
          ...base,
          detail: `the last ${this.#failures} refreshes failed; the latest: ${this.#lastError}`,
        },
      };
    return { ok: true, body: { status: "ok", ...base } };
  }
}

/** What the watcher says once it is ready: what start-up took, and that the read budget governs from then on. */
export function readyLine(reads: number, ms: number, queued: number): string {
  const meanwhile = queued > 0 ? ` Judging what events said meanwhile of ${queued} object(s).` : "";
  return `Ready (GET /healthz answers 200) after ${reads} reads in ${(ms / 1000).toFixed(1)} s; the read budget paces the watcher from now on.${meanwhile}`;
}

/** What a failed refresh or batch of events says on stderr, and in `/healthz`'s detail. */
export function failureMessage(error: unknown): string {
  if (error instanceof QuotaExhaustedError) return `${error.message} Waiting for the next refresh.`;
  return (error as Error).message ?? String(error);
}
