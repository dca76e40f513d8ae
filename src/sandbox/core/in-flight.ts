import type { ServerResponse } from "node:http";

/**
 * Idempotency keys whose request is still running (`in_flight` to a second
 * request with the same key). They live in memory only: no request survives a
 * restart, so a sandbox restarted on its data file or snapshot holds none.
 */
export class InFlightKeys {
  readonly #held = new Set<string>();

  has(id: string): boolean {
    return this.#held.has(id);
  }

  /**
   * Holds `id` for the request whose answer is `res`, until that request is
   * over, whichever way it ends: its operation ran (and recorded its answer,
   * or changed nothing), or its connection closed before the operation
   * started (a client that gave up, a request timeout, a cut-off at shutdown).
   */
  claim(id: string, res: ServerResponse): KeyClaim {
    this.#held.add(id);
    return new KeyClaim(() => this.#held.delete(id), res);
  }
}

/** One request's hold on its key. */
export class KeyClaim {
  readonly #free: () => void;
  #running = false;
  #released = false;

  constructor(free: () => void, res: ServerResponse) {
    this.#free = free;
    // A connection lost while the operation runs keeps the key until it ends: a retry arriving
    // meanwhile answers `in_flight` instead of running the operation a second time alongside.
    const closed = () => {
      if (!this.#running) this.#release();
    };
    if (res.destroyed) closed();
    else res.once("close", closed);
  }

  /** The operation starts; false when the connection is already gone (and the key free): run nothing. */
  start(): boolean {
    if (this.#released) return false;
    this.#running = true;
    return true;
  }

  /** The operation ended: its answer is recorded (a retry replays it) or nothing changed. */
  finish(): void {
    this.#running = false;
    this.#release();
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    this.#free();
  }
}
