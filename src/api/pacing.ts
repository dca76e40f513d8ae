import { retryAfterSeconds } from "./retry.ts";
import { type Pacer, type QuotaClass, realTime, type TimeSource } from "./types.ts";

/**
 * Keeps every call of the process under the account's quota, so that steady
 * traffic meets no 429, however many callers run at once.
 *
 * One bucket per quota class. The service meters each call in fixed windows
 * (aligned minutes, 30-day months) of its scope family and of its leaf, so a
 * class's allowance is the tightest window of any of its scopes: the pacer
 * keeps the whole class under it, which is conservative when calls spread
 * over several families.
 *
 * - Pacing windows (an hour or shorter) are spent evenly: a generic cell rate
 *   (GCRA) lets `burst` calls through, then hands out one call every
 *   `(windowSec + safety) / (limit - burst + 1)`, so no run of `limit + 1`
 *   calls fits in one window even when their latencies differ by up to
 *   `safetyMs`. A call counts from the moment it is acquired, so calls in
 *   flight have spent their unit.
 * - Each answer's `RateLimit-Remaining`/`-Reset` keeps a guard true: the
 *   current window's room, less the calls still in flight. A spent window
 *   closes the class until it resets (another process may share the quota).
 *   While such a guard holds, the interval is the quota's own
 *   `(windowSec + safety) / limit`: the guard, not the rate, keeps the window
 *   under its limit, so a burst no longer costs a third of the rate.
 * - A 429 closes the class until its `Retry-After`.
 * - Budget windows (longer than an hour: the monthly quotas) are not paced:
 *   they are counted down, and a class whose budget is spent, or whose block
 *   would outlast `maxBlockMs`, fails at once with `QuotaExhaustedError`:
 *   waiting days for a month to turn over is never what a run wants. A
 *   token's self-cap never resets, so spending it fails the same way.
 * - No window (an unmetered account: empty `quotas`, answers without
 *   `RateLimit-*`) leaves a class unpaced. Until the pacer knows which it is
 *   (not primed, no answer yet), a class lets one call through at a time,
 *   so the client primes from `GET /account/quota` before its first burst.
 * - Anonymous catalogue calls share 120 per 5 minutes per address; `GET
 *   /agent/ip`'s own bucket of 60 is known only from its `RateLimit-*`
 *   headers, which the guard follows.
 *
 * Waiters are served first come, first served; one sleeper per class drives
 * the time, so a test clock advances once per wait, not once per caller.
 */
export interface QuotaPacerOptions {
  time?: TimeSource;
  /** Slack per pacing window for latency and clock differences; 1 s by default. */
  safetyMs?: number;
  /** The longest block (a `Retry-After`, a spent budget) worth waiting out; `defaultMaxBlockMs` by default. */
  maxBlockMs?: number;
  /**
   * Calls a class may make back to back before pacing starts. 1 by default
   * (even pacing); the anonymous catalogue bucket allows 10, since catalogue
   * reads come in small bursts at start-up and its window is five minutes.
   */
  burst?: Partial<Record<QuotaClass, number>>;
}

/**
 * The longest wait worth doing, the pacer's blocks and the client's `Retry-After` alike: a longer one (an
 * hourly or monthly window spent) fails the call at once, since waiting it out is never what a run wants.
 */
export const defaultMaxBlockMs = 15 * 60_000;

/** A class cannot go on before `resetAt` (milliseconds on the pacer's clock; undefined: never). */
export class QuotaExhaustedError extends Error {
  readonly quotaClass: QuotaClass;
  /** The spent window, e.g. `read_per_month`, `token_cap`, or `retry_after` for a long 429 block. */
  readonly quota: string;
  readonly resetAt: number | undefined;

  constructor(quotaClass: QuotaClass, quota: string, resetAt: number | undefined) {
    super(
      resetAt === undefined
        ? `The ${quota} quota is spent and does not reset: no more ${quotaClass} calls can be made.`
        : `The ${quota} quota of ${quotaClass} calls is spent until ${new Date(resetAt).toISOString()}.`,
    );
    this.name = "QuotaExhaustedError";
    this.quotaClass = quotaClass;
    this.quota = quota;
    this.resetAt = resetAt;
  }
}

interface Window {
  quota: string;
  limit: number;
  windowSec: number;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
  detach?: () => void;
}

