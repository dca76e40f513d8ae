import type { Store } from "./store.ts";

/**
 * The sandbox clock: real time plus an offset that `POST /_sandbox/clock`
 * moves. Everything time-based (token expiry, windows, quotas, maintenance,
 * retries) reads it, so tests can jump ahead instead of waiting.
 */
export class Clock {
  readonly #store: Store;

  constructor(store: Store) {
    this.#store = store;
  }

  /** Now, in Unix milliseconds. */
  nowMs(): number {
    return Date.now() + (this.#store.meta<number>("clockOffsetMs") ?? 0);
  }

  /** Now, in Unix seconds. */
  now(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  advance(seconds: number): void {
    this.#store.setMeta("clockOffsetMs", (this.#store.meta<number>("clockOffsetMs") ?? 0) + seconds * 1000);
  }

  set(unixSeconds: number): void {
    this.#store.setMeta("clockOffsetMs", unixSeconds * 1000 - Date.now());
  }
}
