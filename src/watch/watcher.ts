/**
 * `vigil watch`'s engine: keeps a live picture of the managed objects from
 * events, delta syncs and rare full refreshes, judges drift per resource, and
 * reports each transition once. Holds the state lock only to read the state
 * and, with heal on, while a heal applies.
 */
import { type Operations, QuotaExhaustedError, realTime, type TimeSource } from "../api/index.ts";
import {
  type DesiredResource,
  engineKind,
  type KindName,
  refresh,
  type State,
  StateLockedError,
  type StateStore,
} from "../engine/index.ts";
import {
  type Cadence,
  type CadencePlan,
  formatDuration,
  planCadence,
  type ReadBudget,
  readBudget,
} from "./budget.ts";
import type { Delivery } from "./deliveries.ts";
import { driftOf } from "./drift.ts";
import { Healer } from "./heal.ts";
import { LiveView } from "./live.ts";
import type { WatchMetrics } from "./metrics.ts";
import { emptyRecord, type RecordStore, type WatchRecord } from "./record.ts";
import { Reports, type SeenBy, type Transition } from "./transitions.ts";

export interface WatcherOptions {
  ops: Operations;
  store: StateStore;
  records: RecordStore;
  desired: readonly DesiredResource[];
  metrics: WatchMetrics;
  /** Asked cadences, in milliseconds; stretched to fit the read budget. */
  cadence: Cadence;
  /** The share of the account's read quota the watcher may spend (0.1). */
  share: number;
  /** Reads made so far by the watcher's client: what a refresh costs is learned from it. */
  reads: () => number;
  time?: TimeSource;
  /** Heal drifted resources; `deletes` allows heals that delete (a replace). */
  heal?: { deletes: boolean };
  /** A drift this soon after a heal is fighting; 15 minutes by default. */
  fightWindowMs?: number;
  onTransition: (t: Transition) => void | Promise<void>;
  /** Lines for stderr: start-up, warnings, everything a heal does. */
  log: (line: string) => void;
}

/** How long a state lock held by someone else (an apply) may delay reading the state at start. */
const lockWaitMs = 30_000;

export class Watcher {
  readonly #o: WatcherOptions;
  readonly #time: TimeSource;
  readonly #view = new LiveView();
  readonly #desired: Map<string, DesiredResource>;
  readonly #kinds: KindName[];
  #state!: State;
  #record!: WatchRecord;
  #reports!: Reports;
  #budget!: ReadBudget;
  #plan!: CadencePlan;
  #cost = { delta: 1, full: 1 };
  /** kind/id → addresses managing it. */
  #addresses = new Map<string, string[]>();
  #healer: Healer | undefined;
  #ready = false;
  #stop = new AbortController();
  /** Events are judged one at a time, in arrival order. */
  #events: Promise<void> = Promise.resolve();

  constructor(options: WatcherOptions) {
    this.#o = options;
    this.#time = options.time ?? realTime;
    this.#desired = new Map(options.desired.map((d) => [d.address, d]));
    this.#kinds = [...new Set(options.desired.map((d) => d.kind))];
  }

  /** Ready once the first refresh has succeeded: what `/healthz` answers. */
  get ready(): boolean {
    return this.#ready;
  }

  get cadence(): CadencePlan {
    return this.#plan;
  }

  get budget(): ReadBudget {
    return this.#budget;
  }

