/**
 * The write-ahead journal: before each write, the address records the pending
 * operation and its `Idempotency-Key`, and the state is saved; after it, the
 * outcome replaces the record. A crash at any point leaves a state from which
 * the next run can tell what happened.
 *
 * A save that fails (the state's database went away mid-apply) ends the
 * journal: no further write may start, since none could be recorded first.
 * The writes already under way finish, and the journal keeps what they did
 * that the saved state does not show, for the one message that says so.
 */
import { createHash, randomUUID } from "node:crypto";
import type { PendingOperation, ResourceState, State, StateLock } from "../model.ts";
import { hashSecret } from "../state/index.ts";
import type { ApplyResult } from "./model.ts";

/** A write whose outcome the saved state does not show: it still holds the write as pending. */
export interface UnsavedWrite {
  address: string;
  action: PendingOperation["action"];
}

/**
 * The state could not be saved during an apply. `unsaved` is what was
 * written to the account since the last save; the saved state holds each as a
 * pending write, which the next run settles (docs/state.md, "The journal").
 */
export class StateNotSavedError extends Error {
  override readonly name = "StateNotSavedError";
  readonly unsaved: UnsavedWrite[];
  /** What the apply did and what failed, up to the end it came to. */
  result: ApplyResult | undefined;

  constructor(cause: unknown, unsaved: UnsavedWrite[]) {
    super(`The state could not be saved: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.unsaved = unsaved;
  }
}

/**
 * The apply was stopped (its signal aborted: Ctrl+C): no write started after that, and every write that was
 * under way ended and is saved in the state. `result` is what the apply did up to then.
 */
export class ApplyInterruptedError extends Error {
  override readonly name = "ApplyInterruptedError";
  result: ApplyResult | undefined;

  constructor() {
    super("The apply was interrupted: no write started after that, and every write made is saved.");
  }
}

/** A refusal handler must not report a lost state as the write's own failure: the write may have happened. */
export function rethrowIfStateLost(error: unknown): void {
  if (error instanceof StateNotSavedError) throw error;
}

export class Journal {
  readonly state: State;
  readonly #lock: StateLock;
  readonly #now: () => number;
  readonly #signal: AbortSignal | undefined;
  readonly #runSerial: number;
  /**
   * Two copies of one state (a teammate's checkout and CI, a state restored from Git) share lineage and
   * serial: without a nonce of the run, their different writes would share keys, and the service would
   * refuse the second as a conflict (or, worse, answer it with the first one's stored response).
   */
  readonly #runId = randomUUID();
  #chain: Promise<void> = Promise.resolve();
  #next: Promise<void> | undefined;
  /** Why the state can no longer be saved, once a save failed. */
  #lost: { cause: unknown } | undefined;
  /** Outcomes settled since the last save that succeeded, by address. */
  readonly #unsaved = new Map<string, UnsavedWrite>();

  constructor(lock: StateLock, state: State, now: () => number, signal?: AbortSignal) {
    this.#lock = lock;
    this.state = state;
    this.#now = now;
    this.#signal = signal;
    this.#runSerial = state.serial;
  }

  /**
   * Saves the state. Concurrent callers share one write: each save covers every
   * change made before it started, and a change made during a write gets the next one.
   */
  save(): Promise<void> {
    if (this.#lost !== undefined) return Promise.reject(this.lostError());
    if (!this.#next) {
      this.#next = this.#chain.then(async () => {
        this.#next = undefined;
        if (this.#lost !== undefined) throw this.lostError();
        const covered = [...this.#unsaved.entries()];
        this.state.serial++;
        try {
          await this.#lock.write(this.state);
        } catch (cause) {
          this.#lost = { cause };
          throw this.lostError();
        }
        for (const [address, write] of covered)
          if (this.#unsaved.get(address) === write) this.#unsaved.delete(address);
      });
      this.#chain = this.#next.catch(() => {});
    }
    return this.#next;
  }

  /** Whether a save failed: then no further write may start. */
  get lost(): boolean {
    return this.#lost !== undefined;
  }

  /**
   * Throws unless a write may start: not once a save failed (it could not be recorded first), nor once the
   * apply was stopped. Every write passes here before it is sent (`begin` does it).
   */
  assertMayStart(): void {
    if (this.#lost !== undefined) throw this.lostError();
    if (this.#signal?.aborted) throw new ApplyInterruptedError();
  }

  /** The error of a lost state, listing what was written since the last save (the writes in flight too). */
  lostError(): StateNotSavedError {
    return new StateNotSavedError(this.#lost?.cause, [...this.#unsaved.values()]);
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
    // Nothing is sent that the state could not record first, nor once the apply was stopped.
    this.assertMayStart();
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

  /**
   * A bulk write was accepted as a job: recording its id lets the next run wait for it after a crash.
   * A save that fails here does not stop the job, which the service runs anyway: it is followed to its
   * end, so that what it did is known, and the journal is lost from then on.
   */
  async attachJob(addresses: readonly string[], jobId: string): Promise<void> {
    for (const address of addresses) {
      const pending = this.state.resources[address]?.pending;
      if (pending) pending.jobId = jobId;
    }
    await this.save().catch(rethrowUnlessLost);
  }

  /** The write's outcome: the entry as it now stands, or undefined when the object is gone. */
  settle(address: string, entry: ResourceState | undefined): void {
    const pending = this.state.resources[address]?.pending;
    if (pending) this.#unsaved.set(address, { address, action: entry ? pending.action : "delete" });
    this.#put(address, entry);
  }

  /** The write failed and changed nothing: the entry goes back to what it was before. */
  abandon(address: string, before: ResourceState | undefined): void {
    this.#unsaved.delete(address);
    this.#put(address, before);
  }

  #put(address: string, entry: ResourceState | undefined): void {
    if (entry) {
      const { pending: _done, ...settled } = entry;
      this.state.resources[address] = settled;
    } else delete this.state.resources[address];
  }
}

function rethrowUnlessLost(error: unknown): void {
  if (!(error instanceof StateNotSavedError)) throw error;
}
