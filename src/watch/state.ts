/**
 * The newest state the watcher has read, and which addresses manage each
 * object. Read without the lock: an apply's journal saves each write (as
 * pending) before sending it, so an object an apply is deleting shows as
 * pending, then gone, never as deleted outside vigil.
 */
import type { KindName, State, StateStore } from "../engine/index.ts";

export class StateTracker {
  readonly #store: StateStore;
  #state: State | undefined;
  /** kind/id → addresses managing it. */
  #addresses = new Map<string, string[]>();

  constructor(store: StateStore) {
    this.#store = store;
  }

  get current(): State {
    if (!this.#state) throw new Error("the state has not been read yet");
    return this.#state;
  }

  /** The saved state, as it is now. */
  async read(): Promise<State> {
    const state = await this.#store.read();
    if (!state)
      throw new Error(
        `${this.#store.description} holds no state: vigil watch reports drift of what vigil applied; run vigil apply first.`,
      );
    return state;
  }

  /** Takes `state` when it is newer than the one held (reads may settle out of order); answers whether it did. */
  adopt(state: State): boolean {
    const held = this.#state;
    if (held && held.lineage === state.lineage && state.serial <= held.serial) return false;
    this.#state = state;
    this.#addresses = new Map();
    for (const [address, r] of Object.entries(state.resources)) {
      if (!r.id) continue;
      const k = `${r.kind}/${r.id}`;
      this.#addresses.set(k, [...(this.#addresses.get(k) ?? []), address]);
    }
    return true;
  }

  addressesOf(kind: KindName, id: string): string[] {
    return this.#addresses.get(`${kind}/${id}`) ?? [];
  }

  /** The natural key the state holds for the object (some kinds are read by it). */
  naturalKey(kind: KindName, id: string): Record<string, unknown> {
    const address = this.addressesOf(kind, id)[0];
    return (address && this.current.resources[address]?.naturalKey) || {};
  }

  /** The objects the state manages. */
  managed(): [KindName, string][] {
    return Object.values(this.current.resources).flatMap((r) =>
      r.id ? [[r.kind, r.id] as [KindName, string]] : [],
    );
  }

  /**
   * The addresses whose entry did not change since `before`: an apply that ran while a refresh read leaves
   * the listing older or newer than the state for what it wrote, so those are judged at the next look.
   */
  unchangedSince(before: State, addresses: readonly string[]): string[] {
    const now = this.current;
    if (before === now) return [...addresses];
    return addresses.filter((a) => JSON.stringify(before.resources[a]) === JSON.stringify(now.resources[a]));
  }
}
