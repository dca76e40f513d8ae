/**
 * The read budget: a share (10 % by default) of the account's read quota,
 * and the cadences that fit in it. The watcher's calls go through a pacer that
 * holds them to that share, on top of the account's own pacer, so other
 * clients of the account keep the rest.
 */
import { bursts, type Pacer, type QuotaClass, QuotaPacer, type TimeSource } from "../api/index.ts";
import type { KindName, State } from "../engine/index.ts";

export interface ReadWindow {
  quota: string;
  limit: number;
  windowSec: number;
}

export interface ReadBudget {
  /** The share of each read window the watcher may spend. */
  share: number;
  /** The account's read windows (empty: unmetered). */
  windows: ReadWindow[];
  /** Reads an hour the share allows, by its tightest window; Infinity when unmetered. */
  perHour: number;
  /** The window that sets `perHour`. */
  tightest?: ReadWindow;
}

const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The read windows of the account pool in a `GET /account/quota` answer. */
function readWindows(quotaBody: unknown): ReadWindow[] {
  const rows = asRecord(asRecord(asRecord(quotaBody).pools).account).quotas;
  if (!Array.isArray(rows)) return [];
  const out = new Map<string, ReadWindow>();
  for (const row of rows.map(asRecord)) {
    const { quota, limit, windowSec } = row;
    if (typeof quota !== "string" || !quota.startsWith("read_")) continue;
    if (typeof limit !== "number" || typeof windowSec !== "number" || windowSec <= 0 || limit < 0) continue;
    // A window is metered per scope family and per leaf: the tightest row of each window counts.
    const seen = out.get(quota);
    if (!seen || limit < seen.limit) out.set(quota, { quota, limit, windowSec });
  }
  return [...out.values()];
}

export function readBudget(quotaBody: unknown, share: number): ReadBudget {
  const windows = readWindows(quotaBody);
  let perHour = Number.POSITIVE_INFINITY;
  let tightest: ReadWindow | undefined;
  for (const w of windows) {
    const hourly = (share * w.limit * 3600) / w.windowSec;
    if (hourly < perHour) {
      perHour = hourly;
      tightest = w;
    }
  }
  return { share, windows, perHour, ...(tightest && { tightest }) };
}

export interface Cadence {
  /** Milliseconds between delta syncs. */
  everyMs: number;
  /** Milliseconds between full refreshes. */
  fullEveryMs: number;
}

export interface CadencePlan {
  asked: Cadence;
  cadence: Cadence;
  /** Reads an hour the asked cadence would spend, and the one chosen. */
  askedPerHour: number;
  perHour: number;
  stretched: boolean;
}

/**
 * The cadence that fits the budget: the asked one when it fits, otherwise
 * both intervals stretched by the same factor, so delta syncs stay as many
 * times more frequent than full refreshes as asked. A full refresh lists every
 * kind and renews the sync cursors, so the delta syncs it replaces are not
 * counted twice.
 */
export function planCadence(
  asked: Cadence,
  cost: { delta: number; full: number },
  budget: ReadBudget,
): CadencePlan {
  const perHour = (c: Cadence) => {
    const fulls = 3_600_000 / c.fullEveryMs;
    const deltas = Math.max(0, 3_600_000 / c.everyMs - fulls);
    return deltas * cost.delta + fulls * cost.full;
  };
  const askedPerHour = perHour(asked);
  if (askedPerHour <= budget.perHour)
    return { asked, cadence: asked, askedPerHour, perHour: askedPerHour, stretched: false };
  const factor = askedPerHour / budget.perHour;
  const cadence = {
    everyMs: Math.ceil((asked.everyMs * factor) / 1000) * 1000,
    fullEveryMs: Math.ceil((asked.fullEveryMs * factor) / 1000) * 1000,
  };
  return { asked, cadence, askedPerHour, perHour: perHour(cadence), stretched: true };
}

/**
 * The cadence fitted to the budget and to what refreshes cost: estimated from the state at start-up, then
 * measured on every refresh (the watcher sets `cost`) and fitted again.
 */
export class FittedCadence {
  readonly budget: ReadBudget;
  readonly cost: { delta: number; full: number };
  readonly #asked: Cadence;
  #plan: CadencePlan;

  constructor(asked: Cadence, budget: ReadBudget, estimated: { delta: number; full: number }) {
    this.#asked = asked;
    this.budget = budget;
    this.cost = { ...estimated };
    this.#plan = planCadence(asked, this.cost, budget);
  }

  get plan(): CadencePlan {
    return this.#plan;
  }

