import { createHash, randomBytes } from "node:crypto";
import type { CallbackEvent, SubscribableEvent } from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { notFound } from "../../core/problem.ts";
import type { Doc } from "../../core/store.ts";
import { nextSyncSeq } from "../accounts.ts";
import type { ContactDoc } from "../contacts/model.ts";
import { type MonitorDoc, monitorCollection } from "../monitors/model.ts";
import { sendMessage } from "../outbox.ts";

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

export function queueDelivery(
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

/** Deliveries and their payloads are kept 7 days. */
export const deliveryRetentionSec = 7 * 86400;

/** How long deliveries carry a signature made with the previous secret after a rotation. */
export const rotationOverlapSec = 86400;

/** Retries after the first attempt (engine events): 10 s, 60 s, 5 min, 30 min, 2 h. */
export const retryLadderSec = [10, 60, 300, 1800, 7200] as const;

/** Auto-disable after this many consecutive failed deliveries, or this long with every delivery failing. */
export const maxConsecutiveFailures = 20;
export const failingWindowSec = 86400;

export function requireWebhook(ctx: Ctx, id: string): WebhookDoc {
  const doc = ctx.store.owned<WebhookDoc>(webhookCollection, ctx.account!.id, id);
  if (!doc) throw notFound("webhook", id);
  return doc;
}

/** The secrets a send is signed with now: the current one, and the previous one during its overlap. */
export function activeSecrets(webhook: WebhookDoc, now: number): string[] {
  const previousValid =
    webhook.previousSecret !== null &&
    webhook.previousValidUntil !== null &&
    now < webhook.previousValidUntil;
  return previousValid ? [webhook.secret, webhook.previousSecret!] : [webhook.secret];
}

/** How many monitors of the account a scope covers now. */
export function monitorCount(ctx: Ctx, scope: WebhookScope): number {
  const monitors = ctx.store.all<MonitorDoc>(monitorCollection, ctx.account!.id);
  if ("all" in scope) return monitors.length;
  if ("monitorIds" in scope)
    return scope.monitorIds.filter((id) => ctx.store.get(monitorCollection, id)).length;
  return monitors.filter((m) => scopeCovers(scope, m)).length;
}

/** A webhook as the API answers it; `secretInFull` only in the create and rotate answers. */
export function renderWebhook(ctx: Ctx, w: WebhookDoc, secretInFull?: string): Record<string, unknown> {
  const previousValidUntil =
    w.previousValidUntil !== null && w.previousValidUntil > ctx.now ? w.previousValidUntil : null;
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    scope: { ...w.scope, monitorCount: monitorCount(ctx, w.scope) },
    name: w.name,
    headers: w.headers,
    secret: secretInFull ?? { set: true, updatedAt: w.secretUpdatedAt, previousValidUntil },
    enabled: w.enabled,
    consecutiveFailures: w.consecutiveFailures,
    disabledReason: w.disabledReason,
    lastDeliveryAt: w.lastDeliveryAt,
    created: w.created,
    updated: w.updated,
  };
}

export function renderDelivery(d: DeliveryDoc): Record<string, unknown> {
  return {
    id: d.id,
    event: d.event,
    occurredAt: d.occurredAt,
    outcome: d.outcome,
    nextRetryAt: d.nextRetryAt,
    attempts: d.attempts,
    payloadDigest: d.payloadDigest,
    resourceId: d.resourceId,
  };
}

export const deliveriesOf = (ctx: Ctx, webhookId: string) =>
  ctx.store.all<DeliveryDoc>(deliveryCollection, ctx.account!.id).filter((d) => d.webhookId === webhookId);

/** A disabled webhook sends nothing more: its pending deliveries become `dropped`. */
export function dropPending(ctx: Ctx, webhookId: string): string[] {
  const dropped: string[] = [];
  for (const d of deliveriesOf(ctx, webhookId)) {
    if (d.outcome !== "pending") continue;
    ctx.store.put<DeliveryDoc>(deliveryCollection, { ...d, outcome: "dropped", nextRetryAt: null });
    dropped.push(d.id);
  }
  return dropped;
}

/**
 * Disables a webhook the service gave up on (`gone` on a 410, `deliveryFailure`
 * after the failure rules), drops what it still had to send, and tells the
 * account's confirmed email contacts once.
 */
