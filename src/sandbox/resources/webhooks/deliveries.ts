import { createHash, randomBytes } from "node:crypto";
import type { CallbackEvent, SubscribableEvent } from "../../../kinds/events.ts";
import type { Ctx } from "../../core/operation.ts";
import type { Doc, Store } from "../../core/store.ts";
import { DeliveryIndex } from "./delivery-index.ts";
import type { WebhookDoc } from "./model.ts";

/*
 * Deliveries: one event queued for one webhook, the index that finds them,
 * and their lifetime (queued, dropped, purged). Attempts are in attempts.ts.
 */

export const deliveryCollection = "webhookDelivery";

/** Payloads over 32 KB are kept only while their delivery is pending (to retry it), then dropped. */
export const maxRetainedPayload = 32 * 1024;

/** One event sent, or to be sent, to one webhook. */
export interface DeliveryDoc extends Doc {
  webhookId: string;
  event: SubscribableEvent | CallbackEvent;
  occurredAt: number;
  resourceId: string | null;
  /** The envelope as sent, byte for byte; null once it is no longer retained. */
  payload: string | null;
  payloadDigest: string;
  outcome: "pending" | "delivered" | "failed" | "dropped";
  attempts: { at: number; statusCode: number | null; latencyMs: number | null; error: string | null }[];
  /** Attempts the retry ladder allows: six (one and five retries) for engine events, else one. */
  maxAttempts: number;
  /** When the next ladder attempt is due (sandbox clock); null when none is. */
  nextRetryAt: number | null;
  /** When each redelivery asked for and not yet sent was asked (each is one extra attempt, sent at once). */
  redeliverRequests: number[];
  /** Attempts made by redeliveries: they come on top of the ladder's `maxAttempts`. */
  extraAttempts: number;
  created: number;
}

const indexes = new WeakMap<Store, DeliveryIndex>();
/** Stores whose restores already drop their index. */
const restorable = new WeakSet<Store>();

/**
 * The store's delivery index (pending by due time, ids by webhook), built from
 * the store on first use. It follows committed state only: writes reach it
 * through `afterCommit`, and a build inside a transaction (whose writes may
 * still be undone) serves that one read and is not kept.
 */
export function deliveryIndex(store: Store): DeliveryIndex {
  const kept = indexes.get(store);
  if (kept) return kept;
  const index = new DeliveryIndex(store.scan<DeliveryDoc>(deliveryCollection));
  if (!store.inTransaction) {
    // A store put back to a snapshot holds other deliveries: the index is built again on its next use.
    if (!restorable.has(store)) {
      restorable.add(store);
      store.onRestore(() => indexes.delete(store));
    }
    indexes.set(store, index);
  }
  return index;
}

/** Every delivery write goes through here, so the index hears of it once it is committed. */
export function putDelivery(ctx: Ctx, d: DeliveryDoc): DeliveryDoc {
  ctx.store.put<DeliveryDoc>(deliveryCollection, d);
  ctx.store.afterCommit(() => deliveryIndex(ctx.store).note(d));
  return d;
}

/** Removes deliveries of one webhook; the index forgets them once the removal is committed. */
export function removeDeliveries(ctx: Ctx, webhookId: string, ids: string[]): void {
  for (const id of ids) ctx.store.remove(deliveryCollection, id);
  ctx.store.afterCommit(() => deliveryIndex(ctx.store).forget(webhookId, ids));
}

export const newDeliveryId = () => `d_${randomBytes(16).toString("hex")}`;

export function queueDelivery(
  ctx: Ctx,
  webhook: WebhookDoc,
  input: {
    event: DeliveryDoc["event"];
    occurredAt: number;
    data: unknown;
    resourceId: string | null;
    /** Engine events climb the retry ladder; events caused by an API call get one attempt. */
    retried: boolean;
  },
): DeliveryDoc {
  const id = newDeliveryId();
  const payload = JSON.stringify({
    id,
    event: input.event,
    occurredAt: input.occurredAt,
    apiVersion: "v2",
    data: input.data,
  });
  return putDelivery(ctx, {
    id,
    accountId: webhook.accountId,
    webhookId: webhook.id,
    event: input.event,
    occurredAt: input.occurredAt,
    resourceId: input.resourceId,
    payload,
    payloadDigest: createHash("sha256").update(payload).digest("hex"),
    outcome: "pending",
    attempts: [],
    maxAttempts: input.retried ? 1 + retryLadderSec.length : 1,
    nextRetryAt: ctx.now,
    redeliverRequests: [],
    extraAttempts: 0,
    created: ctx.now,
  });
}

/** Deliveries and their payloads are kept 7 days. */
export const deliveryRetentionSec = 7 * 86400;

/** Retries after the first attempt (engine events): 10 s, 60 s, 5 min, 30 min, 2 h. */
export const retryLadderSec = [10, 60, 300, 1800, 7200] as const;

/**
 * A webhook's deliveries, through the index: those committed before the
 * current transaction, as they stand now (no route queues a delivery and
 * then looks its webhook's deliveries up in the same transaction).
 */
export function deliveriesOf(ctx: Ctx, webhookId: string): DeliveryDoc[] {
  const rows: DeliveryDoc[] = [];
  for (const id of deliveryIndex(ctx.store).idsOf(webhookId)) {
    const d = ctx.store.get<DeliveryDoc>(deliveryCollection, id);
    if (d?.webhookId === webhookId) rows.push(d);
  }
  return rows;
}

/** A pending delivery that will not be sent: `dropped`, nothing more due. */
export const dropDelivery = (ctx: Ctx, d: DeliveryDoc): DeliveryDoc =>
  putDelivery(ctx, { ...d, outcome: "dropped", nextRetryAt: null, redeliverRequests: [] });

/** A disabled webhook sends nothing more: its pending deliveries become `dropped`. */
export function dropPending(ctx: Ctx, webhookId: string): string[] {
  const dropped: string[] = [];
  for (const d of deliveriesOf(ctx, webhookId)) {
    if (d.outcome !== "pending") continue;
    dropDelivery(ctx, d);
    dropped.push(d.id);
  }
  return dropped;
}

/**
 * Deliveries older than the retention period are forgotten, payload and all.
 * It walks every delivery kept, so it runs only every few minutes.
 */
export function purgeDeliveries(ctx: Ctx): void {
  const cutoff = ctx.now - deliveryRetentionSec;
  const expired = new Map<string, string[]>();
  for (const d of ctx.store.scan<DeliveryDoc>(deliveryCollection)) {
    if (d.created >= cutoff) continue;
    const ids = expired.get(d.webhookId);
    if (ids) ids.push(d.id);
    else expired.set(d.webhookId, [d.id]);
  }
  for (const [webhookId, ids] of expired) removeDeliveries(ctx, webhookId, ids);
}
