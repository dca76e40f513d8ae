import { webhookEvents } from "../../../kinds/events.ts";
import { deliveryOutcomes, webhookDeliverySchema } from "../../../kinds/index.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { ApiProblem, notFound } from "../../core/problem.ts";
import { type DeliveryDoc, deliveriesOf, deliveryCollection, putDelivery } from "./deliveries.ts";
import { requireWebhook, type WebhookDoc } from "./model.ts";
import { renderDelivery } from "./render.ts";

/** A webhook's deliveries: listing them and asking for one again. */

function requireDelivery(ctx: Ctx, webhook: WebhookDoc, id: string): DeliveryDoc {
  const d = ctx.store.owned<DeliveryDoc>(deliveryCollection, ctx.account!.id, id);
  if (!d || d.webhookId !== webhook.id) throw notFound("delivery", id);
  return d;
}

export const deliveryRoutes = defineOperations(
  ...listOperations<DeliveryDoc>({
    id: "webhook.delivery.list",
    path: "/webhook/{id}/delivery",
    summary: "List a webhook's deliveries of the last 7 days, newest first.",
    scope: "webhook:read",
    rowsOf: { title: "deliveries", schema: webhookDeliverySchema },
    rows: (ctx, req) => deliveriesOf(ctx, requireWebhook(ctx, req.params.id!).id),
    rowId: (d) => d.id,
    filters: {
      event: {
        param: { type: "enum", values: webhookEvents, list: true, description: "Any of these events." },
        match: (d, events: string[]) => events.includes(d.event),
      },
      outcome: {
        param: { type: "enum", values: deliveryOutcomes, list: true, description: "Any of these outcomes." },
        match: (d, outcomes: string[]) => outcomes.includes(d.outcome),
      },
    },
    sort: { columns: { occurredAt: { key: (d) => d.occurredAt, time: true } }, default: "occurredAt" },
    window: {
      maxSpan: 30 * 86400,
      defaultSpan: 30 * 86400,
      filter: (d, from, to) => d.occurredAt >= from && d.occurredAt <= to,
    },
    render: (_ctx, d) => renderDelivery(d),
    errors: ["not_found"],
  }),
  {
    id: "webhook.delivery.redeliver",
    method: "POST",
    path: "/webhook/{id}/delivery/{deliveryId}/redeliver",
    summary:
      "Send a delivery again: same body and delivery id, fresh signature, one extra attempt at once continuing the attempt count; a pending delivery keeps its remaining retries.",
    scope: "webhook:write",
    errors: ["not_found", "webhook_disabled", "payload_not_retained"],
    response: {
      status: 202,
      description: "The delivery, queued for its attempt.",
      schema: webhookDeliverySchema,
    },
    handle: (ctx, req) => {
      const webhook = requireWebhook(ctx, req.params.id!);
      const d = requireDelivery(ctx, webhook, req.params.deliveryId!);
      if (!webhook.enabled) {
        throw new ApiProblem("webhook_disabled", "The webhook is disabled; enable it to redeliver.", {
          extra: { disabledReason: webhook.disabledReason },
        });
      }
      if (d.payload === null) {
        throw new ApiProblem(
          "payload_not_retained",
          "Payloads over 32 KB are not kept after their delivery.",
        );
      }
      // One extra attempt, owed until sent (even when an attempt is on its way now). A
      // pending delivery keeps its ladder; a finished one gets that one attempt only.
      const queued = putDelivery(
        ctx,
        d.outcome === "pending"
          ? { ...d, redeliverRequests: [...d.redeliverRequests, ctx.now] }
          : { ...d, outcome: "pending", nextRetryAt: null, redeliverRequests: [ctx.now] },
      );
      return { status: 202, body: renderDelivery(queued) };
    },
  },
);
