import type { State, StateLock, StateStore } from "../model.ts";
import { StateLockedError } from "./errors.ts";

/** A state kept in memory, for tests. Copies on the way in and out, so callers never share objects with it. */
export class MemoryStateStore implements StateStore {
  readonly description = "memory";
  #state: State | undefined;
  #locked = false;

  constructor(initial?: State) {
    this.#state = initial === undefined ? undefined : structuredClone(initial);
  }

  /** The saved state, without taking the lock (a copy). */
  get saved(): State | undefined {
    return this.#state === undefined ? undefined : structuredClone(this.#state);
  }

  async read(): Promise<State | undefined> {
    return this.saved;
  }

  async lock(): Promise<StateLock> {
    if (this.#locked)
      throw new StateLockedError("the in-memory state store is already locked by another run");
    this.#locked = true;
    let held = true;
    const assertHeld = () => {
      if (!held) throw new Error("this state lock was released");
    };
    return {
      read: async () => {
        assertHeld();
        return this.#state === undefined ? undefined : structuredClone(this.#state);
      },
      write: async (state) => {
        assertHeld();
        this.#state = structuredClone(state);
      },
      release: async () => {
        if (!held) return;
        held = false;
        this.#locked = false;
      },
    };
  }
}
