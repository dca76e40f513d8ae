import { DatabaseSync, type StatementSync } from "node:sqlite";

/** A stored document: every collection row carries its id and owning account. */
export interface Doc {
  id: string;
  accountId: string;
}

/** What a write replaced: a document (absent when it was new), or a meta value. */
type Undo = { collection: string; id: string; before: Doc | undefined } | { meta: string; before: unknown };

/** Every document (by collection) and meta value of a store, as plain JSON-able data. */
export interface StoreSnapshot {
  docs: Record<string, Doc[]>;
  meta: Record<string, unknown>;
}

/**
 * The sandbox's state: documents held in memory for speed, written through to
 * SQLite when a data file is given. A request's writes form one transaction:
 * they reach the file together before the response is sent (so an
 * acknowledged write survives a kill), or are undone together when the
 * request fails. Documents are treated as immutable: change one by `put`ting
 * a new object, never by mutating the one `get` returned. Without a file, the
 * state can still be carried across runs as a `snapshot`.
 */
export class Store {
  readonly #byId = new Map<string, Map<string, Doc>>();
  readonly #byAccount = new Map<string, Map<string, Map<string, Doc>>>();
  readonly #db: DatabaseSync | undefined;
  readonly #upsert: StatementSync | undefined;
  readonly #delete: StatementSync | undefined;
  readonly #setMeta: StatementSync | undefined;
  #undo: Undo[] | null = null;
  /** Work waiting for the outermost transaction to commit; null outside any transaction. */
  #afterCommit: (() => void)[] | null = null;
  #dirty = new Map<string, { collection: string; id: string }>();
  #dirtyMeta = new Set<string>();
  readonly #meta = new Map<string, unknown>();

