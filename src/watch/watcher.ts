/**
 * `vigil watch`'s engine: keeps a live picture of the managed objects from
 * events, delta syncs and rare full refreshes, judges drift per resource
 * against the newest state, and reports each transition once. Holds the state
 * lock only while a heal applies.
 */
import { type Operations, realTime, type TimeSource } from "../api/index.ts";
import {
  type DesiredResource,
  engineKind,
  type KindName,
  refresh,
  type State,
  type StateStore,
} from "../engine/index.ts";
import {
  type Cadence,
  type CadencePlan,
  estimatedCost,
  FittedCadence,
  formatDuration,
  type ReadBudget,
  readBudget,
} from "./budget.ts";
import { ConfigGuard } from "./config-check.ts";
import type { Delivery } from "./deliveries.ts";
import { driftOf } from "./drift.ts";
import { applyEvents, EventQueue, type Pending, pendingOf, readObjects, settleable } from "./events.ts";
import { Healer } from "./heal.ts";
import { failureMessage, Health, type HealthReport, readyLine } from "./health.ts";
import { LiveView } from "./live.ts";
import type { WatchMetrics } from "./metrics.ts";
import { emptyRecord, type RecordStore, type WatchRecord } from "./record.ts";
import { StateTracker } from "./state.ts";
import { Reports, type SeenBy, type Transition } from "./transitions.ts";

export interface WatcherOptions {
  ops: Operations;
  store: StateStore;
  records: RecordStore;
  desired: readonly DesiredResource[];
  /** Reads the configuration again: when the state was applied with another one (`ConfigGuard`). */
  reloadConfig?: () => Promise<readonly DesiredResource[]>;
  metrics: WatchMetrics;
  /** Asked cadences, in milliseconds; stretched to fit the read budget. */
  cadence: Cadence;
  /** The share of the account's read quota the watcher may spend (0.1). */
  share: number;
  /** Reads made so far by the watcher's client: what a refresh costs is learned from it. */
  reads: () => number;
  /** The client's pacing (`SharePacer`): told when the first refresh is over, so the budget governs from then on. */
  pacing?: { steady(): void };
  time?: TimeSource;
  /** Heal drifted resources; `deletes` allows heals that delete (a replace). */
  heal?: { deletes: boolean };
  /** A drift this soon after a heal is fighting; 15 minutes by default. */
  fightWindowMs?: number;
  /** How long reads for events that did not carry their object wait for the rest of the burst; 1 s by default. */
  gatherMs?: number;
  /** Objects whose events may wait to be judged at once (`maxQueued` by default); past it, a full refresh. */
  maxQueued?: number;
  onTransition: (t: Transition) => void | Promise<void>;
  /** Lines for stderr: start-up, warnings, everything a heal does. */
  log: (line: string) => void;
}

export class Watcher {
  readonly #o: WatcherOptions;
  readonly #time: TimeSource;
  readonly #view = new LiveView();
  readonly #health: Health;
  readonly #queue: EventQueue;
  readonly #states: StateTracker;
  readonly #config: ConfigGuard;
  #kinds: KindName[];
  #record!: WatchRecord;
  #reports!: Reports;
  #fit!: FittedCadence;
  #healer: Healer | undefined;
  /** The heal under way: events are judged after it, so its own writes' events meet its outcome. */
  #healing: Promise<void> | undefined;
  #stop = new AbortController();
  /** Aborted to wake `run()` from its wait (a heal or a full refresh fell due). */
  #wake = new AbortController();
  /** Settles once the state and the record are read: deliveries wait for it. */
  readonly #loaded = settleable();
  #draining: Promise<void> | undefined;
  /** Events acknowledged and then lost (by a previous run, or with reads that failed): a full refresh is due. */
  #fullDue = false;