interface Bucket {
  cls: QuotaClass;
  mode: "unknown" | "unmetered" | "paced";
  /** Calls allowed back to back, as asked; `burst` is that, capped by the tightest window's limit. */
  burstOption: number;
  burst: number;
  /** GCRA's interval while no answer has shown where the window ends: safe in any window-long span. */
  intervalMs: number;
  /** GCRA's interval while an answer's guard holds the window's room: the quota's own rate. */
  guardedIntervalMs: number;
  /** The longest pacing window: how long an unanswered call may still count. */
  windowMs: number;
  /** GCRA's theoretical arrival time of the next call. */
  tatMs: number;
  /** From a 429's `Retry-After`. */
  blockedUntil: number;
  /** Room left in the current pacing window, from the latest answer (or an estimate from priming). */
  guard?: { endMs: number; available: number; estimated: boolean };
  /** The tightest budget window (monthly). */
  budget?: { quota: string; limit: number; remaining: number; resetAtMs: number; windowMs: number };
  /** Acquire times of calls not yet answered, oldest first. */
  inflight: number[];
  queue: Waiter[];
  pumping: boolean;
  wake?: AbortController;
}

const pacingWindowMaxSec = 3600;
const anonymousWindow: Window = { quota: "anonymous_per_5_minutes", limit: 120, windowSec: 300 };
/** How long an unanswered probe (class not known yet) holds the others back. */
const probeExpiryMs = 10_000;
const metered = (cls: QuotaClass) => cls !== "anonymous";

export class QuotaPacer implements Pacer {
  readonly #time: TimeSource;
  readonly #safetyMs: number;
  readonly #maxBlockMs: number;
  readonly #buckets = new Map<QuotaClass, Bucket>();
  /** The token's self-cap, shared by every metered class. */
  #cap: { remaining: number } | undefined;

