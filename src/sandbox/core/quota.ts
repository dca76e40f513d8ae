import { type LeafScope, leafScopes, type ScopeFamily, scopeFamilies } from "../../kinds/index.ts";
import { type Plan, plans } from "./plans.ts";
import { ApiProblem } from "./problem.ts";

/**
 * Rate and quota accounting. Each account has two pools (`account`, and
 * `check` for instant checks) whose plan limits apply to every scope of the
 * pool. Each scope family and each leaf has its own windows: a call counts
 * against its scope family and its leaf separately (a monitor list spends
 * `monitor` and `monitor:read`), and is admitted only while every window of
 * both has room. Per-minute windows count every request, refused ones
 * included; per-month windows (30 days) count successful requests only.
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

const poolOf = (scopeFamily: ScopeFamily): Pool => (scopeFamily === "check" ? "check" : "account");
/** A leaf's calls are of its own class: `monitor:read` reads, `monitor:write` writes. */
export const leafClass = (leaf: LeafScope): QuotaClass => (leaf.endsWith(":read") ? "read" : "write");

/** Every scope of a pool with its windows: each scope family reads and writes, each leaf its own class. */
export function poolWindows(plan: Plan, pool: Pool): Array<{ scope: string; window: WindowSpec }> {
  return scopeFamilies
    .filter((scopeFamily) => poolOf(scopeFamily) === pool)
    .flatMap((scopeFamily) => [
      ...[...windowsOf(plan, pool, "read"), ...windowsOf(plan, pool, "write")].map((window) => ({
        scope: scopeFamily as string,
        window,
      })),
      ...leafScopes
        .filter((leaf) => leaf.startsWith(`${scopeFamily}:`))
        .flatMap((leaf) => windowsOf(plan, pool, leafClass(leaf)).map((window) => ({ scope: leaf, window }))),
    ]);
}

/** What a metered call spends: its class's windows of its scope family and of its leaf. */
export interface Charge {
  pool: Pool;
  cls: QuotaClass;
  scopes: [ScopeFamily, LeafScope];
}

export function chargeFor(leaf: LeafScope, cls: QuotaClass): Charge {
  const scopeFamily = leaf.slice(0, leaf.indexOf(":")) as ScopeFamily;
  return { pool: poolOf(scopeFamily), cls, scopes: [scopeFamily, leaf] };
}

interface Counter {
  index: number;
  count: number;
}

/** One window of one scope, with its use now. */
interface Metered {
  scope: string;
  w: WindowSpec;
  used: number;
  remaining: number;
  resetAt: number;
}

export class Meter {
  readonly #counters = new Map<string, Counter>();
  readonly #tokenSpend = new Map<string, number>();