  /** Reads the state, the record and the quota; the first refresh; the first report. */
  async start(): Promise<void> {
    this.#state = await this.#readState(lockWaitMs);
    for (const r of Object.values(this.#state.resources))
      if (!this.#kinds.includes(r.kind)) this.#kinds.push(r.kind);
    this.#indexState();
    const saved = await this.#o.records.load();
    this.#record = saved && saved.lineage === this.#state.lineage ? saved : emptyRecord(this.#state.lineage);
    this.#reports = new Reports(this.#record);

    this.#budget = readBudget(await this.#o.ops.account.quota(), this.#o.share);
    this.#o.metrics.budget.set(Number.isFinite(this.#budget.perHour) ? this.#budget.perHour : -1);
    const pages = (kind: KindName) =>
      Math.max(
        1,
        Math.ceil(Object.values(this.#state.resources).filter((r) => r.kind === kind).length / 500),
      );
    this.#cost = {
      delta: this.#syncKinds().length,
      full: 1 + this.#kinds.reduce((n, k) => n + pages(k), 0),
    };
    this.#replan(true);
    if (this.#o.heal) {
      this.#healer = new Healer({
        ops: this.#o.ops,
        store: this.#o.store,
        desired: this.#o.desired,
        view: this.#view,
        time: this.#time,
        deletes: this.#o.heal.deletes,
        metrics: this.#o.metrics,
        log: this.#o.log,
      });
    }

    const now = this.#time.now();
    const recent =
      this.#record.lastFullAt !== undefined && now - this.#record.lastFullAt < this.#plan.cadence.fullEveryMs;
    if (recent) await this.#resume();
    else await this.#full();
    this.#ready = true;
  }

  /** Runs until `stop()`: delta syncs and full refreshes at the fitted cadence, heals when due. */
  async run(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      const now = this.#time.now();
      const nextFull = (this.#record.lastFullAt ?? now) + this.#plan.cadence.fullEveryMs;
      const nextDelta =
        Math.max(this.#record.lastDeltaAt ?? now, this.#record.lastFullAt ?? now) +
        this.#plan.cadence.everyMs;
      const nextHeal = this.#healer?.nextDue(this.#reports) ?? Number.POSITIVE_INFINITY;
      const at = Math.min(nextFull, nextDelta, nextHeal);
      if (at > now) {
        try {
          await this.#time.sleep(at - now, signal);
        } catch {
          // Woken: stopped, or a heal fell due earlier.
        }
        continue;
      }
      try {
        if (nextFull <= now) await this.#full();
        else if (nextDelta <= now) await this.#delta();
        if (this.#healer && nextHeal <= this.#time.now()) await this.#heal();
      } catch (error) {
        this.#failed(error);
        // Tried again after a pause, not at once: the failure may be the API's, or the quota's.
        await this.#time.sleep(Math.min(60_000, this.#plan.cadence.everyMs), signal).catch(() => {});
      }
    }
  }

  /** Ends `run()` at its next wait. */
  stop(): void {
    this.#stop.abort();
  }

  /** A verified delivery: the objects it names are refreshed (from its data, or one read), then judged. */
  receive(delivery: Delivery): Promise<void> {
    const next = this.#events.then(() => this.#event(delivery)).catch((error) => this.#failed(error));
    this.#events = next;
    return next;
  }

  async #event(d: Delivery): Promise<void> {
    if (!this.#ready) return;
    const data = d.data;
    const id = typeof data.id === "string" ? data.id : undefined;
    let touched: [KindName, string][] = [];
    if (id && (d.event === "monitor.created" || d.event === "monitor.updated")) {
      if (!this.#watches("monitor")) return;
      // The event carries the monitor as GET answers it; an older shape without settings costs one read.
      const row =
        typeof data.settings === "object" && data.settings !== null
          ? data
          : await engineKind("monitor").getOne(this.#o.ops, { id });
      this.#view.put("monitor", row);
      touched = [["monitor", id]];
    } else if (id && d.event === "monitor.deleted") {
      if (!this.#watches("monitor")) return;
      this.#view.remove("monitor", id);
      touched = [["monitor", id]];
      // The API deletes the monitor's subscriptions with it.
      for (const kind of ["alertSubscription", "reportSubscription"] as const) {
        for (const [sid, row] of this.#view.rows.get(kind) ?? []) {
          if (row.monitorId !== id) continue;
          this.#view.remove(kind, sid);
          touched.push([kind, sid]);
        }
      }
    } else if (id && d.event === "contact.updated") {
      if (!this.#watches("contact")) return;
      this.#view.put("contact", data);
      touched = [["contact", id]];
    } else return;
    const addresses = touched.flatMap(([kind, tid]) => this.#addresses.get(`${kind}/${tid}`) ?? []);
    await this.#judge(addresses, "event");
    if (this.#healer) await this.#heal();
  }

  /** Lists every watched kind: the only way to see edits and deletes that neither events nor delta sync report. */
  async #full(): Promise<void> {
    await this.#reloadState();
    const before = this.#o.reads();
    const mark = this.#view.mark();
    const inventory = await refresh(this.#o.ops, { kinds: this.#kinds, state: this.#state, mode: "full" });
    this.#view.replace(inventory, mark, this.#managed());
    this.#cost.full = Math.max(1, this.#o.reads() - before);
    const now = this.#time.now();
    this.#record.lastFullAt = now;
    this.#record.lastDeltaAt = now;
    this.#record.syncCursors = this.#cursors();
    this.#o.metrics.lastFull.set(now / 1000);
    this.#o.metrics.lastDelta.set(now / 1000);
    await this.#judge([...this.#desired.keys()], "poll");
    this.#replan(false);
  }

  /** Delta sync of each kind that has it: new objects, and the edits its kind reports. */
  async #delta(): Promise<void> {
    await this.#reloadState();
    const before = this.#o.reads();
    const mark = this.#view.mark();
    const addresses: string[] = [];
    for (const kind of this.#syncKinds()) {
      const cursor = this.#view.syncCursors[kind];
      const engine = engineKind(kind);
      if (!cursor || !engine.sync) continue;
      const delta = await engine.sync(this.#o.ops, cursor);
      for (const id of this.#view.merge(kind, delta.rows, mark))
        addresses.push(...(this.#addresses.get(`${kind}/${id}`) ?? []));
      if (delta.syncCursor) this.#view.syncCursors[kind] = delta.syncCursor;
    }
    this.#cost.delta = Math.max(1, this.#o.reads() - before);
    const now = this.#time.now();
    this.#record.lastDeltaAt = now;
    this.#record.syncCursors = this.#cursors();
    this.#o.metrics.lastDelta.set(now / 1000);
    await this.#judge(addresses, "poll");
  }

  /**
   * A restart soon after a full refresh: the state's members stand for the live
   * objects, delta sync continues from the saved cursors, and what was reported
   * drifted is read again, so nothing already reported is reported twice.
   */
  async #resume(): Promise<void> {
    const mark = this.#view.mark();
    const state = {
      ...this.#state,
      syncCursors: { ...this.#state.syncCursors, ...this.#record.syncCursors },
    };
    const inventory = await refresh(this.#o.ops, { kinds: this.#kinds, state, mode: "state" });
    this.#view.replace(inventory, mark, this.#managed());
    for (const r of this.#reports.reported.values()) {
      const kind = r.kind as KindName;
      if (!this.#watches(kind)) continue;
      try {
        const naturalKey = this.#state.resources[r.address]?.naturalKey ?? {};
        this.#view.put(kind, await engineKind(kind).getOne(this.#o.ops, { id: r.id, ...naturalKey }));
      } catch (error) {
        if ((error as { status?: number }).status !== 404) throw error;
        this.#view.remove(kind, r.id);
      }
    }
    const now = this.#time.now();
    this.#record.lastDeltaAt = now;
    this.#record.syncCursors = this.#cursors();
    this.#o.metrics.lastDelta.set(now / 1000);
    if (this.#record.lastFullAt) this.#o.metrics.lastFull.set(this.#record.lastFullAt / 1000);
    this.#o.log(
      `Resumed: the last full refresh was ${formatDuration(now - (this.#record.lastFullAt ?? now))} ago; the next one is due in ${formatDuration((this.#record.lastFullAt ?? now) + this.#plan.cadence.fullEveryMs - now)}.`,
    );
    await this.#judge([...this.#desired.keys()], "poll");
  }

  async #heal(): Promise<void> {
    if (!this.#healer) return;
    const healed = await this.#healer.heal(this.#reports, this.#state);
    if (!healed) return;
    this.#state = healed.state;
    this.#indexState();
    await this.#judge(healed.addresses, "poll");
  }

  /** Judges these addresses, saves what was reported, then prints and posts the transitions. */
  async #judge(addresses: readonly string[], seenBy: SeenBy): Promise<void> {
    const transitions: Transition[] = [];
    const now = this.#time.now();
    for (const address of new Set(addresses)) {
      const resource = this.#desired.get(address);
      const prior = this.#state.resources[address];
      if (!resource || !prior?.id) continue;
      // An object the view has never seen (applied since the last listing) is judged once a refresh sees it.
      if (!this.#view.get(resource.kind, prior.id) && !this.#view.knows(resource.kind, prior.id)) continue;
      const drift = driftOf(resource, this.#state, this.#view.rows);
      const t = this.#reports.judge(address, drift, {
        kind: resource.kind,
        id: prior.id,
        now,
        seenBy,
        ...(this.#healer && { fightWindowMs: this.#o.fightWindowMs ?? 15 * 60_000 }),
      });
      if (t) transitions.push(t);
    }
    // Reported drift that left the config (or the state) clears.
    if (seenBy === "poll") {
      for (const address of [...this.#reports.reported.keys()]) {
        if (this.#desired.has(address) && this.#state.resources[address]?.id) continue;
        const r = this.#reports.reported.get(address)!;
        const t = this.#reports.judge(address, undefined, {
          kind: r.kind as KindName,
          id: r.id,
          now,
          seenBy,
        });
        if (t) transitions.push(t);
      }
    }
    this.#record = this.#reports.toRecord(this.#record);
    // Saved before anything is said: a watcher killed after saying it never says it again.
    await this.#o.records.save(this.#record);
    this.#o.metrics.setDrifted(this.#reports.counts());
    for (const t of transitions) {
      this.#o.metrics.transitions.inc({ transition: t.transition });
      if (t.transition === "fighting")
        this.#o.log(
          `Warning: ${t.address} drifted again right after a heal; something is fighting vigil. Left alone.`,
        );
      await this.#o.onTransition(t);
    }
  }

  /** The fitted cadence; said at start-up, and again when a measured cost changes it. */
  #replan(first: boolean): void {
    const plan = planCadence(this.#o.cadence, this.#cost, this.#budget);
    const changed =
      !this.#plan ||
      plan.cadence.everyMs !== this.#plan.cadence.everyMs ||
      plan.cadence.fullEveryMs !== this.#plan.cadence.fullEveryMs;
    this.#plan = plan;
    this.#o.metrics.interval.set({ refresh: "delta" }, plan.cadence.everyMs / 1000);
    this.#o.metrics.interval.set({ refresh: "full" }, plan.cadence.fullEveryMs / 1000);
    if (!first && !changed) return;
    const b = this.#budget;
    const budget = b.tightest
      ? `${b.perHour.toFixed(1)} reads/hour (${Math.round(b.share * 100)} % of ${b.tightest.quota} ${b.tightest.limit})`
      : "unlimited (the account's reads are unmetered)";
    const cost = `delta sync ${this.#cost.delta} read${this.#cost.delta === 1 ? "" : "s"}, full refresh ${this.#cost.full}${first ? " (estimated)" : ""}`;
    const asked = `every ${formatDuration(plan.asked.everyMs)}, full every ${formatDuration(plan.asked.fullEveryMs)}`;
    this.#o.log(`Read budget: ${budget}; ${cost}.`);
    if (plan.stretched)
      this.#o.log(
        `Warning: delta sync ${asked} would spend ${plan.askedPerHour.toFixed(1)} reads/hour, over the budget; stretched to every ${formatDuration(plan.cadence.everyMs)}, full every ${formatDuration(plan.cadence.fullEveryMs)} (${plan.perHour.toFixed(1)} reads/hour).`,
      );
    else this.#o.log(`Cadence: delta sync ${asked} (${plan.perHour.toFixed(1)} reads/hour).`);
  }

  /** The state, read under a brief lock; kept as it was when someone else holds the lock (an apply running). */
  async #reloadState(): Promise<void> {
    try {
      const state = await this.#readState(0);
      if (state.serial === this.#state.serial && state.lineage === this.#state.lineage) return;
      this.#state = state;
      this.#indexState();
    } catch (error) {
      if (!(error instanceof StateLockedError)) throw error;
    }
  }

  async #readState(waitMs: number): Promise<State> {
    const deadline = this.#time.now() + waitMs;
    for (;;) {
      try {
        const lock = await this.#o.store.lock();
        try {
          const state = await lock.read();
          if (!state)
            throw new Error(
              `${this.#o.store.description} holds no state: vigil watch reports drift of what vigil applied; run vigil apply first.`,
            );
          return state;
        } finally {
          await lock.release();
        }
      } catch (error) {
        if (!(error instanceof StateLockedError) || this.#time.now() >= deadline) throw error;
        await this.#time.sleep(1000);
      }
    }
  }

  #indexState(): void {
    this.#addresses = new Map();
    for (const [address, r] of Object.entries(this.#state.resources)) {
      if (!r.id) continue;
      const k = `${r.kind}/${r.id}`;
      this.#addresses.set(k, [...(this.#addresses.get(k) ?? []), address]);
    }
  }

  #managed(): [KindName, string][] {
    return Object.values(this.#state.resources).flatMap((r) =>
      r.id ? [[r.kind, r.id] as [KindName, string]] : [],
    );
  }

  /** The view's sync cursors, for the record. */
  #cursors(): Record<string, string> {
    return Object.fromEntries(
      Object.entries(this.#view.syncCursors).filter((e): e is [string, string] => e[1] !== undefined),
    );
  }

  #syncKinds(): KindName[] {
    return this.#kinds.filter((k) => engineKind(k).sync !== undefined);
  }

  #watches(kind: KindName): boolean {
    return this.#kinds.includes(kind);
  }

  #failed(error: unknown): void {
    if (error instanceof QuotaExhaustedError)
      this.#o.log(`Warning: ${error.message} Waiting for the next refresh.`);
    else this.#o.log(`Warning: ${(error as Error).message ?? String(error)}`);
  }
}