  constructor(options: QuotaPacerOptions = {}) {
    this.#time = options.time ?? realTime;
    this.#safetyMs = options.safetyMs ?? 1000;
    this.#maxBlockMs = options.maxBlockMs ?? defaultMaxBlockMs;
    for (const cls of ["read", "write", "checkRead", "checkWrite", "anonymous"] as const) {
      const burst = Math.max(1, Math.floor(options.burst?.[cls] ?? (cls === "anonymous" ? 10 : 1)));
      this.#buckets.set(cls, {
        cls,
        mode: "unknown",
        burstOption: burst,
        burst,
        intervalMs: 0,
        guardedIntervalMs: 0,
        windowMs: 60_000,
        tatMs: Number.NEGATIVE_INFINITY,
        blockedUntil: Number.NEGATIVE_INFINITY,
        inflight: [],
        queue: [],
        pumping: false,
      });
    }
    this.#configure(this.#bucket("anonymous"), [anonymousWindow]);
  }

  /**
   * Sets every metered class from the body of `GET /account/quota`: its
   * windows (`pools.account` for reads and writes, `pools.check` for the
   * check classes), the room left in them, and the token's cap.
   */
  prime(quotaBody: unknown): void {
    const body = asRecord(quotaBody);
    const pools = asRecord(body.pools);
    const classes = [
      ["account", "read", "read"],
      ["account", "write", "write"],
      ["check", "read", "checkRead"],
      ["check", "write", "checkWrite"],
    ] as const;
    const now = this.#time.now();
    for (const [pool, kind, cls] of classes) {
      const rows = (
        Array.isArray(asRecord(pools[pool]).quotas) ? (asRecord(pools[pool]).quotas as unknown[]) : []
      )
        .map(asRecord)
        .filter((r) => typeof r.quota === "string" && r.quota.startsWith(`${kind}_`))
        .filter((r) => isCount(r.limit) && isCount(r.windowSec) && r.windowSec > 0);
      const b = this.#bucket(cls);
      if (rows.length === 0) {
        b.mode = "unmetered";
        b.guard = undefined;
        b.budget = undefined;
        continue;
      }
      const windows = rows.map((r) => ({
        quota: r.quota as string,
        limit: r.limit as number,
        windowSec: r.windowSec as number,
      }));
      this.#configure(b, windows);
      const remainingOf = (r: Record<string, unknown>) => (isCount(r.remaining) ? r.remaining : 0);
      const pacing = rows.filter((r) => (r.windowSec as number) <= pacingWindowMaxSec);
      if (pacing.length > 0) {
        const tightest = pacing.reduce((a, c) => (remainingOf(c) < remainingOf(a) ? c : a));
        // The quota answer carries the service's clock, not ours: the window ends within a whole window from now.
        b.guard = {
          endMs: now + (tightest.windowSec as number) * 1000,
          available: remainingOf(tightest) - b.inflight.length,
          estimated: true,
        };
      }
      const budgets = rows.filter((r) => (r.windowSec as number) > pacingWindowMaxSec);
      if (budgets.length > 0) {
        const tightest = budgets.reduce((a, c) => (remainingOf(c) < remainingOf(a) ? c : a));
        b.budget = {
          quota: tightest.quota as string,
          limit: tightest.limit as number,
          remaining: remainingOf(tightest) - b.inflight.length,
          resetAtMs: isCount(tightest.resetAt)
            ? tightest.resetAt * 1000
            : now + (tightest.windowSec as number) * 1000,
          windowMs: (tightest.windowSec as number) * 1000,
        };
      }
    }
    if (isCount(body.tokenCap)) {
      this.#cap = { remaining: isCount(body.tokenCapRemaining) ? body.tokenCapRemaining : body.tokenCap };
    }
    for (const b of this.#buckets.values()) this.#wake(b);
  }

  acquire(cls: QuotaClass, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const b = this.#bucket(cls);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      if (signal) {
        const onAbort = () => {
          const at = b.queue.indexOf(waiter);
          if (at >= 0) b.queue.splice(at, 1);
          reject(signal.reason);
          this.#wake(b);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        waiter.detach = () => signal.removeEventListener("abort", onAbort);
      }
      b.queue.push(waiter);
      void this.#pump(b);
    });
  }

  observe(cls: QuotaClass, status: number, headers: Record<string, string>): void {
    const b = this.#bucket(cls);
    const now = this.#time.now();
    this.#expireInflight(b, now);
    // Answers are taken to come back in order: this one is the oldest call in flight's.
    const sentAt = b.inflight.shift() ?? now;
    const header = (name: string) =>
      Object.entries(headers)
        .find(([k]) => k.toLowerCase() === name)?.[1]
        ?.trim() || undefined;
    const limit = toCount(header("ratelimit-limit"));
    const remaining = toCount(header("ratelimit-remaining"));
    const reset = toCount(header("ratelimit-reset"));
    const policy = header("ratelimit-policy");

    if (policy && metered(cls)) {
      const windows = parsePolicy(policy);
      if (windows.length > 0) this.#configure(b, windows);
    } else if (b.mode === "unknown" && metered(cls) && status < 300 && limit === undefined) {
      // A metered account's answers always carry RateLimit-*; a success without them means no window applies.
      b.mode = "unmetered";
    }

    if (remaining !== undefined && reset !== undefined) {
      const available = remaining - b.inflight.length;
      if (reset <= pacingWindowMaxSec) {
        // The service answered between sending and now; from the sending end, one safety margin covers the
        // latency. Anchored at now instead, a slow answer from a window already over would close the next one.
        const endMs = sentAt + reset * 1000 + this.#safetyMs;
        if (endMs > now) this.#learnWindow(b, endMs, available);
      } else if (b.budget) b.budget.remaining = available;
      else {
        b.budget = {
          quota: "budget",
          limit: limit ?? remaining,
          remaining: available,
          resetAtMs: now + reset * 1000,
          windowMs: reset * 1000,
        };
      }
    }

    if (status === 429) {
      const retryAfter = retryAfterSeconds(header("retry-after"), this.#time);
      if (retryAfter !== undefined) b.blockedUntil = Math.max(b.blockedUntil, now + retryAfter * 1000);
      else if (metered(cls) && remaining === 0 && reset === undefined) {
        // The service's answer for a spent self-cap: no window, nothing to wait for.
        this.#cap = { remaining: 0 };
      } else b.blockedUntil = Math.max(b.blockedUntil, now + b.windowMs);
    }
    this.#wake(b);
  }

  #bucket(cls: QuotaClass): Bucket {
    const b = this.#buckets.get(cls);
    if (!b) throw new TypeError(`Unknown quota class: ${String(cls)}`);
    return b;
  }

  /** Paces the class at its tightest pacing window; budget windows are counted, not paced. */
  #configure(b: Bucket, windows: readonly Window[]): void {
    b.mode = "paced";
    const pacing = windows.filter((w) => w.windowSec <= pacingWindowMaxSec && w.limit > 0);
    if (pacing.length === 0) {
      b.intervalMs = 0;
      b.guardedIntervalMs = 0;
      return;
    }
    b.burst = Math.min(b.burstOption, ...pacing.map((w) => w.limit));
    // GCRA lets `burst` calls through at once, then one per interval: any window-long span then holds at most
    // `burst - 1 + (limit - burst + 1)` = `limit` calls, and `limit + 1` calls span a window plus `safetyMs`.
    b.intervalMs = Math.max(
      ...pacing.map((w) => (w.windowSec * 1000 + this.#safetyMs) / (w.limit - b.burst + 1)),
    );
    // Under a guard learned from an answer the window's count is known, so the burst need not be paid for
    // with a slower rate: the guard stops the class once the window is spent, and the class runs at the
    // quota's own rate. (Even pacing at the safe interval would make `limit - burst + 1` calls a window.)
    b.guardedIntervalMs = Math.max(...pacing.map((w) => (w.windowSec * 1000 + this.#safetyMs) / w.limit));
    b.windowMs = Math.max(...pacing.map((w) => w.windowSec * 1000));
  }

  /** The GCRA interval now: the quota's rate while an answer's guard holds the window's room. */
  #interval(b: Bucket): number {
    return b.guard && !b.guard.estimated ? b.guardedIntervalMs : b.intervalMs;
  }

  /**
   * Keeps the guard true. Ends within a safety margin of each other are one window (their answers' latencies
   * differ); an answer from an earlier window (answered out of order) is ignored.
   */
  #learnWindow(b: Bucket, endMs: number, available: number): void {
    const g = b.guard;
    const same = this.#safetyMs;
    if (!g || g.estimated || endMs > g.endMs + same) b.guard = { endMs, available, estimated: false };
    else if (endMs >= g.endMs - same) g.available = Math.min(g.available, available);
  }

  /** When the head of the queue may go, or why it never can within `maxBlockMs`. */
  #readyAt(b: Bucket, now: number): number | QuotaExhaustedError {
    this.#expireInflight(b, now);
    if (metered(b.cls) && this.#cap && this.#cap.remaining <= 0) {
      return new QuotaExhaustedError(b.cls, "token_cap", undefined);
    }
    if (b.mode === "unmetered") return now;

    let blocked = { until: b.blockedUntil, quota: "retry_after" };
    const budget = b.budget;
    if (budget) {
      if (now >= budget.resetAtMs) {
        const turned = Math.floor((now - budget.resetAtMs) / budget.windowMs) + 1;
        budget.resetAtMs += turned * budget.windowMs;
        budget.remaining = budget.limit;
      }
      if (budget.remaining <= 0 && budget.resetAtMs > blocked.until) {
        blocked = { until: budget.resetAtMs, quota: budget.quota };
      }
    }
    if (blocked.until - now > this.#maxBlockMs)
      return new QuotaExhaustedError(b.cls, blocked.quota, blocked.until);
    let at = Math.max(now, blocked.until);

    if (b.mode === "unknown") {
      // One probe at a time until an answer (or priming) tells whether windows apply.
      if (b.inflight.length > 0) at = Math.max(at, b.inflight[0]! + probeExpiryMs);
      return at;
    }
    if (b.guard && now >= b.guard.endMs) b.guard = undefined;
    at = Math.max(at, b.tatMs - (b.burst - 1) * this.#interval(b));
    if (b.guard && b.guard.available <= 0) at = Math.max(at, b.guard.endMs);
    return at;
  }

  /** A call never answered (a network error) stops counting once its window is over. */
  #expireInflight(b: Bucket, now: number): void {
    const expiry = b.mode === "unknown" ? probeExpiryMs : b.windowMs;
    while (b.inflight.length > 0 && b.inflight[0]! + expiry <= now) b.inflight.shift();
  }

  #grant(b: Bucket, now: number): void {
    b.inflight.push(now);
    if (metered(b.cls) && this.#cap) this.#cap.remaining--;
    if (b.mode !== "paced") return;
    b.tatMs = Math.max(b.tatMs, now) + this.#interval(b);
    if (b.guard) b.guard.available--;
    if (b.budget) b.budget.remaining--;
  }

  /** Serves the class's queue in order; the only sleeper of its class. */
  async #pump(b: Bucket): Promise<void> {
    if (b.pumping) return;
    b.pumping = true;
    try {
      while (b.queue.length > 0) {
        const now = this.#time.now();
        const at = this.#readyAt(b, now);
        if (at instanceof QuotaExhaustedError) {
          for (const w of b.queue.splice(0)) {
            w.detach?.();
            w.reject(at);
          }
          return;
        }
        if (at <= now) {
          const w = b.queue.shift()!;
          w.detach?.();
          this.#grant(b, now);
          w.resolve();
          continue;
        }
        const wake = new AbortController();
        b.wake = wake;
        await this.#time.sleep(at - now, wake.signal).catch(() => {});
        b.wake = undefined;
      }
    } finally {
      b.pumping = false;
    }
  }

  /** New knowledge: the sleeper re-reckons instead of finishing a wait that may now be wrong. */
  #wake(b: Bucket): void {
    b.wake?.abort();
  }
}

/** `read_per_minute;q=10;w=60;scope="account", …` → its windows. */
function parsePolicy(policy: string): Window[] {
  return policy.split(",").flatMap((item) => {
    const [quota, ...params] = item.trim().split(";");
    const values = Object.fromEntries(params.map((p) => p.trim().split("=") as [string, string]));
    const limit = toCount(values.q);
    const windowSec = toCount(values.w);
    return quota && limit !== undefined && windowSec !== undefined && windowSec > 0
      ? [{ quota: quota.trim(), limit, windowSec }]
      : [];
  });
}

function toCount(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