  #counter(key: string, windowSec: number, now: number): Counter {
    const index = Math.floor(now / windowSec);
    let c = this.#counters.get(key);
    if (!c || c.index !== index) {
      c = { index, count: 0 };
      this.#counters.set(key, c);
    }
    return c;
  }

  #key = (accountId: string, scope: string, w: WindowSpec) => `${accountId}|${scope}|${w.quota}`;

  usage(accountId: string, scope: string, w: WindowSpec, now: number) {
    const c = this.#counter(this.#key(accountId, scope, w), w.windowSec, now);
    return { used: c.count, remaining: Math.max(0, w.limit - c.count), resetAt: (c.index + 1) * w.windowSec };
  }

  /** The call's windows, scope family first, minute before month. */
  #windows(accountId: string, planName: Plan["name"], charge: Charge, now: number): Metered[] {
    const windows = windowsOf(plans[planName], charge.pool, charge.cls);
    return charge.scopes.flatMap((scope) =>
      windows.map((w) => ({ scope, w, ...this.usage(accountId, scope, w, now) })),
    );
  }

  /**
   * Charges a metered call before it runs: counts it in the per-minute
   * windows of its scope family and its leaf, and refuses it (429
   * `quota_exceeded`) when any of their windows is spent or the token's cap
   * is reached.
   */
  admit(
    accountId: string,
    planName: Plan["name"],
    charge: Charge,
    now: number,
    token?: { jti: string; cap?: number },
  ) {
    this.#count(accountId, planName, charge, now, false);
    if (token) this.spendTokenCap(token, now);
    const windows = this.#windows(accountId, planName, charge, now);
    // This call is already in the minute windows, not yet in the month ones. With several spent,
    // the one that resets last is named: retrying before it resets cannot help.
    const spent = windows
      .filter((m) => (m.w.successOnly ? m.used >= m.w.limit : m.used > m.w.limit))
      .reduce<Metered | undefined>((a, b) => (a && a.resetAt >= b.resetAt ? a : b), undefined);
    if (spent)
      throw quotaExceeded(spent.w, spent.resetAt, now, { scope: spent.scope, policy: policyOf(windows) });
  }

  /** Counts a successful call in the success-only windows. */
  settle(accountId: string, planName: Plan["name"], charge: Charge, now: number) {
    this.#count(accountId, planName, charge, now, true);
  }

  #count(accountId: string, planName: Plan["name"], charge: Charge, now: number, successOnly: boolean) {
    const w = windowsOf(plans[planName], charge.pool, charge.cls).find((x) => x.successOnly === successOnly)!;
    for (const scope of charge.scopes)
      this.#counter(this.#key(accountId, scope, w), w.windowSec, now).count++;
  }

  /** `RateLimit-*` headers for the tightest of the call's windows; the policy lists them all. */
  headers(accountId: string, planName: Plan["name"], charge: Charge, now: number): Record<string, string> {
    const windows = this.#windows(accountId, planName, charge, now);
    const tightest = windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    return {
      "RateLimit-Limit": String(tightest.w.limit),
      "RateLimit-Remaining": String(tightest.remaining),
      "RateLimit-Reset": String(Math.max(0, tightest.resetAt - now)),
      "RateLimit-Policy": policyOf(windows),
    };
  }

  /** Counts a call against the token's self-cap (if any); 429 `quota_exceeded` once the cap is spent. */
  spendTokenCap(token: { jti: string; cap?: number }, now: number) {
    if (token.cap === undefined) return;
    const spent = (this.#tokenSpend.get(token.jti) ?? 0) + 1;
    this.#tokenSpend.set(token.jti, spent);
    if (spent > token.cap) {
      throw quotaExceeded({ quota: "token_cap", limit: token.cap, windowSec: 0, successOnly: false }, 0, now);
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
}

/**
 * 429 `quota_exceeded`. `limit`, `remaining` and `resetAt` sit in `errors[0]`
 * (where the spec keeps per-code members, as for `missing_scope`) and, as
 * before, at the top level. A spent window (`spent`) answers the call's
 * policy and names its scope in the detail. A token's self-cap is no window
 * and never resets: it has no `resetAt`, `Retry-After`, `RateLimit-Reset` or
 * `RateLimit-Policy`, since waiting cannot help.
 */
function quotaExceeded(
  w: WindowSpec,
  resetAt: number,
  now: number,
  spent?: { scope: string; policy: string },
): ApiProblem {
  const retryAfter = Math.max(1, resetAt - now);
  const headers: Record<string, string> = { "RateLimit-Limit": String(w.limit), "RateLimit-Remaining": "0" };
  if (spent) {
    headers["RateLimit-Reset"] = String(retryAfter);
    headers["Retry-After"] = String(retryAfter);
    headers["RateLimit-Policy"] = spent.policy;
  }
  const members = { quota: w.quota, limit: w.limit, remaining: 0, ...(spent && { resetAt }) };
  return new ApiProblem(
    "quota_exceeded",
    spent ? `The ${spent.scope} ${w.quota} quota is spent.` : "This token has spent its self-cap.",
    { extra: { ...members, resetAt: spent ? resetAt : null }, errors: [members], headers },
  );
}

/** `RateLimit-Policy`: each of the call's windows, named by its quota, with the scope it meters. */
function policyOf(windows: readonly Metered[]): string {
  return windows.map((m) => `${m.w.quota};q=${m.w.limit};w=${m.w.windowSec};scope="${m.scope}"`).join(", ");
}
