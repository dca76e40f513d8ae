/**
 * The contracts between the client's parts: the transport and retry loop
 * (`client.ts`), the quota pacer (`pacing.ts`) and the typed operations,
 * lists and jobs built on top (`operations.ts`, `lists.ts`, `jobs.ts`).
 */

/** Which bucket a call spends: the account's read or write windows, the check pool, or the anonymous per-address bucket. */
export type QuotaClass = "read" | "write" | "checkRead" | "checkWrite" | "anonymous";

export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface RequestSpec {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The concrete path, e.g. `/monitor/abc`. */
  path: string;
  /** The route template, e.g. `GET /monitor/{id}`: what metrics count by. */
  route: string;
  quotaClass: QuotaClass;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /**
   * The key a write carries. Absent on a write, the client makes one, so a
   * retry can never duplicate; the engine passes a deterministic one to survive crashes.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /**
   * The call spends no quota (`GET /account/quota`): it neither waits for the
   * pacer nor teaches it anything (an answer without `RateLimit-*` headers would
   * otherwise read as an unmetered account).
   */
  unpaced?: boolean;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  body: T;
  requestId: string;
  /** The answer is the stored one of an earlier call with the same key (`Idempotency-Replayed: true`). */
  replayed: boolean;
}

/** Makes one logical call: pacing, retries and error mapping included. */
export interface Caller {
  call<T = unknown>(spec: RequestSpec): Promise<ApiResponse<T>>;
}

/** Time as the client sees it (the one clock of `kinds/time.ts`); tests drive it from the sandbox clock. */
export { realTime, type TimeSource } from "../kinds/time.ts";

/** Keeps calls under the account's quota: one bucket per class, shared by every concurrent call. */
export interface Pacer {
  /** Waits until the class has room, then takes one unit. */
  acquire(cls: QuotaClass, signal?: AbortSignal): Promise<void>;
  /** Learns from an answer's `RateLimit-*` headers (and a 429's `Retry-After`). */
  observe(cls: QuotaClass, status: number, headers: Record<string, string>): void;
  /** Learns the account's windows from the body of `GET /account/quota`. */
  prime?(quota: unknown): void;
}
