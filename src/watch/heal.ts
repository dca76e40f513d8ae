/**
 * `--heal`: applies the plan of drifted resources only, under the state lock
 * (whatever lock the state store takes: the file's, or a lease), through the
 * engine's saved-plan path, which first checks that nothing the plan saw has
 * changed: the state's serial included, so the checks made here on the state
 * the plan was made from (the configuration is the state's, each address still
 * holds the object reported drifted) still hold when it writes. Failures back
 * off per resource, doubling up to 30 minutes.
 */
import { ApiError, type Operations, type TimeSource } from "../api/index.ts";
import {
  applyChanges,
  type DesiredResource,
  engineKind,
  makePlan,
  type Plan,
  type PlannedAction,
  type State,
  type StateStore,
  summarize,
} from "../engine/index.ts";
import type { ConfigGuard } from "./config-check.ts";
import type { LiveView } from "./live.ts";
import type { WatchMetrics } from "./metrics.ts";
import type { HealRecord } from "./record.ts";
import type { Reports } from "./transitions.ts";

export interface HealerOptions {
  ops: Operations;
  store: StateStore;
  view: LiveView;
  time: TimeSource;
  /** Heals may delete (a replace deletes the old object). */
  deletes: boolean;
  metrics: WatchMetrics;
  log: (line: string) => void;
}

const firstBackoffMs = 30_000;
const maxBackoffMs = 30 * 60_000;

export class Healer {
  readonly #o: HealerOptions;

  constructor(options: HealerOptions) {
    this.#o = options;
  }

  /** When the next heal is due: the earliest drifted, non-fighting resource's time. */
  nextDue(reports: Reports): number {
    let at = Number.POSITIVE_INFINITY;
    for (const r of reports.reported.values()) {
      if (r.fighting) continue;
      at = Math.min(at, reports.heals.get(r.address)?.nextAt ?? 0);
    }
    return at;
  }

  /**
   * Heals what is due with `config`, the watcher's configuration; answers the state after it and the
   * addresses to judge again, or undefined when nothing was due. When the newest state was not applied
   * with that configuration, nothing is healed: `differences` says how they differ.
   */
  async heal(
    reports: Reports,
    state: State,
    config: Pick<ConfigGuard, "config" | "differencesFrom">,
  ): Promise<{ state: State; addresses: string[]; differences?: string[] } | undefined> {
    const desired = config.config;
    const now = this.#o.time.now();
    const dueReports = [...reports.reported.values()].filter(
      (r) => !r.fighting && (reports.heals.get(r.address)?.nextAt ?? 0) <= now,
    );
    if (dueReports.length === 0) return undefined;
    // Planned from the state as it is now: a plan from an older serial would be refused as stale.
    state = await this.#readState(state);
    // A newer apply with another configuration: healing with this one would undo it.
    const differences = config.differencesFrom(state);
    if (differences.length > 0) return { state, addresses: [], differences };
    // Drift reported of an object the address no longer holds (a newer apply replaced it) is judged again, not healed.
    const moved = dueReports.filter((r) => state.resources[r.address]?.id !== r.id).map((r) => r.address);
    for (const address of moved) record(reports, address).nextAt = now + firstBackoffMs;
    const due = dueReports.filter((r) => !moved.includes(r.address)).map((r) => r.address);
    if (due.length === 0) return { state, addresses: moved };
    const planned = this.#plan(reports, { desired, state, due, now });
    if (!planned) return { state, addresses: moved };
    const outcomes = await this.#apply(reports, { desired, ...planned, now });
    if (!outcomes) return { state, addresses: moved };
    const after = await this.#readState(state);
    await this.#settle(reports, planned.actions, outcomes, after, now);
    return { state: after, addresses: [...moved, ...planned.actions.map((a) => a.address)] };
  }

