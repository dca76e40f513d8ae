import type { QuotaClass } from "./types.ts";

export interface MetricsSnapshot {
  /** Logical calls, each counted once however many attempts it took. */
  calls: number;
  byClass: Partial<Record<QuotaClass, number>>;
  /** By route template, e.g. `GET /monitor/{id}`. */
  byRoute: Record<string, number>;
  /** HTTP requests sent, retries included. */
  attempts: number;
  retries: number;
  /** Answers by status; `timeout` and `network` for attempts that got none. */
  byStatus: Record<string, number>;
  /** Waits before a retry (backoff or `Retry-After`). */
  retryWaits: { count: number; totalMs: number };
  /** Waits for the pacer to find room in a quota bucket. */
  pacingWaits: { count: number; totalMs: number };
  replays: number;
}

/** What the client did, for plan summaries and benchmarks. */
export class ClientMetrics {
  #s: MetricsSnapshot = ClientMetrics.#empty();

  static #empty(): MetricsSnapshot {
    return {
      calls: 0,
      byClass: {},
      byRoute: {},
      attempts: 0,
      retries: 0,
      byStatus: {},
      retryWaits: { count: 0, totalMs: 0 },
      pacingWaits: { count: 0, totalMs: 0 },
      replays: 0,
    };
  }

  call(cls: QuotaClass, route: string): void {
    this.#s.calls++;
    this.#s.byClass[cls] = (this.#s.byClass[cls] ?? 0) + 1;
    this.#s.byRoute[route] = (this.#s.byRoute[route] ?? 0) + 1;
  }

  attempt(outcome: number | "timeout" | "network"): void {
    this.#s.attempts++;
    const key = String(outcome);
    this.#s.byStatus[key] = (this.#s.byStatus[key] ?? 0) + 1;
  }

  retry(waitMs: number): void {
    this.#s.retries++;
    this.#s.retryWaits.count++;
    this.#s.retryWaits.totalMs += waitMs;
  }

  paced(waitMs: number): void {
    this.#s.pacingWaits.count++;
    this.#s.pacingWaits.totalMs += waitMs;
  }

  replay(): void {
    this.#s.replays++;
  }

  /** A deep copy: later calls do not change it. */
  snapshot(): MetricsSnapshot {
    return structuredClone(this.#s);
  }
}
