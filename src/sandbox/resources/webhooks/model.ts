import { createHash, randomBytes } from "node:crypto";
import type { CallbackEvent, SubscribableEvent } from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { notFound } from "../../core/problem.ts";
import type { Doc, Store } from "../../core/store.ts";
import { nextSyncSeq } from "../accounts.ts";
import type { ContactDoc } from "../contacts/doc.ts";
import { type MonitorDoc, monitorCollection } from "../monitors/model.ts";
import { sendMessage } from "../outbox.ts";
import { DeliveryIndex, dueAt } from "./delivery-index.ts";

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

/** Payloads over 32 KB are kept only while their delivery is pending (to retry it), then dropped. */
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
  /** Attempts the retry ladder allows: six (one and five retries) for engine events, else one. */
  maxAttempts: number;
  /** When the next ladder attempt is due (sandbox clock); null when none is. */
  nextRetryAt: number | null;
  /** When each redelivery asked for and not yet sent was asked (each is one extra attempt, sent at once). */
  redeliverRequests: number[];
  /** Attempts made by redeliveries: they come on top of the ladder's `maxAttempts`. */
  extraAttempts: number;
  created: number;
}

const indexes = new WeakMap<Store, DeliveryIndex>();

/**
 * The store's delivery index (pending by due time, ids by webhook), built from
 * the store on first use. It follows committed state only: writes reach it
 * through `afterCommit`, and a build inside a transaction (whose writes may
 * still be undone) serves that one read and is not kept.
 */
export function deliveryIndex(store: Store): DeliveryIndex {
  const kept = indexes.get(store);
  if (kept) return kept;
  const index = new DeliveryIndex(store.scan<DeliveryDoc>(deliveryCollection));
  if (!store.inTransaction) indexes.set(store, index);
  return index;
}

/** Every delivery write goes through here, so the index hears of it once it is committed. */
export function putDelivery(ctx: Ctx, d: DeliveryDoc): DeliveryDoc {
  ctx.store.put<DeliveryDoc>(deliveryCollection, d);
  ctx.store.afterCommit(() => deliveryIndex(ctx.store).note(d));
  return d;
}

