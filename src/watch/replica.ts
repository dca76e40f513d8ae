/**
 * One replica of `vigil watch` on a PostgreSQL workspace: it stands by until it takes the watch lease, then
 * runs a watcher whose reports, record saves and heals are fenced by its term; it renews the lease, and
 * stops that watcher as soon as the lease is lost, standing by again.
 */
import type { TimeSource } from "../api/index.ts";
import type { Delivery } from "./deliveries.ts";
import { type HealthReport, healthReport } from "./health.ts";
import { type Election, LeaseLostError, type Term } from "./lease.ts";
import type { WatchMetrics } from "./metrics.ts";
import type { Watcher } from "./watcher.ts";

export interface ReplicaOptions {
  election: Election;
  time: TimeSource;
  metrics: WatchMetrics;
  /** A watcher for `term`: it reports and heals only while the term holds. */
  watcher(term: Term): Watcher;
  log: (line: string) => void;
}

/** Deliveries standbys keep for the active replica, at most: past it, a standby answers 503. */
const inboxLimit = 10_000;

/** A delivery a standby could not keep: answered 503. */
export class StandbyError extends Error {
  override readonly name = "StandbyError";
}

/** The watcher a replica runs while it holds the lease; `ended` once it stopped on its own. */
interface Active {
  watcher: Watcher;
  term: Term;
  done: Promise<void>;
  ended?: { error?: unknown };
}

export class Replica {
  readonly #o: ReplicaOptions;
  readonly #stop = new AbortController();
  #current: Active | undefined;
  /** Tries of the lease that failed in a row (the database unreachable). */
  #failures = 0;
  #lastError = "";
  #said = "";
  /** A try of the lease has answered: until then the replica is starting, not standing by. */
  #tried = false;

  constructor(options: ReplicaOptions) {
    this.#o = options;
    this.#role("standby");
  }

  /** The active watcher, while this replica holds the lease. */
  get watcher(): Watcher | undefined {
    return this.#current?.watcher;
  }

  health(): HealthReport {
    const current = this.#current;
    if (current) {
      const report = current.watcher.health();
      return { ...report, body: { ...report.body, role: "active" } };
    }
    // Not a standby before its first try: it may be about to lead.
    return healthReport({
      started: this.#tried,
      role: "standby",
      lastSuccessfulRead: null,
      failures: this.#failures,
      starting: "the watch lease has not been tried yet",
      failing: `standing by, but the last ${this.#failures} tries of the watch lease failed (this replica could not take over): ${this.#lastError}`,
      healthy: { status: "standby", detail: this.#o.election.describeActive() },
    });
  }

  /**
   * The active replica judges a delivery; a standby keeps it in the database, where the active one takes
   * it at its next renewal (the API sends an event caused by an API call once: it must not be refused).
   */
  async receive(delivery: Delivery): Promise<void> {
    const current = this.#current;
    if (current?.term.holds()) return current.watcher.receive(delivery);
    let kept: boolean;
    try {
      kept = await this.#o.election.backend.post(delivery, inboxLimit);
    } catch (error) {
      throw new StandbyError(
        `this replica stands by and could not keep the delivery: ${(error as Error).message}`,
      );
    }
    if (!kept)
      throw new StandbyError(
        `this replica stands by, and ${inboxLimit} deliveries already wait for the active one to take them`,
      );
  }

  /** The deliveries standbys kept, handed to the active watcher; removed once it acknowledged each. */
  async #takeInbox(current: Active): Promise<void> {
    const { backend } = this.#o.election;
    for (;;) {
      const items = await backend.inbox(500);
      if (items.length === 0 || !current.term.holds()) return;
      for (const { item } of items) await current.watcher.receive(item as Delivery);
      await backend.taken(items.map((i) => i.id));
      if (items.length < 500) return;
    }
  }

  /** Stands by, leads, stands by again…, until `stop()`; rejects when the active watcher fails to start. */
  async run(): Promise<void> {
    const { election, time } = this.#o;
    const signal = this.#stop.signal;
    try {
      while (!signal.aborted) {
        const current = this.#current;
        if (!current) await this.#tryToLead();
        else if (current.ended) {
          // Its start failed: as a single watcher would, the replica ends with the error (a supervisor starts
          // it again), unless the failure was the lease lost meanwhile.
          const { error } = current.ended;
          if (!(error instanceof LeaseLostError)) throw error ?? new Error("the watcher stopped");
          this.#standBy(`${error.message} Standing by.`);
        } else if (await this.#renew())
          await this.#takeInbox(current).catch((error: unknown) => {
            this.#o.log(`Warning: could not take the deliveries standbys kept: ${(error as Error).message}`);
          });
        else
          this.#standBy(
            `Lost the watch lease: another replica took over, or the database did not answer within ${Math.round((election.leaseMs * 2) / 3000)} s. Standing by.`,
          );
        if (signal.aborted) break;
        // A watcher that ends on its own wakes the loop at once.
        const wakes = [time.sleep(election.retryMs, signal).catch(() => {})];
        if (this.#current) wakes.push(this.#current.done);
        await Promise.race(wakes);
      }
    } finally {
      await this.#resign();
    }
  }

  stop(): void {
    this.#stop.abort();
  }

  async #tryToLead(): Promise<void> {
    const { election, log } = this.#o;
    let won: boolean;
    try {
      won = await election.tryAcquire();
      this.#failures = 0;
      this.#tried = true;
    } catch (error) {
      this.#failures++;
      this.#lastError = (error as Error).message;
      log(`Warning: could not try the watch lease: ${this.#lastError}`);
      return;
    }
    if (!won) {
      const line = `Standing by: ${election.describeActive()}.`;
      // Said once per holder, not at every try.
      if (election.active?.id !== this.#said) log(line);
      this.#said = election.active?.id ?? "";
      return;
    }
    const term = election.term!;
    this.#said = "";
    log(
      `Active: this replica holds the watch lease (term ${term.token}, ${Math.round(election.leaseMs / 1000)} s, renewed every ${Math.round(election.retryMs / 1000)} s).`,
    );
    const watcher = this.#o.watcher(term);
    const current: Active = { watcher, term, done: Promise.resolve() };
    current.done = (async () => {
      await watcher.start();
      await watcher.run();
    })().then(
      () => {
        current.ended = {};
      },
      (error: unknown) => {
        current.ended = { error };
      },
    );
    this.#current = current;
    this.#role("active");
  }

  /** True while this replica still holds the lease. */
  async #renew(): Promise<boolean> {
    try {
      return await this.#o.election.renew();
    } catch (error) {
      this.#o.log(`Warning: could not renew the watch lease: ${(error as Error).message}`);
      return this.#current?.term.holds() ?? false;
    }
  }

  #standBy(why: string): void {
    this.#o.log(why);
    this.#current?.watcher.stop();
    this.#current = undefined;
    void this.#o.election.resign(false).catch(() => {});
    this.#role("standby");
  }

  /** Stopping: the lease is given up, so a standby takes over at its next try rather than at the lease's end. */
  async #resign(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    current?.watcher.stop();
    this.#role("standby");
    await this.#o.election.resign(true).catch((error: unknown) => {
      this.#o.log(`Warning: could not give the watch lease up: ${(error as Error).message}`);
    });
  }

  #role(role: "active" | "standby"): void {
    this.#o.metrics.role.set({ role: "active" }, role === "active" ? 1 : 0);
    this.#o.metrics.role.set({ role: "standby" }, role === "standby" ? 1 : 0);
  }
}