  /** What to say of the budget and the cadence at start-up. */
  describe(): string[] {
    return describeCadence(this.#plan, this.cost, this.budget, true);
  }

  /** Fits the cadence to the costs measured since; answers what to say when that changed it. */
  refit(): string[] {
    const plan = planCadence(this.#asked, this.cost, this.budget);
    const changed =
      plan.cadence.everyMs !== this.#plan.cadence.everyMs ||
      plan.cadence.fullEveryMs !== this.#plan.cadence.fullEveryMs;
    this.#plan = plan;
    return changed ? describeCadence(plan, this.cost, this.budget, false) : [];
  }
}

/** `300000` → `5m`, `5400000` → `1h30m`. */
export function formatDuration(ms: number): string {
  let s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return [h && `${h}h`, m && `${m}m`, s && `${s}s`].filter(Boolean).join("") || "0s";
}

/**
 * The quota answer with every window cut to the share: primed with it, a
 * `QuotaPacer` spaces the watcher's calls at the share's rate and counts its
 * monthly allowance down. It never learns from answers, whose headers speak of
 * the whole account; the account's own pacer does that.
 */
function shareOf(quotaBody: unknown, share: number): unknown {
  const body = asRecord(quotaBody);
  const pools = asRecord(body.pools);
  const cut = (pool: unknown) => {
    const quotas = asRecord(pool).quotas;
    return {
      ...asRecord(pool),
      quotas: Array.isArray(quotas)
        ? quotas.map((q) => {
            const row = asRecord(q);
            if (typeof row.limit !== "number") return row;
            const limit = Math.max(1, Math.floor(row.limit * share));
            return { ...row, limit, remaining: limit };
          })
        : quotas,
    };
  };
  return {
    ...body,
    pools: Object.fromEntries(Object.entries(pools).map(([name, pool]) => [name, cut(pool)])),
  };
}

/**
 * Holds calls to a share of the quota, then to the account's pacing: a call
 * waits for room in both. Reads and writes alike (a heal's writes are the
 * watcher's too).
 *
 * Except at start-up: until `steady()`, calls keep to the account's pacing
 * only, with the burst a command has, so the first refresh takes what a plan
 * takes. The share is a steady-state rate; paced by it, a first refresh of 10
 * reads on Business would take 100 s, with `/healthz` starting all along.
 */
export class SharePacer implements Pacer {
  readonly #share: QuotaPacer;
  readonly #account: QuotaPacer;
  readonly #fraction: number;
  #steady = false;

  constructor(fraction: number, time: TimeSource) {
    this.#fraction = fraction;
    this.#share = new QuotaPacer({ time });
    this.#account = new QuotaPacer({ time, burst: bursts.command });
  }

  /** The first refresh is over: from now on every call keeps to the share too. */
  steady(): void {
    this.#steady = true;
  }

  prime(quotaBody: unknown): void {
    this.#share.prime(shareOf(quotaBody, this.#fraction));
    this.#account.prime(quotaBody);
  }

  async acquire(cls: QuotaClass, signal?: AbortSignal): Promise<void> {
    if (this.#steady) await this.#share.acquire(cls, signal);
    await this.#account.acquire(cls, signal);
  }

  observe(cls: QuotaClass, status: number, headers: Record<string, string>): void {
    this.#account.observe(cls, status, headers);
  }
}

/** What the watcher says of its budget and cadence: at start-up, and when a measured cost changes the cadence. */
export function describeCadence(
  plan: CadencePlan,
  cost: { delta: number; full: number },
  b: ReadBudget,
  estimated: boolean,
): string[] {
  const budget = b.tightest
    ? `${b.perHour.toFixed(1)} reads/hour (${Math.round(b.share * 100)} % of ${b.tightest.quota} ${b.tightest.limit})`
    : "unlimited (the account's reads are unmetered)";
  const costs = `delta sync ${cost.delta} read${cost.delta === 1 ? "" : "s"}, full refresh ${cost.full}${estimated ? " (estimated)" : ""}`;
  const asked = `every ${formatDuration(plan.asked.everyMs)}, full every ${formatDuration(plan.asked.fullEveryMs)}`;
  return [
    `Read budget: ${budget}; ${costs}.`,
    plan.stretched
      ? `Warning: delta sync ${asked} would spend ${plan.askedPerHour.toFixed(1)} reads/hour, over the budget; stretched to every ${formatDuration(plan.cadence.everyMs)}, full every ${formatDuration(plan.cadence.fullEveryMs)} (${plan.perHour.toFixed(1)} reads/hour).`
      : `Cadence: delta sync ${asked} (${plan.perHour.toFixed(1)} reads/hour).`,
  ];
}

/**
 * What a delta sync and a full refresh cost before either has run, from the state: a read per kind with
 * delta sync; `GET /account` and a page per 500 objects of each kind.
 */
export function estimatedCost(
  state: State,
  kinds: readonly KindName[],
  syncKinds: number,
): { delta: number; full: number } {
  const held = Object.values(state.resources);
  const pages = (kind: KindName) => Math.max(1, Math.ceil(held.filter((r) => r.kind === kind).length / 500));
  return { delta: syncKinds, full: 1 + kinds.reduce((n, k) => n + pages(k), 0) };
}
