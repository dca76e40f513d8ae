import { createHash, randomBytes } from "node:crypto";
import type { CallbackEvent, SubscribableEvent } from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import type { Doc } from "../../core/store.ts";
import type { MonitorDoc } from "../monitors/model.ts";

export type WebhookScope = { all: true } | { monitorIds: string[] } | { tags: string[] };

/** A stored webhook. The secret is kept in full: deliveries are signed with it. */
export interface WebhookDoc extends Doc {
  url: string;
  events: SubscribableEvent[];
  scope: WebhookScope;
  name: string | null;
  headers: { header: string; value: string }[];
  secret: string;
  secretUpdatedAt: number;
  /** The secret before the last rotation; deliveries carry both signatures until `previousValidUntil`. */
  previousSecret: string | null;
  previousValidUntil: number | null;
  enabled: boolean;
  consecutiveFailures: number;
  disabledReason: "deliveryFailure" | "gone" | null;
  lastDeliveryAt: number | null;
  /** Start of the current run of failed deliveries (the 24-hour rule); null after a success. */
  failingSince: number | null;
  created: number;
  updated: number;
  syncSeq: number;
}

export const webhookCollection = "webhook";
export const deliveryCollection = "webhookDelivery";

/** Payloads over 32 KB are sent but not kept. */
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
  /** How many attempts the current run may make: six (one and five retries) for engine events, else one. */
  maxAttempts: number;
  /** When the next attempt is due (sandbox clock); null when none is. */
  nextRetryAt: number | null;
  created: number;
}

/** What an emitter says about an event; `data` may differ per webhook (or skip it, with undefined). */
export interface EventInput {
  event: SubscribableEvent;
  occurredAt?: number;
  data: unknown | ((webhook: WebhookDoc) => unknown);
  /** The monitor the event is about, for scope matching; absent for contact events, which ignore scope. */
  monitor?: MonitorDoc;
  resourceId?: string;
  /** Engine events are retried on the ladder; events caused by API calls get one attempt. */
  retried: boolean;
}

/** Whether a webhook's scope covers a monitor; a tags scope catches monitors tagged later too. */
export function scopeCovers(scope: WebhookScope, monitor: MonitorDoc): boolean {
  if ("all" in scope) return true;
  if ("monitorIds" in scope) return scope.monitorIds.includes(monitor.id);
  return monitor.tags.some((tag) => scope.tags.includes(tag));
}

export const newDeliveryId = () => `d_${randomBytes(16).toString("hex")}`;

/**
 * Queues a delivery to every enabled webhook of the account subscribed to the
 * event and whose scope covers its monitor. Runs inside the caller's
 * transaction, so an event exists exactly when the change that caused it was
 * committed. The delivery worker sends it.
 */
export function emitEvent(ctx: Ctx, input: EventInput): DeliveryDoc[] {
  const accountId = ctx.account!.id;
  const queued: DeliveryDoc[] = [];
  for (const webhook of ctx.store.all<WebhookDoc>(webhookCollection, accountId)) {
    if (!webhook.enabled || !webhook.events.includes(input.event)) continue;
    if (input.monitor && !scopeCovers(webhook.scope, input.monitor)) continue;
    const data = typeof input.data === "function" ? input.data(webhook) : input.data;
    if (data === undefined) continue;
    queued.push(
      queueDelivery(ctx, webhook, {
        event: input.event,
        occurredAt: input.occurredAt ?? ctx.now,
        data,
        resourceId: input.resourceId ?? input.monitor?.id ?? null,
        maxAttempts: input.retried ? 6 : 1,
      }),
    );
  }
  return queued;
}

/** Queues a job callback (`job.completed`, `job.progress`) to the webhook a job request named; one attempt. */
export function emitCallback(
  ctx: Ctx,
  webhookId: string,
  event: CallbackEvent,
  data: unknown,
  resourceId: string,
): DeliveryDoc | undefined {
  const webhook = ctx.store.owned<WebhookDoc>(webhookCollection, ctx.account!.id, webhookId);
  if (!webhook?.enabled) return undefined;
  return queueDelivery(ctx, webhook, { event, occurredAt: ctx.now, data, resourceId, maxAttempts: 1 });
}

function queueDelivery(
  ctx: Ctx,
  webhook: WebhookDoc,
  input: {
    event: DeliveryDoc["event"];
    occurredAt: number;
    data: unknown;
    resourceId: string | null;
    maxAttempts: number;
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
  return ctx.store.put<DeliveryDoc>(deliveryCollection, {
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
    maxAttempts: input.maxAttempts,
    nextRetryAt: ctx.now,
    created: ctx.now,
  });
}
