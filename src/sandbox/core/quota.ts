import { type Plan, plans } from "./plans.ts";
import { ApiProblem } from "./problem.ts";

/**
 * Rate and quota accounting. Each account has two pools (`account`, and
 * `check` for instant checks), each with four windows. Per-minute windows
 * count every request, refused ones included; per-month windows (30 days)
 * count successful requests only. A call also tallies against its scope
 * family and its leaf, which `GET /account/quota` reports per row.
 *
 * Counters live in memory: they meter traffic, they are not acknowledged
 * writes, and persisting them would put a disk write on every read.
 */
export type Pool = "account" | "check";
export type QuotaClass = "read" | "write";

export interface WindowSpec {
  quota: string;
  limit: number;
  windowSec: number;
  successOnly: boolean;
}

const month = 30 * 86400;

export function windowsOf(plan: Plan, pool: Pool, cls: QuotaClass): [WindowSpec, WindowSpec] {
  const q = plan.quotas[pool];
  return cls === "read"
    ? [
        { quota: "read_per_minute", limit: q.readPerMinute, windowSec: 60, successOnly: false },
        { quota: "read_per_month", limit: q.readPerMonth, windowSec: month, successOnly: true },
      ]
    : [
        { quota: "write_per_minute", limit: q.writePerMinute, windowSec: 60, successOnly: false },
        { quota: "write_per_month", limit: q.writePerMonth, windowSec: month, successOnly: true },
      ];
}

interface Counter {
  index: number;
  count: number;
  byScope: Map<string, number>;
}

export interface Charge {
  pool: Pool;
  cls: QuotaClass;
  scopes: string[];
}

export class Meter {
  readonly #counters = new Map<string, Counter>();
  readonly #tokenSpend = new Map<string, number>();

