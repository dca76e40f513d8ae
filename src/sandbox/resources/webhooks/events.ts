import type { CallbackEvent, SubscribableEvent } from "../../../kinds/events.ts";
import type { Ctx } from "../../core/operation.ts";
import type { MonitorDoc } from "../monitors/model.ts";
import { type DeliveryDoc, queueDelivery } from "./deliveries.ts";
import { scopeCovers, type WebhookDoc, webhookCollection } from "./model.ts";

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
        retried: input.retried,
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
  return queueDelivery(ctx, webhook, { event, occurredAt: ctx.now, data, resourceId, retried: false });
}
