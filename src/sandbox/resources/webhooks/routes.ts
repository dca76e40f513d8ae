import { eventCatalogue, webhookEvents } from "../../../kinds/events.ts";
import { subscribableEvents, webhookKind, webhookReadSchema } from "../../../kinds/index.ts";
import { crudOperations, rowFieldsOf } from "../../core/crud.ts";
import { listOperations } from "../../core/list.ts";
import { defineOperations } from "../../core/operation.ts";
import { requireWebhook, type WebhookDoc, webhookCollection } from "./model.ts";
import { renderWebhook } from "./render.ts";
import {
  type CreateBody,
  createWebhook,
  deleteWebhook,
  refuseMaskedHeaders,
  type UpdateBody,
  updateWebhook,
  webhookCreateBody,
  webhookUpdateBody,
} from "./writes.ts";

const eventTypes = webhookEvents.map((name) => ({
  name,
  subscribable: (subscribableEvents as readonly string[]).includes(name),
  retried: eventCatalogue[name].retried,
  firesWhen: eventCatalogue[name].firesWhen,
}));

// `enabled` is update-only on writes (a webhook is born enabled), yet reads back.
const webhookFields = rowFieldsOf(webhookKind, ["enabled"]);

export const webhookRoutes = defineOperations(
  ...listOperations<WebhookDoc>({
    id: "webhook.list",
    path: "/webhook",
    kind: webhookKind,
    summary: "List webhooks; the page also carries summary.eventTypes, the live event catalogue.",
    scope: "webhook:read",
    rows: (ctx) => ctx.store.all<WebhookDoc>(webhookCollection, ctx.account!.id),
    rowId: (w) => w.id,
    sort: {
      columns: {
        created: { key: (w) => w.created, time: true },
        updated: { key: (w) => w.updated, time: true },
        name: { key: (w) => w.name?.toLowerCase() },
        url: { key: (w) => w.url.toLowerCase() },
      },
      default: "created",
    },
    fields: webhookFields,
    syncSeq: (w) => w.syncSeq,
    render: (ctx, w) => renderWebhook(ctx, w),
    pageExtras: () => ({ summary: { eventTypes } }),
  }),
  ...crudOperations<WebhookDoc, CreateBody, UpdateBody>({
    kind: webhookKind,
    id: "webhook",
    scopes: { read: "webhook:read", write: "webhook:write" },
    readSchema: webhookReadSchema,
    load: requireWebhook,
    render: (ctx, doc) => renderWebhook(ctx, doc),
    get: { summary: "Read a webhook; the secret reads {set, updatedAt, previousValidUntil}." },
    create: {
      summary: "Create a webhook; the answer shows the secret in full, once.",
      description: "The webhook, with its secret in full.",
      body: () => webhookCreateBody,
      errors: ["invalid_url", "unknown_event_type"],
      write: (ctx, body) => {
        const { doc, secret } = createWebhook(ctx, body);
        return { doc, answer: renderWebhook(ctx, doc, secret) };
      },
    },
    update: {
      summary:
        "Change sent members. {secret: {rotate: true}} answers the new secret once and signs with both for 24 hours; enabled: true resets the failure count.",
      body: () => webhookUpdateBody,
      errors: ["credential_write_only", "invalid_url", "unknown_event_type"],
      write: (ctx, current, body) => {
        refuseMaskedHeaders(body.headers);
        const { doc, secret } = updateWebhook(ctx, current, body);
        return { doc, answer: renderWebhook(ctx, doc, secret) };
      },
    },
    delete: {
      summary: "Delete a webhook; its deliveries go with it, pending ones unsent.",
      write: deleteWebhook,
      receipt: { description: "The delete receipt, naming the pending deliveries dropped." },
    },
  }),
);