  constructor(file?: string) {
    if (!file) return;
    this.#db = new DatabaseSync(file);
    // WAL keeps readers fast; synchronous=FULL makes each commit durable before we answer.
    // Exclusive locking: the state lives in this process's memory, so a second sandbox on the
    // same file would silently fork it. The lock is taken now and held until `close` (or the
    // process dies: the OS releases it, and the WAL is recovered on the next open).
    try {
      this.#db.exec("PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;");
      this.#db.exec(
        "CREATE TABLE IF NOT EXISTS docs (collection TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (collection, id)) WITHOUT ROWID;" +
          "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;" +
          "BEGIN IMMEDIATE; COMMIT;",
      );
    } catch (error) {
      this.#db.close();
      if (/locked|busy/i.test(String(error))) {
        const locked = new Error(`The data file ${file} is in use by another sandbox (database is locked).`, {
          cause: error,
        });
        throw Object.assign(locked, { code: "VIGIL_DATA_FILE_LOCKED" });
      }
      throw error;
    }
    this.#upsert = this.#db.prepare("INSERT OR REPLACE INTO docs (collection, id, body) VALUES (?, ?, ?)");
    this.#delete = this.#db.prepare("DELETE FROM docs WHERE collection = ? AND id = ?");
    this.#setMeta = this.#db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    for (const row of this.#db.prepare("SELECT collection, body FROM docs").iterate()) {
      this.#index(row.collection as string, JSON.parse(row.body as string) as Doc);
    }
    for (const row of this.#db.prepare("SELECT key, value FROM meta").iterate()) {
      this.#meta.set(row.key as string, JSON.parse(row.value as string));
    }
  }

  /** An in-memory store (no file) holding a snapshot's documents and meta values. */
  static fromSnapshot(snapshot: StoreSnapshot): Store {
    const store = new Store();
    for (const [collection, docs] of Object.entries(snapshot.docs)) {
      for (const doc of docs) store.#index(collection, doc);
    }
    for (const [key, value] of Object.entries(snapshot.meta)) store.#meta.set(key, value);
    return store;
  }

  /**
   * Every document and meta value, as committed. Documents are shared, not
   * copied: they are immutable. Refused inside a transaction, whose writes may
   * still be undone.
   */
  snapshot(): StoreSnapshot {
    if (this.inTransaction) throw new Error("A store snapshot cannot be taken inside a transaction.");
    const docs: Record<string, Doc[]> = {};
    for (const [collection, byId] of this.#byId) {
      if (byId.size > 0) docs[collection] = [...byId.values()];
    }
    return { docs, meta: Object.fromEntries(this.#meta) };
  }

  /**
   * Puts the store back to a snapshot it took (`snapshot()`): every document and meta value as they were
   * then, everything written since gone. In-memory stores only (a data file keeps every commit; going back
   * would fork it from the file), and never inside a transaction. What other modules derived from the
   * documents (indexes) is dropped through `onRestore`, to be rebuilt on its next use.
   */
  restore(snapshot: StoreSnapshot): void {
    if (this.#db) throw new Error("A store with a data file cannot be restored to a snapshot.");
    if (this.inTransaction) throw new Error("A store cannot be restored inside a transaction.");
    this.#byId.clear();
    this.#byAccount.clear();
    this.#meta.clear();
    for (const [collection, docs] of Object.entries(snapshot.docs)) {
      for (const doc of docs) this.#index(collection, doc);
    }
    for (const [key, value] of Object.entries(snapshot.meta)) this.#meta.set(key, value);
    for (const listener of this.#restoreListeners) listener();
  }

  readonly #restoreListeners: (() => void)[] = [];

  /** Called after each `restore`: what was derived from the documents no longer holds. */
  onRestore(listener: () => void): void {
    this.#restoreListeners.push(listener);
  }

  get<T extends Doc>(collection: string, id: string): T | undefined {
    return this.#byId.get(collection)?.get(id) as T | undefined;
  }

  /** The document if it belongs to `accountId`; another account's id reads as missing. */
  owned<T extends Doc>(collection: string, accountId: string, id: string): T | undefined {
    const doc = this.get<T>(collection, id);
    return doc?.accountId === accountId ? doc : undefined;
  }

  all<T extends Doc>(collection: string, accountId: string): T[] {
    const docs = this.#byAccount.get(collection)?.get(accountId);
    return docs ? ([...docs.values()] as T[]) : [];
  }

  /** Every document of a collection, across accounts: control routes and occasional sweeps, never hot paths (it copies). */
  scan<T extends Doc>(collection: string): T[] {
    return [...(this.#byId.get(collection)?.values() ?? [])] as T[];
  }

  count(collection: string, accountId: string): number {
    return this.#byAccount.get(collection)?.get(accountId)?.size ?? 0;
  }

  put<T extends Doc>(collection: string, doc: T): T {
    this.#record(collection, doc.id);
    this.#index(collection, doc);
    if (this.#undo === null) this.#flush();
    return doc;
  }

  remove(collection: string, id: string): void {
    const doc = this.get(collection, id);
    if (!doc) return;
    this.#record(collection, id);
    this.#byId.get(collection)!.delete(id);
    this.#byAccount.get(collection)?.get(doc.accountId)?.delete(id);
    if (this.#undo === null) this.#flush();
  }

  meta<T>(key: string): T | undefined {
    return this.#meta.get(key) as T | undefined;
  }

  setMeta(key: string, value: unknown): void {
    this.#undo?.push({ meta: key, before: this.#meta.get(key) });
    this.#meta.set(key, value);
    this.#dirtyMeta.add(key);
    if (this.#undo === null) this.#flush();
  }

  /** Whether a transaction (or dry run) is open: writes made now may still be undone. */
  get inTransaction(): boolean {
    return this.#undo !== null;
  }

  /**
   * Runs `fn` once the outermost transaction has committed, or at once outside
   * any transaction. It is discarded when its transaction, its savepoint (a
   * nested transaction that throws) or an enclosing dry run is rolled back:
   * side state kept outside the store (in-memory indexes) follows commits only.
   * Hooks run in the order they were added, after the transaction has ended;
   * they must not throw (one that does is reported, the commit stands).
   */
  afterCommit(fn: () => void): void {
    if (this.#afterCommit === null) fn();
    else this.#afterCommit.push(fn);
  }

  /**
   * Runs `work` as one unit: its writes are committed together, or undone
   * together when it throws. A nested call joins the outer unit as a savepoint:
   * when it throws, its own writes (and `afterCommit` hooks) are undone and the
   * outer unit goes on. The undo log outlives the commit: a write the file
   * refused is no write at all.
   */
  transaction<T>(work: () => T): T {
    if (this.#undo !== null) {
      const outer = this.#undo;
      const mark = outer.length;
      const hooks = this.#afterCommit!;
      const hookMark = hooks.length;
      try {
        return work();
      } catch (error) {
        this.#rollBack(outer.splice(mark));
        hooks.splice(hookMark);
        throw error;
      }
    }
    const undo: Undo[] = [];
    const hooks: (() => void)[] = [];
    this.#undo = undo;
    this.#afterCommit = hooks;
    let result: T;
    try {
      result = work();
      this.#flush();
    } catch (error) {
      this.#rollBack(undo);
      this.#dirty.clear();
      this.#dirtyMeta.clear();
      throw error;
    } finally {
      this.#undo = null;
      this.#afterCommit = null;
    }
    runHooks(hooks);
    return result;
  }

  /**
   * Runs `work` and undoes every write it made, even on success: a dry run
   * goes through exactly the checks and effects of the real thing. Its
   * `afterCommit` hooks are dropped: nothing it did is ever committed.
   */
  dryRun<T>(work: () => T): T {
    const outer = this.#undo;
    const outerHooks = this.#afterCommit;
    const inner: Undo[] = [];
    this.#undo = inner;
    this.#afterCommit = [];
    try {
      return work();
    } finally {
      this.#undo = outer;
      this.#afterCommit = outerHooks;
      this.#rollBack(inner);
    }
  }

  close(): void {
    this.#flush();
    this.#db?.close();
  }

  /** Puts back, newest first, everything an undo log says was replaced. */
  #rollBack(undo: Undo[]) {
    for (const entry of undo.reverse()) {
      if ("meta" in entry) {
        if (entry.before === undefined) this.#meta.delete(entry.meta);
        else this.#meta.set(entry.meta, entry.before);
      } else this.#restore(entry.collection, entry.id, entry.before);
    }
  }

  #restore(collection: string, id: string, before: Doc | undefined) {
    if (before) {
      this.#index(collection, before);
      return;
    }
    const current = this.get(collection, id);
    this.#byId.get(collection)?.delete(id);
    if (current) this.#byAccount.get(collection)?.get(current.accountId)?.delete(id);
  }

  #record(collection: string, id: string) {
    const key = `${collection}\u0000${id}`;
    if (this.#undo !== null) this.#undo.push({ collection, id, before: this.get(collection, id) });
    this.#dirty.set(key, { collection, id });
  }

  #index(collection: string, doc: Doc) {
    const byId = getOrCreate(this.#byId, collection);
    const previous = byId.get(doc.id);
    if (previous && previous.accountId !== doc.accountId) {
      this.#byAccount.get(collection)?.get(previous.accountId)?.delete(doc.id);
    }
    byId.set(doc.id, doc);
    getOrCreate(getOrCreate(this.#byAccount, collection), doc.accountId).set(doc.id, doc);
  }

  #flush() {
    if (!this.#db) {
      this.#dirty.clear();
      this.#dirtyMeta.clear();
      return;
    }
    if (this.#dirty.size === 0 && this.#dirtyMeta.size === 0) return;
    this.#db.exec("BEGIN");
    try {
      for (const { collection, id } of this.#dirty.values()) {
        const doc = this.get(collection, id);
        if (doc) this.#upsert!.run(collection, id, JSON.stringify(doc));
        else this.#delete!.run(collection, id);
      }
      for (const key of this.#dirtyMeta) {
        // A key a dry run set and took back never reached the file.
        const value = this.#meta.get(key);
        if (value !== undefined) this.#setMeta!.run(key, JSON.stringify(value));
      }
      this.#db.exec("COMMIT");
    } catch (error) {
      // A failed COMMIT may already have ended the transaction.
      if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
      throw error;
    }
    this.#dirty.clear();
    this.#dirtyMeta.clear();
  }
}

/**
 * Runs every hook. A hook that throws cannot undo the commit, and the
 * transaction must not look failed to its caller (a throw means "undone"), so
 * the failure is reported and the other hooks still run.
 */
function runHooks(hooks: (() => void)[]): void {
  for (const hook of hooks) {
    try {
      hook();
    } catch (error) {
      console.error("vigil sandbox: an after-commit hook failed:", error);
    }
  }
}

function getOrCreate<K, V extends Map<unknown, unknown>>(map: Map<K, V>, key: K): V {
  let value = map.get(key);
  if (!value) {
    value = new Map() as V;
    map.set(key, value);
  }
  return value;
}
