import { eventCatalogue, eventEnvelope, webhookEvents } from "../../kinds/events.ts";
import type { JsonSchema, SchemaComponents } from "./json-schema.ts";

const headerParam = (name: string, description: string, schema: JsonSchema) => ({
  name,
  in: "header",
  required: true,
  description,
  schema,
});

/** The headers of every delivery, published once under `components.parameters`. */
export const deliveryHeaders: Record<string, JsonSchema> = {
  SvcEvent: headerParam("SVC-Event", "Event name, as in the envelope.", { type: "string" }),
  SvcDelivery: headerParam("SVC-Delivery", "Delivery id, same as the envelope id.", {
    type: "string",
    pattern: "^d_[0-9a-f]{32}$",
  }),
  SvcWebhook: headerParam("SVC-Webhook", "Id of the webhook delivering.", { type: "string" }),
  SvcAttempt: headerParam("SVC-Attempt", "Attempt number from 1; a redelivery continues the count.", {
    type: "integer",
    minimum: 1,
  }),
  SvcSignature: headerParam(
    "SVC-Signature",
    "t=<unix seconds>,v1=<hex HMAC-SHA256 of t.body, keyed with the whole secret>; two v1 values during rotation.",
    { type: "string", pattern: "^t=\\d+(,v1=[0-9a-f]{64}){1,2}$" },
  ),
  WebhookId: headerParam("webhook-id", "Standard Webhooks: the delivery id.", { type: "string" }),
  WebhookTimestamp: headerParam("webhook-timestamp", "Standard Webhooks: Unix seconds of signing.", {
    type: "integer",
    minimum: 0,
  }),
  WebhookSignature: headerParam(
    "webhook-signature",
    "Standard Webhooks: space-separated v1,<base64 HMAC-SHA256 of id.timestamp.body>, keyed with the base64-decoded secret after whsec_.",
    { type: "string", pattern: "^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$" },
  ),
};

const answers = {
  "2XX": { description: "Delivered, when answered within 10 seconds." },
  "410": { description: "The webhook is disabled at once." },
  default: {
    description:
      "408, 429 (a longer Retry-After is honoured) and 5xx are retryable where the event is retried; other 4xx fail permanently.",
  },
};

/** The `webhooks` member: one POST per event, its body the envelope with that event's data. */
export function webhooksOf(components: SchemaComponents): Record<string, unknown> {
  return Object.fromEntries(
    webhookEvents.map((event) => {
      const { firesWhen, retried } = eventCatalogue[event];
      return [
        event,
        {
          post: {
            operationId: `event.${event}`,
            summary: firesWhen,
            description: retried
              ? "Retried after 10 s, 60 s, 5 min, 30 min and 2 h (up to 20 percent jitter)."
              : "One attempt.",
            tags: ["events"],
            parameters: Object.keys(deliveryHeaders).map((name) => ({
              $ref: `#/components/parameters/${name}`,
            })),
            requestBody: {
              required: true,
              content: { "application/json": { schema: components.convert(eventEnvelope(event), "output") } },
            },
            responses: answers,
          },
        },
      ];
    }),
  );
}
