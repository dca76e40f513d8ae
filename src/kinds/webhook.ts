import { z } from "zod";
import {
  createdAt,
  guid,
  headerName,
  headerValue,
  monitorRef,
  readOnlyId,
  unixTime,
  updatedAt,
} from "./common.ts";
import { field, list, set } from "./field.ts";
import { defineKind } from "./kind.ts";
import { webhookUrlRefusals } from "./webhook-destination.ts";

/** The 13 subscribable events; job events are callback-only. */
export const subscribableEvents = [
  "monitor.down",
  "monitor.up",
  "monitor.repeatedlyDown",
  "incident.opened",
  "incident.closed",
  "monitor.created",
  "monitor.updated",
  "monitor.deleted",
  "maintenance.ended",
  "certificate.expiring",
  "domain.expiring",
  "contact.confirmed",
  "contact.updated",
] as const;
export const callbackEvents = ["job.completed", "job.progress"] as const;

/**
 * An absolute URL of any scheme: the sandbox answers a scheme other than https
 * with 422 `invalid_url`, reason `scheme_not_allowed`, rather than a shape error.
 */
export const webhookUrl = z
  .string()
  .max(2048)
  .refine((v) => /^[a-z][a-z0-9+.-]*:\/\/[^\s/]+/i.test(v) && URL.canParse(v), {
    message: "must be an absolute https URL",
    params: { reason: "invalid_format", expected: "an absolute https URL" },
  });

/** Header names a webhook may not configure: the delivery's own headers. */
export const reservedWebhookHeaderPrefixes = ["svc-", "webhook-"] as const;

export const webhookScope = z.union([
  z.strictObject({ all: z.literal(true) }),
  z.strictObject({ monitorIds: set(monitorRef).min(1).max(500) }),
  z.strictObject({ tags: set(z.string().min(1)).min(1) }),
]);

export const webhookSchema = z
  .strictObject({
    id: readOnlyId,
    url: field(webhookUrl, { description: "https, publicly reachable; one webhook per URL." }),
    events: field(set(z.enum(subscribableEvents)).min(1), { description: "At least one; no wildcard." }),
    scope: field(webhookScope, { description: "Exactly one of {all: true}, {monitorIds}, {tags}." }),
    name: field(z.string().max(100).nullable(), {}),
    headers: field(
      list(z.strictObject({ header: headerName.max(100), value: headerValue.max(1000) })).max(20),
      {
        description:
          "Names beginning SVC- or webhook- are refused. A PATCH replaces the whole list; values read back {set: true}.",
      },
    ),
    secret: field(z.union([z.string().min(16).max(128), z.strictObject({ rotate: z.literal(true) })]), {
      writeOnly: true,
      generated: true,
      description: "16-128 characters, or omit to generate a whsec_ secret; {rotate: true} on update.",
    }),
    enabled: field(z.boolean(), { default: true, updateOnly: true, description: "Update only." }),
    consecutiveFailures: field(z.number().int(), { readOnly: true }),
    disabledReason: field(z.enum(["deliveryFailure", "gone"]).nullable(), { readOnly: true }),
    lastDeliveryAt: field(unixTime.nullable(), { readOnly: true }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

/** How a stored secret reads back after the create and rotate answers. */
export const webhookSecretRead = z.object({
  set: z.literal(true),
  updatedAt: unixTime,
  previousValidUntil: field(unixTime.nullable(), {
    description: "Until when deliveries also carry a signature made with the previous secret.",
  }),
});

/** A webhook as the API answers it: the scope with its `monitorCount`, the secret masked (or in full once). */
export const webhookReadSchema = webhookSchema.extend({
  scope: z
    .union([
      z.object({ all: z.literal(true) }),
      z.object({ monitorIds: z.array(guid) }),
      z.object({ tags: z.array(z.string()) }),
    ])
    .and(
      z.object({
        monitorCount: field(z.number().int().min(0), { description: "Monitors the scope covers now." }),
      }),
    )
    .optional(),
  secret: field(z.union([z.string(), webhookSecretRead]), {
    description: "In full only in the create and rotate answers; later {set, updatedAt, previousValidUntil}.",
  }).optional(),
  headers: field(z.array(z.object({ header: z.string(), value: z.object({ set: z.literal(true) }) })), {
    description:
      "Values are credentials more often than not: they are sent with deliveries and read back {set: true}.",
  }).optional(),
});

export const webhookKind = defineKind({
  name: "webhook",
  title: "Webhook",
  schema: webhookSchema,
  readBack: webhookReadSchema,
  naturalKey: ["url"],
  rules: {
    offline: [webhookUrlRefusals],
    quotas: [{ feature: "webhooks", usage: "webhooks", counts: () => true, describe: "webhooks" }],
    duplicate: "duplicate_resource",
  },
  required: ["url", "events", "scope"],
  paths: { collection: "/webhook", item: "/webhook/{id}" },
  list: {
    sort: ["created", "updated", "name", "url"],
    defaultSort: "created",
    filters: [],
    deltaSync: "every edit",
  },
});

export const deliveryOutcomes = ["pending", "delivered", "failed", "dropped"] as const;

export const deliveryAttempt = z.object({
  at: unixTime,
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int().min(0).nullable(),
  error: z.string().nullable(),
});

/** A row of `GET /webhook/{id}/delivery`. */
export const webhookDeliverySchema = z.object({
  id: field(z.string(), { description: "d_ + 32 hex; the envelope id." }),
  event: z.enum([...subscribableEvents, ...callbackEvents]),
  occurredAt: unixTime,
  outcome: z.enum(deliveryOutcomes),
  nextRetryAt: field(unixTime.nullable(), {
    description: "When the next attempt is due; null when none is.",
  }),
  attempts: z.array(deliveryAttempt),
  payloadDigest: field(z.string(), { description: "SHA-256 (hex) of the envelope body as sent." }),
  resourceId: z.string().nullable(),
});

/** What `POST /webhook/{id}/test` answers once its one attempt is over. */
export const webhookTestResult = z.object({
  deliveryId: z.string(),
  event: z.enum(subscribableEvents),
  outcome: z.enum(["delivered", "failed"]),
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int().min(0).nullable(),
  error: z.string().nullable(),
  signatureSent: field(z.string(), { description: "The SVC-Signature header value sent." }),
});