export function autoDisable(ctx: Ctx, webhook: WebhookDoc, reason: "deliveryFailure" | "gone"): WebhookDoc {
  const disabled = ctx.store.put<WebhookDoc>(webhookCollection, {
    ...webhook,
    enabled: false,
    disabledReason: reason,
    updated: ctx.now,
    syncSeq: nextSyncSeq(ctx, webhook.accountId),
  });
  dropPending(ctx, webhook.id);
  const why =
    reason === "gone"
      ? "its receiver answered 410 Gone"
      : `its deliveries kept failing (${disabled.consecutiveFailures} consecutive failures)`;
  for (const c of ctx.store.all<ContactDoc>("contact", webhook.accountId)) {
    if (c.type !== "email" || !c.confirmed) continue;
    sendMessage(ctx, {
      kind: "webhookDisabled",
      channel: "email",
      to: c.address,
      contactId: c.id,
      webhookId: webhook.id,
      url: webhook.url,
      reason,
      subject: `Webhook ${webhook.name ?? webhook.url} was disabled`,
      text: `The webhook ${webhook.url} was disabled because ${why}. Enable it again with PATCH /webhook/${webhook.id} {"enabled": true}.`,
    });
  }
  return disabled;
}

/** How one attempt went, as the sender judged the receiver's answer. */
export interface AttemptResult {
  verdict: "delivered" | "retryable" | "permanent" | "gone";
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** Seconds a 429 asked to wait. */
  retryAfterSec?: number;
  /** The `SVC-Signature` value of the first hop. */
  signatureSent: string;
}

/** The wait before retry number `retry` (from 1): the ladder step plus up to 20 % jitter, or a longer Retry-After. */
export function retryDelay(retry: number, retryAfterSec = 0): number {
  const step = retryLadderSec[Math.min(retry, retryLadderSec.length) - 1]!;
  return Math.max(Math.round(step * (1 + Math.random() * 0.2)), retryAfterSec);
}

/**
 * Records an attempt's result on its delivery and its webhook, in the caller's
 * transaction: the delivery's next move (delivered, retry, failed), the
 * webhook's failure run, and auto-disabling.
 */
export function recordAttempt(ctx: Ctx, deliveryId: string, result: AttemptResult): void {
  const d = ctx.store.get<DeliveryDoc>(deliveryCollection, deliveryId);
  if (d?.outcome !== "pending") return;
  const webhook = ctx.store.get<WebhookDoc>(webhookCollection, d.webhookId);
  if (!webhook) return;
  const attempts = [
    ...d.attempts,
    { at: ctx.now, statusCode: result.statusCode, latencyMs: result.latencyMs, error: result.error },
  ];
  const delivered = result.verdict === "delivered";
  const retry = result.verdict === "retryable" && attempts.length < d.maxAttempts;
  const outcome = delivered ? "delivered" : retry ? "pending" : "failed";
  const finished = outcome !== "pending";
  ctx.store.put<DeliveryDoc>(deliveryCollection, {
    ...d,
    attempts,
    outcome,
    nextRetryAt: retry ? ctx.now + retryDelay(attempts.length, result.retryAfterSec) : null,
    // Payloads over 32 KB are sent but not kept once their delivery is over.
    payload: finished && d.payload !== null && d.payload.length > maxRetainedPayload ? null : d.payload,
  });

  let next: WebhookDoc = { ...webhook, lastDeliveryAt: ctx.now };
  if (delivered) next = { ...next, consecutiveFailures: 0, failingSince: null };
  else {
    next = { ...next, failingSince: webhook.failingSince ?? ctx.now };
    if (outcome === "failed") next = { ...next, consecutiveFailures: webhook.consecutiveFailures + 1 };
  }
  next = ctx.store.put<WebhookDoc>(webhookCollection, next);
  if (!next.enabled) return;
  if (result.verdict === "gone") autoDisable(ctx, next, "gone");
  else if (
    !delivered &&
    (next.consecutiveFailures >= maxConsecutiveFailures || ctx.now - next.failingSince! >= failingWindowSec)
  ) {
    autoDisable(ctx, next, "deliveryFailure");
  }
}

/** Deliveries older than the retention period are forgotten, payload and all. */
export function purgeDeliveries(ctx: Ctx, all: readonly DeliveryDoc[]): void {
  const cutoff = ctx.now - deliveryRetentionSec;
  for (const d of all) if (d.created < cutoff) ctx.store.remove(deliveryCollection, d.id);
}
