/**
 * The watcher's picture of the account: the live rows of every watched kind,
 * kept current by full refreshes, delta syncs and events. An event that lands
 * while a refresh is on its way wins over that refresh's (older) answer.
 */
import type { Inventory, KindName, Row } from "../engine/index.ts";

const key = (kind: KindName, id: string) => `${kind}/${id}`;

export class LiveView {
  readonly rows = new Map<KindName, Map<string, Row>>();
  /** Ids the view may judge: listed, seen, or gone. Anything else is unknown until a refresh sees it. */
  readonly #known = new Set<string>();
  /** kind/id → sequence number of the last event or targeted read that set it. */
  readonly #touched = new Map<string, number>();
  #seq = 0;
  accountId = "";
  maxBulkItems = 100;
  syncCursors: Partial<Record<KindName, string>> = {};

  /** A mark to pass to `replace`/`merge`: changes made after it win over that refresh's rows. */
  mark(): number {
    return this.#seq;
  }

  /** Whether the view can tell the object's fate: a row, or known gone. */
  knows(kind: KindName, id: string): boolean {
    return this.#known.has(key(kind, id));
  }

  get(kind: KindName, id: string): Row | undefined {
    return this.rows.get(kind)?.get(id);
  }

  /** Everything a full refresh listed, for the kinds it listed; `managed` are the state's ids of those kinds. */
  replace(inventory: Inventory, since: number, managed: Iterable<[KindName, string]>): void {
    this.accountId = inventory.accountId;
    this.maxBulkItems = inventory.maxBulkItems;
    for (const [kind, rows] of inventory.byId) {
      const fresh = new Map(rows);
      const old = this.rows.get(kind);
      for (const [k, seq] of this.#touched) {
        if (seq <= since || !k.startsWith(`${kind}/`)) continue;
        const id = k.slice(kind.length + 1);
        const row = old?.get(id);
        if (row) fresh.set(id, row);
        else fresh.delete(id);
      }
      this.rows.set(kind, fresh);
      for (const id of fresh.keys()) this.#known.add(key(kind, id));
    }
    // A managed object the listing did not show is gone.
    for (const [kind, id] of managed) if (inventory.byId.has(kind)) this.#known.add(key(kind, id));
    this.#prune(since);
    this.syncCursors = { ...this.syncCursors, ...inventory.syncCursors };
  }

  /** Rows a delta sync reported; skipped where an event since `since` knows better. */
  merge(kind: KindName, rows: readonly Row[], since: number): string[] {
    const ids: string[] = [];
    for (const row of rows) {
      const id = String(row.id);
      if ((this.#touched.get(key(kind, id)) ?? 0) > since) continue;
      this.#set(kind, id, row);
      ids.push(id);
    }
    return ids;
  }

  /** An event's object, or a targeted read: newer than any refresh on its way. */
  put(kind: KindName, row: Row): void {
    const id = String(row.id);
    this.#set(kind, id, row);
    this.#touched.set(key(kind, id), ++this.#seq);
  }

  /** An event's delete, and what the API deleted with it. */
  remove(kind: KindName, id: string): void {
    this.rows.get(kind)?.delete(id);
    const k = key(kind, id);
    this.#known.add(k);
    this.#touched.set(k, ++this.#seq);
  }

  /** The inventory the engine plans from (a new object each time: the engine indexes an inventory once). */
  inventory(): Inventory {
    return {
      accountId: this.accountId,
      maxBulkItems: this.maxBulkItems,
      rows: new Map([...this.rows].map(([kind, rows]) => [kind, [...rows.values()]])),
      byId: new Map([...this.rows].map(([kind, rows]) => [kind, new Map(rows)])),
      complete: new Set(),
      syncCursors: { ...this.syncCursors },
    };
  }

  #set(kind: KindName, id: string, row: Row): void {
    let rows = this.rows.get(kind);
    if (!rows) {
      rows = new Map();
      this.rows.set(kind, rows);
    }
    rows.set(id, row);
    this.#known.add(key(kind, id));
  }

  /** Touch marks older than the refresh just merged have done their work. */
  #prune(since: number): void {
    for (const [k, seq] of this.#touched) if (seq <= since) this.#touched.delete(k);
  }
}
