import type { TimeSource } from "../../kinds/time.ts";
import type { Clock } from "./clock.ts";
import type { Store } from "./store.ts";

/**
 * What background work runs against. The sandbox's state (state.ts) is the
 * one host; this module names only what it uses, so the state can hold a
 * `Background` without the two importing each other.
 */
export interface BackgroundHost {
  readonly store: Store;
  readonly clock: Clock;
  /** The real time the ticker waits on. */
  readonly time: TimeSource;
}

/**
 * Work the sandbox does on its own time, outside any request: timers on the
 * sandbox clock (maintenance ends, alert delays, reminders, retry times) and
 * asynchronous work (job items, webhook deliveries).
 */
export interface BackgroundTaskOf<S extends BackgroundHost> {
  name: string;
  /** Once, before the sandbox listens (for example: jobs that were running come back `interrupted`). */
  start?(state: S): void;
  /** Synchronous work now due by the sandbox clock; runs inside one store transaction. */
  due?(state: S, now: number): void;
  /** Asynchronous work; never runs twice at once. Writes go through `store.transaction`. */
  work?(state: S): Promise<void>;
  /** The next moment after `now` at which `due` has work (a timer falls due), if the task knows one. */
  nextDue?(state: S, now: number): number | undefined;
  /** Whether `work` has something to do now (a delivery due): `settle` waits until none has. */
  pending?(state: S, now: number): boolean;
}

/** What a request may ask of background work (handlers reach it through `ctx.services`). */
export interface BackgroundControl {
  kick(): void;
  runDue(): void;
  runDueThrough(target: number): number;
}

/** How many timer moments one `runDueThrough` stops at, at most; past them the rest of the way is one jump. */
export const maxTimerStops = 100_000;

/**
 * Runs the tasks every `periodMs` of real time (the host's `TimeSource`), soon after any write (`kick`),
 * and right away when the clock route moves the sandbox clock (`runDue`).
 */
export class Background<S extends BackgroundHost> implements BackgroundControl {
  readonly #state: S;
  #tasks: readonly BackgroundTaskOf<S>[] = [];
  readonly #running = new Map<string, Promise<void>>();
  /** Ends the ticker's wait when the work stops. */
  #ticking: AbortController | undefined;
  #kicked = false;
  #stopped = true;
  /** Work left running when `stop` gave up on it: its failures (a write to the closed store) are expected. */
  #abandoned = false;

  constructor(state: S) {
    this.#state = state;
  }

  start(tasks: readonly BackgroundTaskOf<S>[], periodMs = 100): void {
    this.#tasks = tasks;
    this.#state.store.transaction(() => {
      for (const task of tasks) task.start?.(this.#state);
    });
    this.#stopped = false;
    const ticking = new AbortController();
    this.#ticking = ticking;
    void (async () => {
      for (;;) {
        try {
          // The ticker never keeps a process alive on its own.
          await this.#state.time.sleep(periodMs, ticking.signal, { unref: true });
        } catch {
          return; // stopped
        }
        this.#tick();
      }
    })();
  }

  /** Asks for a run soon: after the current request has committed and answered. */
  kick(): void {
    if (this.#kicked || this.#stopped) return;
    this.#kicked = true;
    setImmediate(() => {
      this.#kicked = false;
      this.#tick();
    });
  }

  /**
   * Runs every timer that is due by the sandbox clock now. Each task runs in
   * its own transaction (a savepoint when the caller already holds one, as the
   * clock route does): one task failing on a bad document undoes only its own
   * writes and does not hold back the others.
   */
  runDue(): void {
    const now = this.#state.clock.now();
    for (const task of this.#tasks) {
      if (!task.due) continue;
      try {
        this.#state.store.transaction(() => task.due!(this.#state, now));
      } catch (error) {
        report(task, error);
      }
    }
  }

  /**
   * Moves the clock to `target` (Unix seconds) as if the sandbox had waited: it stops at each moment a
   * task's timer falls due on the way (`nextDue`), sets the clock there and runs the timers, so each alert,
   * reminder and window end happens at its own time rather than all at the end of one jump. Asynchronous
   * work (deliveries, job items) still runs after. A clock moved back makes no stop. Answers the stops made
   * (at most `maxTimerStops`).
   */
  runDueThrough(target: number): number {
    let stops = 0;
    for (; stops < maxTimerStops; stops++) {
      const next = this.nextDue(this.#state.clock.now());
      if (next === undefined || next >= target) break;
      this.#state.clock.set(next);
      this.runDue();
    }
    this.#state.clock.set(target);
    this.runDue();
    return stops;
  }

  /** The earliest moment after `now` at which a task's timer falls due. */
  nextDue(now: number): number | undefined {
    let next: number | undefined;
    for (const task of this.#tasks) {
      const at = task.nextDue?.(this.#state, now);
      if (at !== undefined && at > now && (next === undefined || at < next)) next = at;
    }
    return next;
  }

  /**
   * Runs what is due now, timers and asynchronous work alike, and resolves once no task has work left due
   * by the clock (a delivery queued by a timer has gone out, and its record is committed). In-process
   * callers that read what the sandbox did right after moving its clock wait on it.
   */
  async settle(): Promise<void> {
    for (let round = 0; round < 1000; round++) {
      this.#tick();
      await this.idle();
      const now = this.#state.clock.now();
      if (!this.#tasks.some((task) => task.pending?.(this.#state, now))) return;
    }
  }

  /** Resolves once no asynchronous work is running (tests and benchmarks wait on it). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running.values()]);
  }

  /** Whether `stop` was called: work that loops over a queue takes nothing more from it. */
  get stopping(): boolean {
    return this.#stopped;
  }

  /**
   * Starts no more work and waits, at most `graceMs`, for what is running. Answers whether it all
   * finished: work still running is abandoned, and what it had not committed is done again at the
   * next start (a webhook attempt in flight is sent again; a job item runs again).
   */
  async stop(graceMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    this.#stopped = true;
    this.#ticking?.abort();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve(false), graceMs);
    });
    try {
      const idle = await Promise.race([this.idle().then(() => true as const), late]);
      this.#abandoned = !idle;
      return idle;
    } finally {
      clearTimeout(timer);
    }
  }

  #tick(): void {
    if (this.#stopped) return;
    this.runDue();
    for (const task of this.#tasks) {
      if (!task.work || this.#running.has(task.name)) continue;
      const run = task
        .work(this.#state)
        .catch((error) => {
          if (!this.#abandoned) report(task, error);
        })
        .finally(() => this.#running.delete(task.name));
      this.#running.set(task.name, run);
    }
  }
}

/**
 * A failure in background work has no request to answer, so it goes to
 * stderr, always: a timer that silently stops firing is worse than noise.
 */
function report(task: { name: string }, error: unknown): void {
  console.error(`vigil sandbox: background task ${task.name} failed:`, error);
}

/**
 * Runs `sweep` when `everySec` of sandbox time have passed since its last run
 * (noted in the store's meta under `key`, so the schedule survives a restart
 * with --data), for `due` work that reads a whole table: expired rows are
 * refused by reads at once anyway. A clock set back makes the schedule
 * meaningless: it then sweeps again.
 */
export function sweepAtMostEvery(
  store: Store,
  key: string,
  everySec: number,
  now: number,
  sweep: () => void,
) {
  const last = store.meta<{ at: number }>(key);
  if (last && now >= last.at && now < last.at + everySec) return;
  sweep();
  store.setMeta(key, { at: now });
}
