import { z } from "zod";
import { createdAt, guid, httpsUrl, readOnlyId, unixTime, updatedAt } from "./common.ts";
import { field, list, set } from "./field.ts";
import { defineKind } from "./kind.ts";

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

export const webhookScope = z.union([
  z.strictObject({ all: z.literal(true) }),
  z.strictObject({ monitorIds: set(guid).min(1).max(500) }),
  z.strictObject({ tags: set(z.string().min(1)).min(1) }),
]);

export const webhookSchema = z
  .strictObject({
    id: readOnlyId,
    url: field(httpsUrl, { description: "https, publicly reachable; one webhook per URL." }),
    events: field(set(z.enum(subscribableEvents)).min(1), { description: "At least one; no wildcard." }),
    scope: field(webhookScope, { description: "Exactly one of {all: true}, {monitorIds}, {tags}." }),
    name: field(z.string().max(100).nullable(), {}),
    headers: field(
      list(z.strictObject({ header: z.string().min(1).max(100), value: z.string().max(1000) })).max(20),
      { description: "Names beginning SVC- or webhook- are refused." },
    ),
    secret: field(z.union([z.string().min(16).max(128), z.strictObject({ rotate: z.literal(true) })]), {
      writeOnly: true,
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

export const webhookKind = defineKind({
  name: "webhook",
  title: "Webhook",
  schema: webhookSchema,
  naturalKey: ["url"],
  paths: { collection: "/webhook", item: "/webhook/{id}" },
  list: {
    sort: ["created", "updated", "name", "url"],
    defaultSort: "created",
    filters: [],
    deltaSync: "every edit",
  },
});