  #counter(key: string, windowSec: number, now: number): Counter {
    const index = Math.floor(now / windowSec);
    let c = this.#counters.get(key);
    if (!c || c.index !== index) {
      c = { index, count: 0, byScope: new Map() };
      this.#counters.set(key, c);
    }
    return c;
  }

  usage(accountId: string, pool: Pool, w: WindowSpec, now: number) {
    const c = this.#counter(`${accountId}|${pool}|${w.quota}`, w.windowSec, now);
    const resetAt = (c.index + 1) * w.windowSec;
    return {
      used: c.count,
      remaining: Math.max(0, w.limit - c.count),
      resetAt,
      byScope: Object.fromEntries(c.byScope),
    };
  }

  /**
   * Charges a metered call before it runs: counts it in the per-minute
   * window and refuses it (429 `quota_exceeded`) when any window is spent or
   * the token's cap is reached.
   */
  admit(
    accountId: string,
    planName: Plan["name"],
    charge: Charge,
    now: number,
    token?: { jti: string; cap?: number },
  ) {
    const [minute, monthly] = windowsOf(plans[planName], charge.pool, charge.cls);
    const m = this.#counter(`${accountId}|${charge.pool}|${minute.quota}`, minute.windowSec, now);
    m.count++;
    for (const s of charge.scopes) m.byScope.set(s, (m.byScope.get(s) ?? 0) + 1);
    if (token) this.spendTokenCap(token, now);
    for (const w of [minute, monthly]) {
      const u = this.usage(accountId, charge.pool, w, now);
      const over = w === minute ? u.used > w.limit : u.used >= w.limit;
      if (over) throw quotaExceeded(w, 0, u.resetAt, now);
    }
  }

  /** Counts a successful call in the success-only windows. */
  settle(accountId: string, planName: Plan["name"], charge: Charge, now: number) {
    const [, monthly] = windowsOf(plans[planName], charge.pool, charge.cls);
    const c = this.#counter(`${accountId}|${charge.pool}|${monthly.quota}`, monthly.windowSec, now);
    c.count++;
    for (const s of charge.scopes) c.byScope.set(s, (c.byScope.get(s) ?? 0) + 1);
  }

  /** `RateLimit-*` headers for the tightest window of the call's class. */
  headers(accountId: string, planName: Plan["name"], charge: Charge, now: number): Record<string, string> {
    const windows = windowsOf(plans[planName], charge.pool, charge.cls);
    const rows = windows.map((w) => ({ w, u: this.usage(accountId, charge.pool, w, now) }));
    const tightest = rows.reduce((a, b) => (b.u.remaining < a.u.remaining ? b : a));
    return {
      "RateLimit-Limit": String(tightest.w.limit),
      "RateLimit-Remaining": String(tightest.u.remaining),
      "RateLimit-Reset": String(Math.max(0, tightest.u.resetAt - now)),
      "RateLimit-Policy": windows.map((w) => `${w.quota};q=${w.limit};w=${w.windowSec}`).join(", "),
    };
  }

  /** Counts a call against the token's self-cap (if any); 429 `quota_exceeded` once the cap is spent. */
  spendTokenCap(token: { jti: string; cap?: number }, now: number) {
    if (token.cap === undefined) return;
    const spent = (this.#tokenSpend.get(token.jti) ?? 0) + 1;
    this.#tokenSpend.set(token.jti, spent);
    if (spent > token.cap) {
      throw quotaExceeded(
        { quota: "token_cap", limit: token.cap, windowSec: 0, successOnly: false },
        0,
        0,
        now,
      );
    }
  }

  tokenSpent(jti: string): number {
    return this.#tokenSpend.get(jti) ?? 0;
  }

  /**
   * A per-address (or per-account) throttle: `limit` calls per `windowSec`.
   * Answers 429 `rate_limited` past the limit; returns its headers either way.
   */
  throttle(key: string, limit: number, windowSec: number, now: number): Record<string, string> {
    const c = this.#counter(`throttle|${key}`, windowSec, now);
    c.count++;
    const reset = (c.index + 1) * windowSec - now;
    const headers = {
      "RateLimit-Limit": String(limit),
      "RateLimit-Remaining": String(Math.max(0, limit - c.count)),
      "RateLimit-Reset": String(reset),
    };
    if (c.count > limit) {
      throw new ApiProblem("rate_limited", `At most ${limit} calls per ${windowSec} seconds.`, {
        // Per-code members, in errors[0] like every other code's and at the top level as before.
        extra: { limit, window: windowSec, retryAfter: reset },
        errors: [{ limit, window: windowSec, retryAfter: reset }],
        headers: { ...headers, "Retry-After": String(reset) },
      });
    }
    return headers;
  }

  /** Forgets every counter (the sandbox clock jumped, or a test asked). */
  reset() {
    this.#counters.clear();
  }
}

/**
 * 429 `quota_exceeded`. `limit`, `remaining` and `resetAt` sit in `errors[0]`
 * (where the spec keeps per-code members, as for `missing_scope`) and, as
 * before, at the top level. A token's self-cap never resets: it has no
 * `resetAt`, `Retry-After` or `RateLimit-Reset`, since waiting cannot help.
 */
function quotaExceeded(w: WindowSpec, remaining: number, resetAt: number, now: number): ApiProblem {
  const cap = w.quota === "token_cap";
  const retryAfter = Math.max(1, resetAt - now);
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(w.limit),
    "RateLimit-Remaining": String(remaining),
  };
  if (!cap) {
    headers["RateLimit-Reset"] = String(retryAfter);
    headers["Retry-After"] = String(retryAfter);
  }
  const members = { quota: w.quota, limit: w.limit, remaining, ...(!cap && { resetAt }) };
  return new ApiProblem(
    "quota_exceeded",
    cap ? "This token has spent its self-cap." : `The ${w.quota} quota is spent.`,
    { extra: { ...members, resetAt: cap ? null : resetAt }, errors: [members], headers },
  );
}
