import { z } from "zod";
import { eventCatalogue, type SubscribableEvent } from "../../../kinds/events.ts";
import { subscribableEvents, webhookTestResult } from "../../../kinds/index.ts";
import { defineOperations } from "../../core/operation.ts";
import { invalid, notFound } from "../../core/problem.ts";
import { newDeliveryId, queueDelivery } from "./deliveries.ts";
import { requireWebhook, type WebhookDoc, webhookCollection } from "./model.ts";
import { renderDelivery } from "./render.ts";
import { sampleData } from "./samples.ts";
import { sendAttempt } from "./send.ts";

/** Sample events: one test send answered at once, and queued engine-like events (sandbox only). */

const testBody = z.strictObject({ event: z.string().min(1).optional() });

/** The one event a test send carries: `monitor.down` unless the body names another subscribable event. */
function testEvent(name: string | undefined): SubscribableEvent {
  if (name === undefined) return "monitor.down";
  if ((subscribableEvents as readonly string[]).includes(name)) return name as SubscribableEvent;
  throw invalid(
    [{ pointer: "/event", value: name, reason: "not_allowed", allowed: [...subscribableEvents] }],
    "unknown_event_type",
  );
}

export const testRoutes = defineOperations(
  {
    id: "webhook.test",
    method: "POST",
    path: "/webhook/{id}/test",
    summary:
      "Send a sample event (default monitor.down) once and answer how it went; works on disabled webhooks; not recorded.",
    scope: "webhook:write",
    body: testBody,
    async: true,
    errors: ["not_found", "validation_failed", "unknown_event_type"],
    response: { status: 200, description: "The outcome of the one attempt.", schema: webhookTestResult },
    handle: async (ctx, req) => {
      const webhook = requireWebhook(ctx, req.params.id!);
      const event = testEvent((req.body as { event?: string }).event);
      const deliveryId = newDeliveryId();
      const body = JSON.stringify({
        id: deliveryId,
        event,
        occurredAt: ctx.now,
        apiVersion: "v2",
        data: sampleData(event, ctx.now),
      });
      const result = await sendAttempt(ctx.services.settings, {
        webhook,
        deliveryId,
        event,
        attempt: 1,
        body,
        now: ctx.now,
      });
      return {
        status: 200,
        body: {
          deliveryId,
          event,
          outcome: result.verdict === "delivered" ? "delivered" : "failed",
          statusCode: result.statusCode,
          latencyMs: result.latencyMs,
          error: result.error,
          signatureSent: result.signatureSent,
        },
      };
    },
  },
  {
    id: "sandbox.webhook.event",
    method: "POST",
    path: "/_sandbox/webhook/{id}/event",
    summary:
      "Queue a sample event to one webhook as the engine would: engine events climb the retry ladder (retried defaults from the catalogue).",
    scope: null,
    metering: "admin",
    internal: true,
    errors: [],
    body: z.strictObject({ event: z.enum(subscribableEvents), retried: z.boolean().optional() }),
    handle: (ctx, req) => {
      const webhook = ctx.store.get<WebhookDoc>(webhookCollection, req.params.id!);
      if (!webhook) throw notFound("webhook", req.params.id!);
      const { event, retried } = req.body as { event: SubscribableEvent; retried?: boolean };
      const delivery = queueDelivery(ctx, webhook, {
        event,
        occurredAt: ctx.now,
        data: sampleData(event, ctx.now),
        resourceId: null,
        retried: retried ?? eventCatalogue[event].retried,
      });
      return { status: 202, body: renderDelivery(delivery) };
    },
  },
);
