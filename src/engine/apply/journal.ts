/**
 * The write-ahead journal: before each write, the address records the pending
 * operation and its `Idempotency-Key`, and the state is saved; after it, the
 * outcome replaces the record. A crash at any point leaves a state from which
 * the next run can tell what happened.
 */
import { createHash, randomUUID } from "node:crypto";
import type { PendingOperation, ResourceState, State, StateLock } from "../model.ts";
import { hashSecret } from "../state/index.ts";

export class Journal {
  readonly state: State;
  readonly #lock: StateLock;
  readonly #now: () => number;
  readonly #runSerial: number;
  /**
   * Two copies of one state (a teammate's checkout and CI, a state restored from Git) share lineage and
   * serial: without a nonce of the run, their different writes would share keys, and the service would
   * refuse the second as a conflict (or, worse, answer it with the first one's stored response).
   */
  readonly #runId = randomUUID();
  #chain: Promise<void> = Promise.resolve();
  #next: Promise<void> | undefined;

  constructor(lock: StateLock, state: State, now: () => number) {
    this.#lock = lock;
    this.state = state;
    this.#now = now;
    this.#runSerial = state.serial;
  }

  /**
   * Saves the state. Concurrent callers share one write: each save covers every
   * change made before it started, and a change made during a write gets the next one.
   */
  save(): Promise<void> {
    if (!this.#next) {
      this.#next = this.#chain.then(async () => {
        this.#next = undefined;
        this.state.serial++;
        await this.#lock.write(this.state);
      });
      this.#chain = this.#next.catch(() => {});
    }
    return this.#next;
  }

  /**
   * The same operation of the same run always gets the same key, so a retried request is replayed, never
   * repeated; another run never gets it. A run after a crash replays a write by the key its journal holds.
   */
  keyFor(action: string, addresses: readonly string[]): string {
    const digest = createHash("sha256")
      .update([this.state.lineage, this.#runSerial, this.#runId, action, ...[...addresses].sort()].join("\n"))
      .digest("hex");
    return `vigil-${digest.slice(0, 48)}`;
  }

  /** Records pending writes (creating an entry for a new address) and saves before the write is sent. */
  async begin(
    items: readonly {
      address: string;
      entry: ResourceState;
      action: PendingOperation["action"];
      body: unknown;
    }[],
    idempotencyKey: string,
  ): Promise<void> {
    for (const { address, entry, action, body } of items) {
      this.state.resources[address] = {
        ...entry,
        pending: {
          action,
          idempotencyKey,
          bodyDigest: hashSecret(this.state.lineage, body ?? null),
          startedAt: this.#now(),
        },
      };
    }
    await this.save();
  }

  /** A bulk write was accepted as a job: recording its id lets the next run wait for it after a crash. */
  async attachJob(addresses: readonly string[], jobId: string): Promise<void> {
    for (const address of addresses) {
      const pending = this.state.resources[address]?.pending;
      if (pending) pending.jobId = jobId;
    }
    await this.save();
  }

  /** The write's outcome: the entry as it now stands, or undefined when the object is gone. */
  settle(address: string, entry: ResourceState | undefined): void {
    if (entry) {
      const { pending: _done, ...settled } = entry;
      this.state.resources[address] = settled;
    } else delete this.state.resources[address];
  }

  /** The write failed and changed nothing: the entry goes back to what it was before. */
  abandon(address: string, before: ResourceState | undefined): void {
    this.settle(address, before);
  }
}