  /**
   * The plan of the due addresses, and the actions a heal may take of it; undefined when it cannot be
   * made, or it would change more than they (each declined then).
   */
  #plan(
    reports: Reports,
    {
      desired,
      state,
      due,
      now,
    }: { desired: readonly DesiredResource[]; state: State; due: string[]; now: number },
  ): { plan: Plan; actions: PlannedAction[] } | undefined {
    let plan: Plan;
    try {
      plan = makePlan({
        desired,
        state,
        inventory: this.#o.view.inventory(),
        targets: due,
        now: Math.floor(now / 1000),
      });
    } catch (error) {
      for (const a of due) this.#failed(reports, a, (error as Error).message, now);
      return undefined;
    }
    const dueSet = new Set(due);
    const others = plan.actions.filter(
      (a) => !dueSet.has(a.address) && a.action !== "no-op" && !a.cascadedBy,
    );
    if (others.length > 0) {
      const names = others.map((a) => `${a.address} (${a.action})`).join(", ");
      for (const a of due) this.#declined(reports, a, `the plan also changes ${names}; run vigil apply`, now);
      return undefined;
    }
    const actions: PlannedAction[] = [];
    for (const a of plan.actions) {
      if (!dueSet.has(a.address) || a.action === "no-op") continue;
      const deletes = a.action === "delete" || a.action === "replace";
      if (deletes && !this.#o.deletes)
        this.#declined(
          reports,
          a.address,
          `it needs a ${a.action}, which deletes; --heal-deletes allows it`,
          now,
        );
      else actions.push(a);
    }
    return actions.length > 0 ? { plan, actions } : undefined;
  }

  /**
   * Applies the actions through the saved-plan path; answers each address's failure (undefined when it
   * was applied), or undefined when the apply as a whole failed (each action failed then).
   */
  async #apply(
    reports: Reports,
    {
      desired,
      plan,
      actions,
      now,
    }: { desired: readonly DesiredResource[]; plan: Plan; actions: PlannedAction[]; now: number },
  ): Promise<Map<string, string | undefined> | undefined> {
    for (const a of actions) {
      this.#o.metrics.healAttempts.inc({ kind: a.kind });
      const members = a.changes.map((c) => c.path.slice(1).replaceAll("/", ".")).join(", ");
      this.#o.log(`Heal ${a.address}: ${a.action}${members ? ` ${members}` : ""} (${a.reasons.join("; ")}).`);
    }
    const outcomes = new Map<string, string | undefined>();
    try {
      const outcome = await applyChanges({
        ops: this.#o.ops,
        store: this.#o.store,
        desired,
        plan: { ...plan, actions, summary: summarize(actions) },
        time: this.#o.time,
        onProgress: (e) =>
          outcomes.set(e.address, e.outcome === "failed" ? (e.message ?? "failed") : undefined),
      });
      for (const f of outcome.result.failures) outcomes.set(f.address, f.message);
    } catch (error) {
      // A stale plan (the state or an object moved since the view saw it), a held lock, a refused call.
      for (const a of actions) this.#failed(reports, a.address, (error as Error).message, now);
      return undefined;
    }
    return outcomes;
  }

  /** Each action's outcome recorded; a healed object read back into the view. */
  async #settle(
    reports: Reports,
    actions: readonly PlannedAction[],
    outcomes: ReadonlyMap<string, string | undefined>,
    after: State,
    now: number,
  ): Promise<void> {
    for (const a of actions) {
      const why = outcomes.get(a.address);
      if (why !== undefined || !outcomes.has(a.address)) {
        this.#failed(reports, a.address, why ?? "not applied", now);
        continue;
      }
      const h = record(reports, a.address);
      h.failures = 0;
      h.nextAt = 0;
      h.healedAt = this.#o.time.now();
      this.#o.metrics.healOutcomes.inc({ outcome: "healed" });
      this.#o.log(`Heal ${a.address}: done.`);
      // Read back, so the view holds what the heal left (and a drift right after it is seen as fighting).
      const held = after.resources[a.address];
      if (!held?.id) continue;
      const id = held.id;
      try {
        this.#o.view.put(a.kind, await engineKind(a.kind).getOne(this.#o.ops, { id, ...held.naturalKey }));
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
        this.#o.view.remove(a.kind, id);
      }
    }
  }

  /** A failed heal backs off, doubling up to the longest wait. */
  #failed(reports: Reports, address: string, why: string, now: number): void {
    const h = record(reports, address);
    h.failures++;
    h.nextAt = now + Math.min(maxBackoffMs, firstBackoffMs * 2 ** (h.failures - 1));
    this.#o.metrics.healOutcomes.inc({ outcome: "failed" });
    this.#o.log(
      `Heal ${address}: failed (${why}); next attempt in ${Math.round((h.nextAt - now) / 1000)} s.`,
    );
  }

  /** A heal the watcher will not make waits the longest. */
  #declined(reports: Reports, address: string, why: string, now: number): void {
    record(reports, address).nextAt = now + maxBackoffMs;
    this.#o.metrics.healOutcomes.inc({ outcome: "declined" });
    this.#o.log(`Heal ${address}: not healed, ${why}.`);
  }

  /** The state the heal left; the one before when the lock is taken again at once. */
  async #readState(fallback: State): Promise<State> {
    try {
      const lock = await this.#o.store.lock();
      try {
        return (await lock.read()) ?? fallback;
      } finally {
        await lock.release();
      }
    } catch {
      return fallback;
    }
  }
}

/** The heal record of an address, made on first use. */
function record(reports: Reports, address: string): HealRecord {
  let h = reports.heals.get(address);
  if (!h) {
    h = { address, failures: 0, nextAt: 0 };
    reports.heals.set(address, h);
  }
  return h;
}
