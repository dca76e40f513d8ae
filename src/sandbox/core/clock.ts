import { realTime, type TimeSource } from "../../kinds/time.ts";
import type { Store } from "./store.ts";

/**
 * The sandbox clock: real time (its `TimeSource`) plus an offset that `POST /_sandbox/clock`
 * moves. Everything time-based (token expiry, windows, quotas, maintenance,
 * retries) reads it, so tests can jump ahead instead of waiting.
 *
 * A manual clock stands still: its "real time" is the moment it was made, so
 * only the clock route moves it. A run that must repeat to the second (`vigil
 * test`) uses one: no request's duration leaks into the times it records.
 */
export class Clock {
  readonly #store: Store;
  readonly #realMs: () => number;

  constructor(store: Store, options: { manual?: boolean; time?: TimeSource } = {}) {
    this.#store = store;
    const time = options.time ?? realTime;
    const madeAt = time.now();
    this.#realMs = options.manual ? () => madeAt : () => time.now();
  }

  /** Now, in Unix milliseconds. */
  nowMs(): number {
    return this.#realMs() + (this.#store.meta<number>("clockOffsetMs") ?? 0);
  }

  /** Now, in Unix seconds. */
  now(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  advance(seconds: number): void {
    this.#store.setMeta("clockOffsetMs", (this.#store.meta<number>("clockOffsetMs") ?? 0) + seconds * 1000);
  }

  set(unixSeconds: number): void {
    this.#store.setMeta("clockOffsetMs", unixSeconds * 1000 - this.#realMs());
  }
}