  constructor(options: WatcherOptions) {
    this.#o = options;
    this.#time = options.time ?? realTime;
    this.#health = new Health(options.metrics, this.#time);
    this.#queue = new EventQueue(options.maxQueued);
    this.#states = new StateTracker(options.store);
    this.#config = new ConfigGuard({
      desired: options.desired,
      ...(options.reloadConfig && { reload: options.reloadConfig }),
      healing: options.heal !== undefined,
      log: options.log,
    });
    this.#kinds = [...new Set(options.desired.map((d) => d.kind))];
  }

  /** Ready once the first refresh has succeeded. */
  get ready(): boolean {
    return this.#health.ready;
  }

  /** What `GET /healthz` answers. */
  health(): HealthReport {
    return this.#health.report();
  }

  get cadence(): CadencePlan {
    return this.#fit.plan;
  }

  get budget(): ReadBudget {
    return this.#fit.budget;
  }

  /** Reads the state, the record and the quota; the first refresh; the first report. */
  async start(): Promise<void> {
    const startedAt = this.#time.now();
    const readsAtStart = this.#o.reads();
    let lost: number | undefined;
    try {
      const state = await this.#states.read();
      this.#adopt(state);
      const saved = await this.#o.records.load();
      this.#record = saved && saved.lineage === state.lineage ? saved : emptyRecord(state.lineage);
      lost = this.#record.unjudgedSince;
      this.#fullDue = lost !== undefined;
      this.#reports = new Reports(this.#record);
      this.#loaded.settle();
      this.#o.log(
        `Reported drift, heal back-offs and sync cursors are kept in ${this.#o.records.description}.`,
      );
    } catch (error) {
      this.#loaded.settle(error);
      throw error;
    }

    const budget = readBudget(await this.#o.ops.account.quota(), this.#o.share);
    this.#o.metrics.budget.set(Number.isFinite(budget.perHour) ? budget.perHour : -1);
    const estimated = estimatedCost(this.#states.current, this.#kinds, this.#syncKinds().length);
    this.#fit = new FittedCadence(this.#o.cadence, budget, estimated);
    this.#cadenceSaid(this.#fit.describe());
    const { ops, store, metrics, log, heal } = this.#o;
    const [view, time] = [this.#view, this.#time];
    if (heal) this.#healer = new Healer({ ops, store, metrics, log, view, time, ...heal });
    // Just loaded: said when it differs, not read again.
    await this.#config.check(this.#states.current, { reload: false });

    const now = this.#time.now();
    const recent =
      this.#record.lastFullAt !== undefined &&
      now - this.#record.lastFullAt < this.#fit.plan.cadence.fullEveryMs;
    if (lost !== undefined)
      this.#o.log(
        `The last run acknowledged events at ${new Date(lost).toISOString()} and stopped before judging them all: a full refresh covers them.`,
      );
    if (recent && lost === undefined) await this.#resume();
    else await this.#full();
    this.#o.pacing?.steady();
    this.#health.started();
    this.#o.log(readyLine(this.#o.reads() - readsAtStart, this.#time.now() - startedAt, this.#queue.size));
    // Events that arrived during start-up are judged now, not at the next poll.
    this.#kick();
  }

  /** Runs until `stop()`: delta syncs and full refreshes at the fitted cadence, heals when due. */
  async run(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      const now = this.#time.now();
      const nextFull = this.#fullDue
        ? now
        : (this.#record.lastFullAt ?? now) + this.#fit.plan.cadence.fullEveryMs;
      const nextDelta =
        Math.max(this.#record.lastDeltaAt ?? now, this.#record.lastFullAt ?? now) +
        this.#fit.plan.cadence.everyMs;
      const nextHeal =
        this.#healer && !this.#config.differs
          ? this.#healer.nextDue(this.#reports)
          : Number.POSITIVE_INFINITY;
      const at = Math.min(nextFull, nextDelta, nextHeal);
      if (at > now) {
        if (this.#wake.signal.aborted) this.#wake = new AbortController();
        try {
          await this.#time.sleep(at - now, AbortSignal.any([signal, this.#wake.signal]));
        } catch {
          // Woken: stopped, or a heal or a full refresh fell due earlier.
        }
        continue;
      }
      try {
        if (nextFull <= now || nextDelta <= now) {
          await (nextFull <= now ? this.#full() : this.#delta());
          if (this.#config.differs) await this.#checkConfig(this.#states.current, { again: true });
        }
        if (this.#healer && nextHeal <= this.#time.now()) await this.#heal();
      } catch (error) {
        this.#health.failed(this.#failed(error));
        // Tried again after a pause, not at once: the failure may be the API's, or the quota's.
        await this.#time.sleep(Math.min(60_000, this.#fit.plan.cadence.everyMs), signal).catch(() => {});
      }
    }
  }

  /** Ends `run()` at its next wait; events still queued stay unjudged (the next start lists everything). */
  stop(): void {
    this.#stop.abort();
  }

  /** Settles once every event received so far has been judged (or the watcher stopped). */
  async settled(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  /**
   * A verified delivery: queued, and settled once it is safe to acknowledge: the record says that events
   * wait to be judged, so a watcher stopped before judging them lists everything when it starts again.
   */
  async receive(delivery: Delivery): Promise<void> {
    await this.#loaded.promise;
    const pending = pendingOf(delivery, (kind) => this.#watches(kind));
    if (!pending) return;
    if (!this.#queue.add(pending)) {
      // Full: what this one said is left to a full refresh, at once (the record says events wait).
      if (!this.#fullDue)
        this.#o.log(
          `Warning: events about ${this.#queue.size} objects wait to be judged, the most the watcher holds; a full refresh covers those that arrive now.`,
        );
      this.#fullDue = true;
      this.#wake.abort();
    }
    if (this.#record.unjudgedSince === undefined) {
      this.#record.unjudgedSince = this.#time.now();
      await this.#save();
    }
    this.#kick();
  }

  /** Judges the queued events, unless that is under way or the first refresh has not finished. */
  #kick(): void {
    if (!this.#health.ready || this.#draining || this.#queue.size === 0 || this.#stop.signal.aborted) return;
    this.#draining = this.#drain()
      .catch((error) => {
        this.#failed(error);
      })
      .finally(() => {
        this.#draining = undefined;
        this.#kick();
      });
  }

  async #drain(): Promise<void> {
    const { gatherMs = 1000 } = this.#o;
    try {
      await this.#queue.drain((batch) => this.#judgeEvents(batch), this.#time, gatherMs, this.#stop.signal);
    } catch (error) {
      // What those events said is lost with them: a full refresh, at once, covers it (the record says so).
      this.#fullDue = true;
      this.#record.unjudgedSince ??= this.#time.now();
      this.#wake.abort();
      throw error;
    }
    if (this.#queue.size > 0 || this.#fullDue || this.#record.unjudgedSince === undefined) return;
    this.#record.unjudgedSince = undefined;
    await this.#save();
  }

  /** A batch of queued events, judged against the newest state. */
  async #judgeEvents(batch: readonly Pending[]): Promise<void> {
    await this.#healing?.catch(() => {});
    await this.#reloadState();
    const { touched, reads } = applyEvents(this.#view, batch);
    for (const [kind, ids] of reads) {
      await readObjects(this.#o.ops, this.#view, kind, ids, (id) => this.#states.naturalKey(kind, id));
      for (const id of ids) touched.push([kind, id]);
    }
    if (reads.size > 0) this.#health.succeeded(false);
    // The save that records this judgement also says nothing waits any more, unless more came meanwhile.
    if (this.#queue.size === 0 && !this.#fullDue) this.#record.unjudgedSince = undefined;
    await this.#judge(
      touched.flatMap(([kind, id]) => this.#states.addressesOf(kind, id)),
      "event",
    );
    if (this.#healer && this.#reports.reported.size > 0) this.#wake.abort();
  }

  /** Lists every watched kind: the only way to see edits and deletes that neither events nor delta sync report. */
  async #full(): Promise<void> {
    await this.#reloadState();
    const before = this.#states.current;
    const reads = this.#o.reads();
    const mark = this.#view.mark();
    // Cleared first: events lost while this refresh runs need another one.
    const due = this.#fullDue;
    this.#fullDue = false;
    let inventory: Awaited<ReturnType<typeof refresh>>;
    try {
      inventory = await refresh(this.#o.ops, { kinds: this.#kinds, state: before, mode: "full" });
    } catch (error) {
      this.#fullDue ||= due;
      throw error;
    }
    this.#view.replace(inventory, mark, this.#states.managed());
    this.#fit.cost.full = Math.max(1, this.#o.reads() - reads);
    this.#polled(true);
    // Every event acknowledged before this listing is covered by it.
    if (!this.#fullDue && this.#queue.size === 0 && !this.#draining) this.#record.unjudgedSince = undefined;
    await this.#reloadState();
    await this.#judge(this.#states.unchangedSince(before, [...this.#config.byAddress.keys()]), "poll");
    this.#cadenceSaid(this.#fit.refit());
  }

  /** Delta sync of each kind that has it: new objects, and the edits its kind reports. */
  async #delta(): Promise<void> {
    await this.#reloadState();
    const before = this.#states.current;
    const reads = this.#o.reads();
    const mark = this.#view.mark();
    const addresses: string[] = [];
    for (const kind of this.#syncKinds()) {
      const cursor = this.#view.syncCursors[kind];
      const engine = engineKind(kind);
      if (!cursor || !engine.sync) continue;
      const delta = await engine.sync(this.#o.ops, cursor);
      for (const id of this.#view.merge(kind, delta.rows, mark))
        addresses.push(...this.#states.addressesOf(kind, id));
      if (delta.syncCursor) this.#view.syncCursors[kind] = delta.syncCursor;
    }
    this.#fit.cost.delta = Math.max(1, this.#o.reads() - reads);
    this.#polled(false);
    await this.#reloadState();
    await this.#judge(this.#states.unchangedSince(before, addresses), "poll");
  }

  /**
   * A restart soon after a full refresh: the state's members stand for the live
   * objects, delta sync continues from the saved cursors, and what was reported
   * drifted is read again, so nothing already reported is reported twice.
   */
  async #resume(): Promise<void> {
    const mark = this.#view.mark();
    const current = this.#states.current;
    const state = { ...current, syncCursors: { ...current.syncCursors, ...this.#record.syncCursors } };
    const inventory = await refresh(this.#o.ops, { kinds: this.#kinds, state, mode: "state" });
    this.#view.replace(inventory, mark, this.#states.managed());
    const reported = new Map<KindName, string[]>();
    for (const r of this.#reports.reported.values()) {
      const kind = r.kind as KindName;
      if (this.#watches(kind)) reported.set(kind, [...(reported.get(kind) ?? []), r.id]);
    }
    for (const [kind, ids] of reported)
      await readObjects(this.#o.ops, this.#view, kind, ids, (id) => this.#states.naturalKey(kind, id));
    const now = this.#polled(false);
    if (this.#record.lastFullAt) this.#o.metrics.lastFull.set(this.#record.lastFullAt / 1000);
    this.#o.log(
      `Resumed: the last full refresh was ${formatDuration(now - (this.#record.lastFullAt ?? now))} ago; the next one is due in ${formatDuration((this.#record.lastFullAt ?? now) + this.#fit.plan.cadence.fullEveryMs - now)}.`,
    );
    await this.#judge([...this.#config.byAddress.keys()], "poll");
  }

  /** A refresh succeeded: its time, the sync cursors it left, health. Answers the time. */
  #polled(full: boolean): number {
    const now = this.#time.now();
    if (full) this.#record.lastFullAt = now;
    this.#record.lastDeltaAt = now;
    this.#record.syncCursors = Object.fromEntries(
      Object.entries(this.#view.syncCursors).filter((e): e is [string, string] => e[1] !== undefined),
    );
    if (full) this.#o.metrics.lastFull.set(now / 1000);
    this.#o.metrics.lastDelta.set(now / 1000);
    this.#health.succeeded(true);
    return now;
  }

  async #heal(): Promise<void> {
    if (!this.#healer || this.#healing || this.#config.differs) return;
    this.#healing = this.#healWith(this.#healer).finally(() => {
      this.#healing = undefined;
    });
    await this.#healing;
  }

  async #healWith(healer: Healer): Promise<void> {
    const healed = await healer.heal(this.#reports, this.#states.current, this.#config);
    if (!healed) return;
    this.#adopt(healed.state);
    if (healed.differences)
      await this.#checkConfig(healed.state, { again: true, differences: healed.differences });
    // The heal checked the configuration against this state, and its own writes keep them agreeing.
    else this.#config.agreed(this.#states.current);
    await this.#judge(healed.addresses, "poll");
  }

  /** Judges these addresses, saves what was reported, then prints and posts the transitions. */
  async #judge(addresses: readonly string[], seenBy: SeenBy): Promise<void> {
    const transitions: Transition[] = [];
    const now = this.#time.now();
    for (const address of new Set(addresses)) {
      const resource = this.#config.byAddress.get(address);
      const state = this.#states.current;
      const prior = state.resources[address];
      // A write of an apply in flight (its journal saved it before sending it): judged once it is done.
      if (!resource || !prior?.id || prior.pending) continue;
      // An object the view has never seen (applied since the last listing) is judged once a refresh sees it.
      if (!this.#view.get(resource.kind, prior.id) && !this.#view.knows(resource.kind, prior.id)) continue;
      const drift = driftOf(resource, state, this.#view.rows);
      const t = this.#reports.judge(address, drift, {
        kind: resource.kind,
        id: prior.id,
        now,
        seenBy,
        ...(this.#healer && { fightWindowMs: this.#o.fightWindowMs ?? 15 * 60_000 }),
      });
      if (t) transitions.push(t);
    }
    // Reported drift that left the config (or the state: a newer apply deleted it) clears.
    for (const address of [...this.#reports.reported.keys()]) {
      if (this.#config.byAddress.has(address) && this.#states.current.resources[address]?.id) continue;
      const r = this.#reports.reported.get(address)!;
      const t = this.#reports.judge(address, undefined, { kind: r.kind as KindName, id: r.id, now, seenBy });
      if (t) transitions.push(t);
    }
    // Saved before anything is said: a watcher killed after saying it never says it again.
    await this.#save();
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

  async #save(): Promise<void> {
    this.#record = this.#reports.toRecord(this.#record);
    await this.#o.records.save(this.#record);
  }

  /** Compares the configuration with `state` (see `ConfigGuard.check`), and acts on what that changed. */
  async #checkConfig(state: State, options: Parameters<ConfigGuard["check"]>[1] = {}): Promise<void> {
    const { replaced, agreeAgain } = await this.#config.check(state, options);
    if (replaced) {
      this.#addKinds(this.#config.config);
      // Reported drift of addresses the configuration no longer declares clears.
      await this.#judge([], "poll");
    }
    if (agreeAgain) this.#wake.abort();
  }

  /** The fitted cadence in the metrics, and `lines` (what changed of it) on stderr. */
  #cadenceSaid(lines: readonly string[]): void {
    this.#o.metrics.interval.set({ refresh: "delta" }, this.#fit.plan.cadence.everyMs / 1000);
    this.#o.metrics.interval.set({ refresh: "full" }, this.#fit.plan.cadence.fullEveryMs / 1000);
    for (const line of lines) this.#o.log(line);
  }

  /** The newest state (see `StateTracker`), compared with the configuration when it is new. */
  async #reloadState(): Promise<void> {
    const state = await this.#states.read();
    if (this.#adopt(state)) await this.#checkConfig(state);
  }

  #adopt(state: State): boolean {
    if (!this.#states.adopt(state)) return false;
    this.#addKinds(Object.values(state.resources));
    return true;
  }

  #addKinds(of: Iterable<{ kind: KindName }>): void {
    for (const { kind } of of) if (!this.#kinds.includes(kind)) this.#kinds.push(kind);
  }

  #syncKinds(): KindName[] {
    return this.#kinds.filter((k) => engineKind(k).sync !== undefined);
  }

  #watches(kind: KindName): boolean {
    return this.#kinds.includes(kind);
  }

  /** Says the failure on stderr; answers what it said. */
  #failed(error: unknown): string {
    const message = failureMessage(error);
    this.#o.log(`Warning: ${message}`);
    return message;
  }
}
