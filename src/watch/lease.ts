/**
 * Failover: replicas of `vigil watch` on one PostgreSQL workspace elect one active watcher through a lease
 * in the database (`PostgresLease`). Each hold ("term") gets a fencing token; what the active watcher
 * reported (its record) is saved under that token, so a replica that lost the lease can save nothing once
 * another took over, and its successor starts from the last record saved.
 *
 * The holder acts only within two thirds of the lease after it sent its last renewal: the database counts
 * the lease from when the renewal arrived, later, so a holder paused past its own deadline has stopped
 * reporting and healing a third of the lease before anyone may take over.
 */
import type { TimeSource } from "../api/index.ts";
import {
  describeHolder,
  type LockHolder,
  newHolder,
  type StateLock,
  type StateStore,
} from "../engine/index.ts";
import { parseRecord, type RecordStore, type WatchRecord } from "./record.ts";

/** Where the lease and the active watcher's record are kept (`PostgresLease`). */
export interface LeaseBackend {
  readonly description: string;
  attempt(
    holder: LockHolder,
    leaseMs: number,
  ): Promise<{ token: number } | { holder: LockHolder | undefined }>;
  renew(token: number, leaseMs: number): Promise<boolean>;
  release(token: number): Promise<void>;
  load(): Promise<unknown>;
  /** False, saving nothing, once `token` no longer holds the lease. */
  save(token: number, document: unknown): Promise<boolean>;
  /** Keeps an item (a delivery a standby received) for the holder; false when `max` wait already. */
  post(item: unknown, max: number): Promise<boolean>;
  /** The oldest items kept; each stays until `taken`. */
  inbox(limit: number): Promise<{ id: string; item: unknown }[]>;
  taken(ids: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** The replica no longer holds the lease (or never did): it must not report or heal. */
export class LeaseLostError extends Error {
  override readonly name = "LeaseLostError";
}

/** The share of the lease, from the sending of the last renewal, within which the holder acts. */
const actingShare = 2 / 3;

/** One hold of the lease: its token, and whether it still holds. */
export interface Term {
  readonly token: number;
  holds(): boolean;
  /** Throws a LeaseLostError saying what was not done, unless the term still holds. */
  assertHeld(what: string): void;
  /** The backend refused a write of this term: another replica took over. */
  lost(): void;
}

export class Election {
  readonly backend: LeaseBackend;
  readonly leaseMs: number;
  readonly #time: TimeSource;
  #term: { token: number; lost: boolean } | undefined;
  /** Until when (this replica's clock) the term may act. */
  #deadline = 0;
  /** Who holds the lease, as last seen while standing by. */
  #active: LockHolder | undefined;

  constructor(options: { backend: LeaseBackend; leaseMs: number; time: TimeSource }) {
    this.backend = options.backend;
    this.leaseMs = options.leaseMs;
    this.#time = options.time;
  }

  /** How often a standby tries to take the lease, and the holder renews it. */
  get retryMs(): number {
    return this.leaseMs / 5;
  }

  /** The holder another replica is, as last seen by a standby. */
  get active(): LockHolder | undefined {
    return this.#active;
  }

  /** The term this replica holds, if any. */
  get term(): Term | undefined {
    const term = this.#term;
    if (!term) return undefined;
    const holds = () => this.#term === term && !term.lost && this.#time.now() < this.#deadline;
    return {
      token: term.token,
      holds,
      assertHeld: (what) => {
        if (!holds())
          throw new LeaseLostError(
            `${what} was not done: this replica no longer holds the watch lease (term ${term.token}).`,
          );
      },
      lost: () => {
        term.lost = true;
      },
    };
  }

  /** One try at the lease; true when this replica holds it now. */
  async tryAcquire(): Promise<boolean> {
    const sentAt = this.#time.now();
    const result = await this.backend.attempt(newHolder("watch", this.leaseMs, sentAt), this.leaseMs);
    if ("holder" in result) {
      this.#active = result.holder;
      return false;
    }
    this.#term = { token: result.token, lost: false };
    this.#deadline = sentAt + this.leaseMs * actingShare;
    this.#active = undefined;
    return true;
  }

  /** Renews the term; false once it is lost. A renewal that fails leaves the deadline where it was. */
  async renew(): Promise<boolean> {
    const term = this.#term;
    if (!term || term.lost) return false;
    const sentAt = this.#time.now();
    if (await this.backend.renew(term.token, this.leaseMs)) {
      if (this.#term === term && !term.lost) this.#deadline = sentAt + this.leaseMs * actingShare;
    } else term.lost = true;
    return this.term?.holds() ?? false;
  }

  /** Ends the term; with `release`, gives the lease up in the database so a standby takes over at once. */
  async resign(release: boolean): Promise<void> {
    const term = this.#term;
    this.#term = undefined;
    if (term && release && !term.lost) await this.backend.release(term.token);
  }

  /** What a standby's health says of the active replica. */
  describeActive(): string {
    const holder = this.#active;
    if (!holder) return "no replica holds the watch lease; this one takes it at its next try";
    return `another replica is active: ${describeHolder(holder)}, its lease runs until ${holder.expiresAt}`;
  }
}

/**
 * The record in the lease's row, saved only by the term that holds it. `former`: where a watcher kept it
 * before this workspace had replicas (a file), read while the row holds none.
 */
export class LeasedRecords implements RecordStore {
  readonly description: string;
  readonly #backend: LeaseBackend;
  readonly #term: Term;
  readonly #former: RecordStore | undefined;

  constructor(backend: LeaseBackend, term: Term, former?: RecordStore) {
    this.#backend = backend;
    this.#term = term;
    this.#former = former;
    this.description = `${backend.description}, saved only by the replica holding it`;
  }

  async load(): Promise<WatchRecord | undefined> {
    const document = await this.#backend.load();
    if (document !== undefined) return parseRecord(document, this.#backend.description);
    return this.#former?.load();
  }

  async save(record: WatchRecord): Promise<void> {
    this.#term.assertHeld("saving what was reported");
    if (await this.#backend.save(this.#term.token, record)) return;
    this.#term.lost();
    this.#term.assertHeld("saving what was reported");
  }
}

/** The state store as a term sees it: reads as ever; the lock (taken to heal) and each of its writes only while the term holds. */
export function leasedStore(store: StateStore, term: Term): StateStore {
  return {
    description: store.description,
    read: () => store.read(),
    async lock(): Promise<StateLock> {
      term.assertHeld("healing");
      const lock = await store.lock();
      return {
        read: () => lock.read(),
        async write(state) {
          term.assertHeld("healing");
          await lock.write(state);
        },
        release: () => lock.release(),
      };
    },
  };
}
