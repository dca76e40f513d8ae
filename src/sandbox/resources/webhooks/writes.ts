import { z } from "zod";
import {
  bodySchema,
  field,
  set,
  traitsOf,
  unwrapOptional,
  webhookKind,
  webhookSchema,
} from "../../../kinds/index.ts";
import { createBodyOf } from "../../core/crud.ts";
import { newGuid } from "../../core/ids.ts";
import type { Ctx } from "../../core/operation.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import { storedValues } from "../../core/stored.ts";
import { accountOf, entitlements, nextSyncSeq } from "../accounts.ts";
import { deliveriesOf, dropPending, removeDeliveries } from "./deliveries.ts";
import { rotationOverlapSec, type WebhookDoc, type WebhookScope, webhookTable } from "./model.ts";
import { assertWebhookRules, eventSet } from "./rules.ts";
import { generateSecret } from "./signing.ts";

/** Event names are judged by the rules (422 `unknown_event_type`), not by the body's shape. */
const eventNames = set(z.string().min(1)).min(1);

/** `enabled` is update only; the create body takes it so that `false` can be refused as `not_on_create`. */
export const webhookCreateBody = createBodyOf(webhookKind).extend({
  events: eventNames,
  enabled: z.boolean().optional(),
});

/**
 * A PATCH body also takes a header value as it reads back, `{set: true}`, so
 * that sending it back is answered `credential_write_only` (by
 * `refuseMaskedHeaders`) rather than a bare type error. Derived from the
 * kind's `headers`: same entries, same limits, same traits.
 */
const storedHeaders = unwrapOptional(webhookSchema.shape.headers) as z.ZodArray<
  z.ZodObject<{ header: z.ZodString; value: z.ZodString }>
>;
const maskedHeaderValue = z
  .strictObject({ set: z.literal(true) })
  .describe("The value as read back; refused with credential_write_only.");
const patchHeaders = field(
  z
    .array(
      storedHeaders.element.extend({
        value: z.union([storedHeaders.element.shape.value, maskedHeaderValue]),
      }),
    )
    .check(...((storedHeaders.def.checks ?? []) as z.core.$ZodCheck<unknown[]>[])),
  traitsOf(storedHeaders),
);
export const webhookUpdateBody = bodySchema(webhookSchema, "update").extend({
  events: eventNames.optional(),
  headers: patchHeaders.optional(),
});

/** Header values are write-only: the masked form read back cannot stand for the value it hides. */
export function refuseMaskedHeaders(headers: { value: unknown }[] | undefined): void {
  const masked = (headers ?? []).flatMap(({ value }, i) =>
    typeof value === "object" ? [{ pointer: `/headers/${i}/value`, reason: "masked_value_sent" }] : [],
  );
  if (masked.length === 0) return;
  throw new ApiProblem(
    "credential_write_only",
    "Header values are write-only; send each value, or leave headers out to keep them.",
    { errors: masked },
  );
}

export interface CreateBody {
  url: string;
  events: string[];
  scope: WebhookScope;
  name?: string | null;
  headers?: { header: string; value: string }[];
  secret?: string | { rotate: true };
  enabled?: boolean;
}
export type UpdateBody = Partial<CreateBody>;

const rotate = (v: unknown): v is { rotate: true } => typeof v === "object" && v !== null;

export function createWebhook(ctx: Ctx, body: CreateBody): { doc: WebhookDoc; secret: string } {
  if (body.enabled === false) {
    throw invalid([
      { pointer: "/enabled", value: false, reason: "not_on_create", message: "webhooks are created enabled" },
    ]);
  }
  if (rotate(body.secret)) {
    throw invalid([
      { pointer: "/secret", reason: "not_on_create", message: "{rotate: true} rotates an existing secret" },
    ]);
  }
  const limit = entitlements(accountOf(ctx)).webhooks;
  if (ctx.store.count(webhookTable, ctx.account!.id) >= limit) {
    throw new ApiProblem("package_limit", `The plan allows ${limit} webhooks.`, {
      extra: { feature: "webhooks", limit },
    });
  }
  assertWebhookRules(ctx, body);
  const secret = body.secret ?? generateSecret();
  const doc = ctx.store.put<WebhookDoc>(webhookTable, {
    id: newGuid(),
    accountId: ctx.account!.id,
    // The kind's members as sent, else their defaults; the events as a set, the secret as made.
    ...(storedValues(webhookSchema, body, undefined) as Pick<WebhookDoc, "url" | "scope" | "headers">),
    events: eventSet(body.events),
    secret,
    secretUpdatedAt: ctx.now,
    previousSecret: null,
    previousValidUntil: null,
    enabled: true,
    consecutiveFailures: 0,
    disabledReason: null,
    lastDeliveryAt: null,
    failingSince: null,
    created: ctx.now,
    updated: ctx.now,
    syncSeq: nextSyncSeq(ctx),
  });
  return { doc, secret };
}

/**
 * Applies a PATCH. A new secret (rotated or given) keeps the previous one
 * signing for 24 hours; only a rotated one is answered, once. Re-enabling
 * starts a fresh failure count; disabling drops what was still to be sent.
 */
export function updateWebhook(
  ctx: Ctx,
  doc: WebhookDoc,
  body: UpdateBody,
): { doc: WebhookDoc; secret?: string } {
  assertWebhookRules(ctx, body, doc);
  const { secret: sentSecret, enabled, events, ...members } = body;
  let next: WebhookDoc = { ...doc, ...(members as Partial<WebhookDoc>) };
  if (events) next.events = eventSet(events);
  let shown: string | undefined;
  if (sentSecret !== undefined) {
    const secret = rotate(sentSecret) ? generateSecret() : sentSecret;
    if (rotate(sentSecret)) shown = secret;
    next = {
      ...next,
      secret,
      secretUpdatedAt: ctx.now,
      previousSecret: doc.secret,
      previousValidUntil: ctx.now + rotationOverlapSec,
    };
  }
  if (enabled === true && !doc.enabled) {
    next = { ...next, enabled: true, consecutiveFailures: 0, disabledReason: null, failingSince: null };
  } else if (enabled === false && doc.enabled) {
    next = { ...next, enabled: false, disabledReason: null };
    dropPending(ctx, doc.id);
  }
  // Webhook delta sync catches every edit.
  next = ctx.store.put<WebhookDoc>(webhookTable, {
    ...next,
    updated: ctx.now,
    syncSeq: nextSyncSeq(ctx),
  });
  return { doc: next, secret: shown };
}

/** Deletes a webhook with its deliveries; pending ones go unsent, and the receipt names them. */
export function deleteWebhook(ctx: Ctx, doc: WebhookDoc) {
  const deliveries = deliveriesOf(ctx, doc.id);
  const pending = deliveries.filter((d) => d.outcome === "pending").map((d) => d.id);
  removeDeliveries(
    ctx,
    doc.id,
    deliveries.map((d) => d.id),
  );
  ctx.store.remove(webhookTable, doc.id);
  return {
    id: doc.id,
    deleted: true,
    name: doc.name,
    url: doc.url,
    cascaded: { pendingDeliveries: pending },
  };
}
