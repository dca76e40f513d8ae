import { randomUUID } from "node:crypto";
import { ApiError, causeText, NetworkError } from "./errors.ts";
import { ClientMetrics } from "./metrics.ts";
import { defaultMaxBlockMs, QuotaPacer } from "./pacing.ts";
import { redactBody } from "./redact.ts";
import {
  defaultRetry,
  type RetryLimits,
  type RetryPolicy,
  retryAfterSeconds,
  retryDecision,
} from "./retry.ts";
import { Transport, TransportFailure, type TransportResponse } from "./transport.ts";
import {
  type ApiResponse,
  type Caller,
  type Pacer,
  type RequestSpec,
  realTime,
  type TimeSource,
} from "./types.ts";

export interface ClientOptions {
  baseUrl: string;
  token?: string;
  /**
   * Keeps calls under the quota. Pass one pacer to every client of the same
   * account in the process; by default the client has a `QuotaPacer` of its own.
   */
  pacer?: Pacer;
  /** Every wait (backoff, `Retry-After`) goes through it; tests drive it from the sandbox clock. */
  time?: TimeSource;
  /** Milliseconds for one HTTP request. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * The longest wait worth doing (`defaultMaxBlockMs`): a `Retry-After` longer than this ends the call with
   * its `ApiError` at once, as the pacer's `QuotaExhaustedError` does for a longer block. It also bounds the
   * client's own default pacer; give a pacer of your own the same bound (`openApiSession` does).
   */
  maxBlockMs?: number;
  connections?: number;
  metrics?: ClientMetrics;
  /** Debug lines, one per attempt; the token and every credential are redacted. */
  log?: (line: string) => void;
  /** 0 ≤ x < 1; the jitter's source, injectable for tests. */
  random?: () => number;
  /** Told of each failed attempt the client is about to retry, before it waits: frontends say so at once. */
  onRetry?: (event: RetryEvent) => void;
}

/** A failed attempt about to be retried. Nothing of the request's body or credentials is in it. */
export interface RetryEvent {
  /** `POST /monitor`. */
  route: string;
  /** The attempt that failed (1 is the first request). */
  attempt: number;
  /** Requests the call may make in all. */
  attempts: number;
  /** Why: no answer (`network`: refused, reset, unresolved; `timeout`), or the answer's status. */
  reason: "network" | "timeout" | number;
  /** The transport's message (`connect ECONNREFUSED 127.0.0.1:8080`) or the problem's code. */
  detail: string;
  /** Milliseconds until the next attempt. */
  waitMs: number;
}

/**
 * Makes calls to the API: pacing, retries with backoff and full jitter, one
 * `Idempotency-Key` per write kept across its retries, and problem documents
 * turned into `ApiError`.
 */
export class VigilClient implements Caller {
  readonly metrics: ClientMetrics;
  readonly #transport: Transport;
  readonly #pacer: Pacer;
  readonly #time: TimeSource;
  readonly #retry: RetryLimits;
  readonly #log: ((line: string) => void) | undefined;
  readonly #onRetry: ((event: RetryEvent) => void) | undefined;

