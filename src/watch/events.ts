/**
 * Verified deliveries waiting to be judged, one entry per object, and how a
 * batch of them reaches the live view: a burst of events about one object
 * costs one judgement, and the objects whose events did not carry them are
 * read together, by one listing when that costs fewer reads.
 */
import { isGone, type Operations, type TimeSource } from "../api/index.ts";
import { engineKind, type KindName, type Row } from "../engine/index.ts";
import type { Delivery } from "./deliveries.ts";
import { changedAt, type LiveView } from "./live.ts";

/** The newest word on one object: its row, a read to make (the event did not carry it), or its deletion. */
export type Pending =
  | { kind: KindName; id: string; op: "put"; row: Row; occurredAt?: number }
  | { kind: KindName; id: string; op: "read" }
  | { kind: KindName; id: string; op: "remove" };

/** What a delivery says about the watched kinds; nothing for events the watcher does not act on. */
export function pendingOf(d: Delivery, watches: (kind: KindName) => boolean): Pending | undefined {
  const id = typeof d.data.id === "string" ? d.data.id : undefined;
  if (!id) return undefined;
  const occurredAt = d.occurredAt;
  switch (d.event) {
    case "monitor.created":
    case "monitor.updated":
      if (!watches("monitor")) return undefined;
      // The event carries the monitor as GET answers it; an older shape without settings needs a read.
      return typeof d.data.settings === "object" && d.data.settings !== null
        ? { kind: "monitor", id, op: "put", row: d.data, ...(occurredAt !== undefined && { occurredAt }) }
        : { kind: "monitor", id, op: "read" };
    case "monitor.deleted":
      return watches("monitor") ? { kind: "monitor", id, op: "remove" } : undefined;
    case "contact.updated":
      return watches("contact")
        ? { kind: "contact", id, op: "put", row: d.data, ...(occurredAt !== undefined && { occurredAt }) }
        : undefined;
    default:
      return undefined;
  }
}

const asOf = (p: Extract<Pending, { op: "put" }>) => changedAt(p.row) ?? p.occurredAt ?? 0;

/**
 * Objects the queue holds at most. It fills only while nothing drains it (the first refresh, a long batch):
 * past this, what a delivery says is dropped and a full refresh covers it, so memory stays bounded.
 */
export const maxQueued = 10_000;

export class EventQueue {
  #pending = new Map<string, Pending>();
  readonly #max: number;

  constructor(max = maxQueued) {
    this.#max = max;
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Whether some waiting object needs a read. */
  get reads(): boolean {
    for (const p of this.#pending.values()) if (p.op === "read") return true;
    return false;
  }

  /**
   * Keeps the newest word per object: a deletion is final (ids are never reused), a read answers with
   * the object as it is then (newer than any row an event carried), and of two rows the newer one.
   * Answers false when the queue is full and does not hold the object: the word is dropped.
   */
  add(p: Pending): boolean {
    const k = `${p.kind}/${p.id}`;
    const held = this.#pending.get(k);
    if (!held && this.#pending.size >= this.#max) return false;
    if (held?.op === "remove" || (held?.op === "read" && p.op !== "remove")) return true;
    if (held?.op === "put" && p.op === "put" && asOf(p) < asOf(held)) return true;
    this.#pending.set(k, p);
    return true;
  }

  /**
   * Hands what waits to `judge`, batch after batch, until nothing does. Reads wait `gatherMs` first for
   * the rest of their burst, so one listing can answer them all.
   */
  async drain(
    judge: (batch: Pending[]) => Promise<void>,
    time: TimeSource,
    gatherMs: number,
    signal: AbortSignal,
  ): Promise<void> {
    while (this.size > 0 && !signal.aborted) {
      if (this.reads) await time.sleep(gatherMs, signal).catch(() => {});
      if (!signal.aborted) await judge(this.take());
    }
  }

  /** Everything waiting, in arrival order; the queue is empty afterwards. */
  take(): Pending[] {
    const all = [...this.#pending.values()];
    this.#pending = new Map();
    return all;
  }
}

/** Objects a list page holds. */
export const pageSize = 500;

/**
 * Puts a batch's rows and deletions into the view; answers the objects it changed (a late or replayed row
 * changes nothing) and, per kind, the objects to read.
 */
export function applyEvents(
  view: LiveView,
  batch: readonly Pending[],
): { touched: [KindName, string][]; reads: Map<KindName, string[]> } {
  const touched: [KindName, string][] = [];
  const reads = new Map<KindName, string[]>();
  for (const p of batch) {
    if (p.op === "read") reads.set(p.kind, [...(reads.get(p.kind) ?? []), p.id]);
    else if (p.op === "put") {
      if (view.put(p.kind, p.row, p.occurredAt)) touched.push([p.kind, p.id]);
    } else {
      view.remove(p.kind, p.id);
      touched.push([p.kind, p.id]);
      if (p.kind !== "monitor") continue;
      // The API deletes the monitor's subscriptions with it.
      for (const kind of ["alertSubscription", "reportSubscription"] as const) {
        for (const [sid, row] of view.rows.get(kind) ?? []) {
          if (row.monitorId !== p.id) continue;
          view.remove(kind, sid);
          touched.push([kind, sid]);
        }
      }
    }
  }
  return { touched, reads };
}

/**
 * Reads objects whose events did not carry them into the view: one listing of the kind when that costs
 * fewer reads than a read each (a kind of N objects lists in ceil(N/500) reads). `naturalKey`: what the
 * state holds of an object's natural key, for kinds read by it.
 */
export async function readObjects(
  ops: Operations,
  view: LiveView,
  kind: KindName,
  ids: readonly string[],
  naturalKey: (id: string) => Record<string, unknown>,
): Promise<void> {
  const engine = engineKind(kind);
  const pages = Math.max(1, Math.ceil((view.rows.get(kind)?.size ?? 0) / pageSize));
  if (ids.length > pages) {
    const listed = new Map((await engine.listAll(ops)).rows.map((row) => [String(row.id), row]));
    for (const id of ids) {
      const row = listed.get(id);
      if (row) view.put(kind, row);
      else view.remove(kind, id, false);
    }
    return;
  }
  for (const id of ids) {
    try {
      view.put(kind, await engine.getOne(ops, { id, ...naturalKey(id) }));
    } catch (error) {
      if (!isGone(error)) throw error;
      view.remove(kind, id, false);
    }
  }
}

/** A promise settled from outside (what deliveries wait for): fulfilled by `settle()`, rejected by `settle(failure)`. */
export function settleable(): { promise: Promise<void>; settle: (failure?: unknown) => void } {
  let settle!: (failure?: unknown) => void;
  const promise = new Promise<void>((resolve, reject) => {
    settle = (failure) => (failure === undefined ? resolve() : reject(failure));
  });
  promise.catch(() => {});
  return { promise, settle };
}
