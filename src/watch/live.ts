/**
 * The watcher's picture of the account: the live rows of every watched kind,
 * kept current by full refreshes, delta syncs and events. An event that lands
 * while a refresh is on its way wins over that refresh's (older) answer, and
 * a late or replayed event never wins over a newer row: rows carry their
 * object's `updated` (or the event's `occurredAt`), and an older one is
 * refused.
 */
import type { Inventory, KindName, Row } from "../engine/index.ts";

const key = (kind: KindName, id: string) => `${kind}/${id}`;

/** Objects deleted by an event, remembered so a late delivery cannot bring them back (ids are never reused). */
const maxTombstones = 100_000;

/** When the object was last changed, in Unix seconds, from its `updated` (seconds, milliseconds or ISO 8601). */
export function changedAt(row: Row): number | undefined {
  const updated = row.updated;
  if (typeof updated === "number" && Number.isFinite(updated))
    return updated > 1e11 ? updated / 1000 : updated;
  if (typeof updated === "string") {
    const ms = Date.parse(updated);
    if (Number.isFinite(ms)) return ms / 1000;
  }
  return undefined;
}

export class LiveView {
  readonly rows = new Map<KindName, Map<string, Row>>();
  /** Ids the view may judge: listed, seen, or gone. Anything else is unknown until a refresh sees it. */
  readonly #known = new Set<string>();
  /** kind/id → sequence number of the last event or targeted read that set it. */
  readonly #touched = new Map<string, number>();
  /** kind/id → Unix seconds the row is as of (its `updated`, or the event's `occurredAt`). */
  readonly #asOf = new Map<string, number>();
  /** kind/id of objects an event said were deleted. */
  readonly #deleted = new Set<string>();
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
      const kept = new Set<string>();
      for (const [k, seq] of this.#touched) {
        if (seq <= since || !k.startsWith(`${kind}/`)) continue;
        const id = k.slice(kind.length + 1);
        kept.add(id);
        const row = old?.get(id);
        if (row) fresh.set(id, row);
        else fresh.delete(id);
      }
      for (const id of old?.keys() ?? []) if (!fresh.has(id)) this.#asOf.delete(key(kind, id));
      for (const [id, row] of fresh) if (!kept.has(id)) this.#stamp(kind, id, changedAt(row));
      this.rows.set(kind, fresh);
      for (const id of fresh.keys()) this.#known.add(key(kind, id));
    }
    // A managed object the listing did not show is gone.
    for (const [kind, id] of managed) if (inventory.byId.has(kind)) this.#known.add(key(kind, id));
    this.#prune(since);
    this.syncCursors = { ...this.syncCursors, ...inventory.syncCursors };
  }

  /** Rows a delta sync reported; skipped where an event since `since` knows better, or the view holds newer. */
  merge(kind: KindName, rows: readonly Row[], since: number): string[] {
    const ids: string[] = [];
    for (const row of rows) {
      const id = String(row.id);
      if ((this.#touched.get(key(kind, id)) ?? 0) > since) continue;
      if (!this.#newer(kind, id, changedAt(row))) continue;
      this.#set(kind, id, row, changedAt(row));
      ids.push(id);
    }
    return ids;
  }

  /**
   * An event's object, or a targeted read: newer than any refresh on its way. Refused (answers false) when
   * the view already holds a newer row of it (by `updated`, or by `occurredAt` for an object without one),
   * or when an event said the object was deleted: a late or replayed delivery changes nothing.
   */
  put(kind: KindName, row: Row, occurredAt?: number): boolean {
    const id = String(row.id);
    const k = key(kind, id);
    const asOf = changedAt(row) ?? occurredAt;
    if (this.#deleted.has(k) || !this.#newer(kind, id, asOf)) return false;
    this.#set(kind, id, row, asOf);
    this.#touched.set(k, ++this.#seq);
    return true;
  }

  /**
   * The object is gone. `deleted` (an event's delete) is final: no later delivery brings the object back.
   * A read or listing that did not find it is not: a newer event of it still counts.
   */
  remove(kind: KindName, id: string, deleted = true): void {
    this.rows.get(kind)?.delete(id);
    const k = key(kind, id);
    this.#known.add(k);
    this.#asOf.delete(k);
    this.#touched.set(k, ++this.#seq);
    if (!deleted) return;
    this.#deleted.add(k);
    if (this.#deleted.size > maxTombstones) this.#deleted.delete(this.#deleted.values().next().value!);
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

  /** Whether a row as of `asOf` is at least as new as the one held (equal stamps: the later arrival wins). */
  #newer(kind: KindName, id: string, asOf: number | undefined): boolean {
    const held = this.#asOf.get(key(kind, id));
    return held === undefined || asOf === undefined || asOf >= held;
  }

  #set(kind: KindName, id: string, row: Row, asOf: number | undefined): void {
    let rows = this.rows.get(kind);
    if (!rows) {
      rows = new Map();
      this.rows.set(kind, rows);
    }
    rows.set(id, row);
    this.#known.add(key(kind, id));
    this.#stamp(kind, id, asOf);
  }

  #stamp(kind: KindName, id: string, asOf: number | undefined): void {
    if (asOf === undefined) this.#asOf.delete(key(kind, id));
    else this.#asOf.set(key(kind, id), asOf);
  }

  /** Touch marks older than the refresh just merged have done their work. */
  #prune(since: number): void {
    for (const [k, seq] of this.#touched) if (seq <= since) this.#touched.delete(k);
  }
}
