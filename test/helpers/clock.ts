import type { TimeSource } from "../../src/kinds/time.ts";

/**
 * A clock that stands still until the test moves it: every wait on it (a watcher's cadence, a lock's
 * retry pause, a lease's renewal, the sandbox's background ticker) ends only when `advance` passes its end.
 */
export class ManualClock implements TimeSource {
  #now: number;
  #timers: { at: number; wake: () => void }[] = [];

  constructor(start = Date.UTC(2026, 10, 25, 12)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** How many waits are pending on this clock. */
  get waiting(): number {
    return this.#timers.length;
  }

  /** What is left of each pending wait, in milliseconds. */
  waits(): number[] {
    return this.#timers.map((t) => t.at - this.#now);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = {
        at: this.#now + ms,
        wake: () => {
          signal?.removeEventListener("abort", abort);
          resolve();
        },
      };
      const abort = () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
      this.#timers.push(timer);
    });
  }

  /**
   * Moves the clock by `ms` and wakes nothing: a process frozen that long (a stopped VM, a long pause),
   * whose waits end only when it runs again (`advance`).
   */
  jump(ms: number): void {
    this.#now += ms;
  }

  /** Moves the clock by `ms`, waking each wait whose end it passes, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await new Promise((r) => setImmediate(r));
      const due = this.#timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = due.at;
      due.wake();
    }
    this.#now = target;
  }

  /**
   * Moves the clock in steps of `stepMs` until `promise` settles, stepping only while something waits
   * on the clock (work between waits, such as file or database I/O, runs in real time in between).
   * Answers what `promise` does; gives up once the clock has moved `limitMs`.
   */
  async drive<T>(promise: Promise<T>, stepMs = 100, limitMs = 3_600_000): Promise<T> {
    let settled = false;
    const watched = promise.finally(() => {
      settled = true;
    });
    watched.catch(() => {});
    for (let moved = 0; !settled; ) {
      if (moved > limitMs) throw new Error(`still not settled after moving the clock ${limitMs} ms`);
      if (this.#timers.length === 0) {
        await until(() => settled || this.#timers.length > 0);
        continue;
      }
      await this.advance(stepMs);
      moved += stepMs;
    }
    return watched;
  }
}

/**
 * Resolves once `condition` holds, checked every millisecond (a wait for a condition, not a guess of how
 * long something takes); fails after `timeoutMs` of real time, a bound only a hang reaches.
 */
export async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 1));
  }
}
