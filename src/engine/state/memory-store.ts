import type { State, StateLock, StateStore } from "../model.ts";
import { StateLockedError } from "./errors.ts";

/** A state kept in memory, for tests. Copies on the way in and out, so callers never share objects with it. */
export class MemoryStateStore implements StateStore {
  readonly description = "memory";
  #state: State | undefined;
  #locked = false;

  /**
   * Whether writes keep a copy (the default) or the writer's own object. A run that reads the state only
   * once its apply is over (`vigil test`) takes the object: a copy per save made a large apply quadratic.
   */
  readonly #copiesWrites: boolean;

  constructor(initial?: State, options: { copyWrites?: boolean } = {}) {
    this.#state = initial === undefined ? undefined : structuredClone(initial);
    this.#copiesWrites = options.copyWrites ?? true;
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
        this.#state = this.#copiesWrites ? structuredClone(state) : state;
      },
      release: async () => {
        if (!held) return;
        held = false;
        this.#locked = false;
      },
    };
  }
}