  constructor(options: ClientOptions) {
    this.#transport = new Transport({
      baseUrl: options.baseUrl,
      ...(options.token !== undefined && { token: options.token }),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.connections !== undefined && { connections: options.connections }),
    });
    this.#time = options.time ?? realTime;
    const maxBlockMs = options.maxBlockMs ?? defaultMaxBlockMs;
    this.#pacer = options.pacer ?? new QuotaPacer({ time: this.#time, maxBlockMs });
    this.#retry = {
      policy: { ...defaultRetry, ...options.retry },
      maxBlockMs,
      random: options.random ?? Math.random,
    };
    this.metrics = options.metrics ?? new ClientMetrics();
    this.#log = options.log;
    this.#onRetry = options.onRetry;
  }

  /**
   * Primes the pacer from `GET /account/quota`. That call spends no quota, so
   * it does not wait for room in a bucket either.
   */
  async prime(): Promise<void> {
    const res = await this.call({
      method: "GET",
      path: "/account/quota",
      route: "GET /account/quota",
      quotaClass: "read",
      unpaced: true,
    });
    this.#pacer.prime?.(res.body);
  }

  call<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>> {
    return this.#run<T>(spec, !spec.unpaced);
  }

  async #run<T>(spec: RequestSpec, paced: boolean): Promise<ApiResponse<T>> {
    const isWrite = spec.method !== "GET";
    // One key for every attempt of this call: a retry of a write that did commit replays instead of
    // duplicating. Every write carries one, so every call may be retried.
    const key = isWrite ? (spec.idempotencyKey ?? randomUUID()) : undefined;
    const headers: Record<string, string> = key === undefined ? {} : { "idempotency-key": key };
    this.metrics.call(spec.quotaClass, spec.route);

    for (let attempt = 1; ; attempt++) {
      if (paced) {
        const paceStart = this.#time.now();
        await this.#pacer.acquire(spec.quotaClass, spec.signal);
        const waited = this.#time.now() - paceStart;
        if (waited > 0) this.metrics.paced(waited);
      }

      let res: TransportResponse;
      try {
        this.#debug(`→ ${spec.method} ${spec.path} attempt ${attempt}`, spec.body);
        res = await this.#transport.send({
          method: spec.method,
          path: spec.path,
          headers,
          ...(spec.query && { query: spec.query }),
          ...(spec.body !== undefined && { body: spec.body }),
          ...(spec.signal && { signal: spec.signal }),
        });
      } catch (err) {
        if (!(err instanceof TransportFailure)) throw err;
        this.metrics.attempt(err.reason);
        this.#debug(`✗ ${spec.method} ${spec.path} ${err.reason}: ${err.message}`);
        const decision = retryDecision({ network: err.reason }, attempt, this.#retry);
        if (!decision.retry) {
          throw new NetworkError({
            reason: err.reason,
            route: spec.route,
            attempts: attempt,
            cause: err.cause,
          });
        }
        this.#retrying(spec, attempt, err.reason, causeText(err.cause) ?? err.message, decision.waitMs);
        await this.#wait(decision.waitMs, spec.signal);
        continue;
      }

      this.metrics.attempt(res.status);
      if (paced) this.#pacer.observe(spec.quotaClass, res.status, res.headers);
      const requestId = res.headers["x-request-id"] ?? "";
      this.#debug(`← ${res.status} ${spec.method} ${spec.path} request ${requestId}`, res.body);
      if (res.status < 400) {
        const replayed = res.headers["idempotency-replayed"] === "true";
        if (replayed) this.metrics.replay();
        return { status: res.status, headers: res.headers, body: res.body as T, requestId, replayed };
      }

      const error = new ApiError({
        ...res,
        route: spec.route,
        attempts: attempt,
        retryAfter: retryAfterSeconds(res.headers["retry-after"], this.#time),
      });
      const decision = retryDecision(
        { status: error.status, code: error.code, reason: error.reason, retryAfterSec: error.retryAfter },
        attempt,
        this.#retry,
      );
      if (!decision.retry) throw error;
      this.#retrying(spec, attempt, res.status, error.code, decision.waitMs);
      await this.#wait(decision.waitMs, spec.signal);
    }
  }

  close(): Promise<void> {
    return this.#transport.close();
  }

  #retrying(
    spec: RequestSpec,
    attempt: number,
    reason: RetryEvent["reason"],
    detail: string,
    waitMs: number,
  ): void {
    this.#onRetry?.({
      route: spec.route,
      attempt,
      attempts: this.#retry.policy.attempts,
      reason,
      detail,
      waitMs: Math.round(waitMs),
    });
  }

  async #wait(ms: number, signal?: AbortSignal): Promise<void> {
    const rounded = Math.round(ms);
    this.metrics.retry(rounded);
    await this.#time.sleep(rounded, signal);
  }

  #debug(line: string, body?: unknown): void {
    if (!this.#log) return;
    this.#log(body === undefined ? line : `${line} ${JSON.stringify(redactBody(body))}`);
  }
}