/** Removes deliveries of one webhook; the index forgets them once the removal is committed. */
export function removeDeliveries(ctx: Ctx, webhookId: string, ids: string[]): void {
  for (const id of ids) ctx.store.remove(deliveryCollection, id);
  ctx.store.afterCommit(() => deliveryIndex(ctx.store).forget(webhookId, ids));
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

export function queueDelivery(
  ctx: Ctx,
  webhook: WebhookDoc,
  input: {
    event: DeliveryDoc["event"];
    occurredAt: number;
    data: unknown;
    resourceId: string | null;
    /** Engine events climb the retry ladder; events caused by an API call get one attempt. */
    retried: boolean;
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
  return putDelivery(ctx, {
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
    maxAttempts: input.retried ? 1 + retryLadderSec.length : 1,
    nextRetryAt: ctx.now,
    redeliverRequests: [],
    extraAttempts: 0,
    created: ctx.now,
  });
}

/** Deliveries and their payloads are kept 7 days. */
export const deliveryRetentionSec = 7 * 86400;

/** How long deliveries carry a signature made with the previous secret after a rotation. */
export const rotationOverlapSec = 86400;

/** Retries after the first attempt (engine events): 10 s, 60 s, 5 min, 30 min, 2 h. */
export const retryLadderSec = [10, 60, 300, 1800, 7200] as const;

/** A 429's Retry-After is honoured up to the last ladder step, so no delivery stays pending for long. */
export const maxRetryAfterSec = retryLadderSec.at(-1)!;

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

const tagsKey = (tags: readonly string[]) => JSON.stringify([...tags].sort());
/** Per request: how many monitors each tags scope covers. */
const tagCountsByRequest = new WeakMap<Ctx, Map<string, number>>();

/** How many monitors of the account each tags scope covers, in one walk over its monitors. */
function countTagScopes(ctx: Ctx, scopes: readonly (readonly string[])[], into: Map<string, number>): void {
  const wanted = scopes.map((tags) => ({ key: tagsKey(tags), tags: new Set(tags), count: 0 }));
  for (const m of ctx.store.all<MonitorDoc>(monitorCollection, ctx.account!.id)) {
    for (const scope of wanted) if (m.tags.some((tag) => scope.tags.has(tag))) scope.count++;
  }
  for (const scope of wanted) into.set(scope.key, scope.count);
}

/**
 * How many monitors of the account a scope covers now. A request that renders
 * many webhooks walks the account's monitors once: the first tags scope asked
 * for counts every tags scope of the account's webhooks.
 */
export function monitorCount(ctx: Ctx, scope: WebhookScope): number {
  if ("all" in scope) return ctx.store.count(monitorCollection, ctx.account!.id);
  if ("monitorIds" in scope)
    return scope.monitorIds.filter((id) => ctx.store.get(monitorCollection, id)).length;
  const key = tagsKey(scope.tags);
  let counts = tagCountsByRequest.get(ctx);
  if (!counts) {
    counts = new Map();
    tagCountsByRequest.set(ctx, counts);
    const tagScopes = ctx.store
      .all<WebhookDoc>(webhookCollection, ctx.account!.id)
      .flatMap((w) => ("tags" in w.scope ? [w.scope.tags] : []));
    countTagScopes(ctx, [...tagScopes, scope.tags], counts);
  }
  if (!counts.has(key)) countTagScopes(ctx, [scope.tags], counts);
  return counts.get(key)!;
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
    // Header values are often credentials (Authorization tokens): they are sent, never shown.
    headers: w.headers.map(({ header }) => ({ header, value: { set: true } })),
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
    nextRetryAt: dueAt(d),
    attempts: d.attempts,
    payloadDigest: d.payloadDigest,
    resourceId: d.resourceId,
  };
}

/**
 * A webhook's deliveries, through the index: those committed before the
 * current transaction, as they stand now (no route queues a delivery and
 * then looks its webhook's deliveries up in the same transaction).
 */
export function deliveriesOf(ctx: Ctx, webhookId: string): DeliveryDoc[] {
  const rows: DeliveryDoc[] = [];
  for (const id of deliveryIndex(ctx.store).idsOf(webhookId)) {
    const d = ctx.store.get<DeliveryDoc>(deliveryCollection, id);
    if (d?.webhookId === webhookId) rows.push(d);
  }
  return rows;
}

/** A pending delivery that will not be sent: `dropped`, nothing more due. */
export const dropDelivery = (ctx: Ctx, d: DeliveryDoc): DeliveryDoc =>
  putDelivery(ctx, { ...d, outcome: "dropped", nextRetryAt: null, redeliverRequests: [] });

/** A disabled webhook sends nothing more: its pending deliveries become `dropped`. */
export function dropPending(ctx: Ctx, webhookId: string): string[] {
  const dropped: string[] = [];
  for (const d of deliveriesOf(ctx, webhookId)) {
    if (d.outcome !== "pending") continue;
    dropDelivery(ctx, d);
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

/** The wait before retry number `retry` (from 1): the ladder step plus up to 20 % jitter, or a longer (capped) Retry-After. */
export function retryDelay(retry: number, retryAfterSec = 0): number {
  const step = retryLadderSec[Math.min(retry, retryLadderSec.length) - 1]!;
  return Math.max(Math.round(step * (1 + Math.random() * 0.2)), Math.min(retryAfterSec, maxRetryAfterSec));
}

/**
 * When the ladder's next attempt is due after this one, or null when the
 * ladder is over. A redelivery (an extra attempt) leaves the ladder as it was,
 * only pushed back by a 429's Retry-After; a ladder attempt moves it on.
 */
function nextLadderAttempt(
  ctx: Ctx,
  d: DeliveryDoc,
  result: AttemptResult,
  redelivery: boolean,
  ladderAttempts: number,
): number | null {
  if (result.verdict !== "retryable") return null;
  if (redelivery) {
    if (d.nextRetryAt === null) return null;
    return Math.max(d.nextRetryAt, ctx.now + Math.min(result.retryAfterSec ?? 0, maxRetryAfterSec));
  }
  return ladderAttempts < d.maxAttempts ? ctx.now + retryDelay(ladderAttempts, result.retryAfterSec) : null;
}

/**
 * Records an attempt's result on its delivery and its webhook, in the caller's
 * transaction: the delivery's next move (delivered, retry, failed), the
 * webhook's failure run, and auto-disabling. `redelivery` says the attempt
 * answered the oldest redelivery asked for when it started; redeliveries
 * asked for while it was on its way stay owed and go out next.
 */
export function recordAttempt(
  ctx: Ctx,
  deliveryId: string,
  result: AttemptResult,
  redelivery: boolean,
): void {
  const d = ctx.store.get<DeliveryDoc>(deliveryCollection, deliveryId);
  if (d?.outcome !== "pending") return;
  const webhook = ctx.store.get<WebhookDoc>(webhookCollection, d.webhookId);
  if (!webhook) return;
  const attempts = [
    ...d.attempts,
    { at: ctx.now, statusCode: result.statusCode, latencyMs: result.latencyMs, error: result.error },
  ];
  const extraAttempts = d.extraAttempts + (redelivery ? 1 : 0);
  const redeliverRequests = redelivery ? d.redeliverRequests.slice(1) : d.redeliverRequests;
  const delivered = result.verdict === "delivered";
  const nextRetryAt = nextLadderAttempt(ctx, d, result, redelivery, attempts.length - extraAttempts);
  const outcome =
    redeliverRequests.length > 0 || nextRetryAt !== null ? "pending" : delivered ? "delivered" : "failed";
  const finished = outcome !== "pending";
  putDelivery(ctx, {
    ...d,
    attempts,
    outcome,
    nextRetryAt,
    redeliverRequests,
    extraAttempts,
    // Payloads over 32 KB are kept only while they may be sent again.
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

/**
 * Deliveries older than the retention period are forgotten, payload and all.
 * It walks every delivery kept, so it runs only every few minutes.
 */
export function purgeDeliveries(ctx: Ctx): void {
  const cutoff = ctx.now - deliveryRetentionSec;
  const expired = new Map<string, string[]>();
  for (const d of ctx.store.scan<DeliveryDoc>(deliveryCollection)) {
    if (d.created >= cutoff) continue;
    const ids = expired.get(d.webhookId);
    if (ids) ids.push(d.id);
    else expired.set(d.webhookId, [d.id]);
  }
  for (const [webhookId, ids] of expired) removeDeliveries(ctx, webhookId, ids);
}
