/**
 * What the index reads of a stored delivery (`DeliveryDoc` in deliveries.ts,
 * which builds the index: naming only these members keeps the two apart).
 */
export interface IndexedDelivery {
  id: string;
  webhookId: string;
  outcome: string;
  redeliverRequests: readonly number[];
  nextRetryAt: number | null;
}

/** When a delivery's next attempt is due: at once for an asked redelivery, else its ladder time. */
export function dueAt(d: IndexedDelivery): number | null {
  if (d.outcome !== "pending") return null;
  return d.redeliverRequests[0] ?? d.nextRetryAt;
}

/**
 * In-memory indexes over the stored deliveries, so that the worker and the
 * per-webhook routes never walk every delivery kept (7 days of them).
 *
 * They follow committed state only: writes reach them through
 * `store.afterCommit` (see `putDelivery`, `removeDeliveries`), so a dry run or
 * a rolled-back request leaves no entry behind. The due heap still holds
 * hints: an entry stays when its delivery is later attempted or redelivered,
 * so a due entry is re-read from the store before it is sent (and skipped
 * when the delivery is missing, finished, or not due).
 */
export class DeliveryIndex {
  /** Binary min-heap of [dueAt, id]. */
  readonly #due: [number, string][] = [];
  readonly #byWebhook = new Map<string, Set<string>>();
  /** Deliveries being sent right now: one attempt at a time per delivery. */
  readonly inFlight = new Set<string>();

  constructor(docs: Iterable<IndexedDelivery>) {
    for (const d of docs) this.note(d);
  }

  /** Records a delivery just written (queued, attempted, redelivered). */
  note(d: IndexedDelivery): void {
    const ids = this.#byWebhook.get(d.webhookId);
    if (ids) ids.add(d.id);
    else this.#byWebhook.set(d.webhookId, new Set([d.id]));
    const at = dueAt(d);
    if (at !== null) this.#push([at, d.id]);
  }

  /** Whether a hint is due by `now`. */
  hasDue(now: number): boolean {
    return this.#due.length > 0 && this.#due[0]![0] <= now;
  }

  /** Takes up to `max` hints due by `now`, earliest first; the caller re-reads each delivery. */
  takeDue(now: number, max: number): string[] {
    const taken: string[] = [];
    while (taken.length < max && this.#due.length > 0 && this.#due[0]![0] <= now) {
      taken.push(this.#pop()[1]);
    }
    return taken;
  }

  /** The ids of a webhook's committed deliveries. */
  idsOf(webhookId: string): ReadonlySet<string> {
    return this.#byWebhook.get(webhookId) ?? new Set();
  }

  /** Forgets ids whose removal was committed. */
  forget(webhookId: string, ids: Iterable<string>): void {
    const set = this.#byWebhook.get(webhookId);
    if (!set) return;
    for (const id of ids) set.delete(id);
    if (set.size === 0) this.#byWebhook.delete(webhookId);
  }

  #push(entry: [number, string]): void {
    const heap = this.#due;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]![0] <= entry[0]) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = entry;
  }

  #pop(): [number, string] {
    const heap = this.#due;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        const child = right < heap.length && heap[right]![0] < heap[left]![0] ? right : left;
        if (heap[child]![0] >= last[0]) break;
        heap[i] = heap[child]!;
        i = child;
      }
      heap[i] = last;
    }
    return top;
  }
}
