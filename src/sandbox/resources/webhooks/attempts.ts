import type { Ctx } from "../../core/operation.ts";
import { nextSyncSeq } from "../accounts.ts";
import type { ContactDoc } from "../contacts/doc.ts";
import { sendMessage } from "../outbox.ts";
import {
  type DeliveryDoc,
  deliveryTable,
  dropPending,
  maxRetainedPayload,
  putDelivery,
  retryLadderSec,
} from "./deliveries.ts";
import { type WebhookDoc, webhookTable } from "./model.ts";

/*
 * What an attempt's result does: the delivery's next move on the retry
 * ladder, the webhook's failure run, and auto-disabling.
 */

/** A 429's Retry-After is honoured up to the last ladder step, so no delivery stays pending for long. */
export const maxRetryAfterSec = retryLadderSec.at(-1)!;

/** Auto-disable after this many consecutive failed deliveries, or this long with every delivery failing. */
export const maxConsecutiveFailures = 20;
export const failingWindowSec = 86400;

/**
 * Disables a webhook the service gave up on (`gone` on a 410, `deliveryFailure`
 * after the failure rules), drops what it still had to send, and tells the
 * account's confirmed email contacts once.
 */
export function autoDisable(ctx: Ctx, webhook: WebhookDoc, reason: "deliveryFailure" | "gone"): WebhookDoc {
  const disabled = ctx.store.put<WebhookDoc>(webhookTable, {
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
  const d = ctx.store.get<DeliveryDoc>(deliveryTable, deliveryId);
  if (d?.outcome !== "pending") return;
  const webhook = ctx.store.get<WebhookDoc>(webhookTable, d.webhookId);
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
  next = ctx.store.put<WebhookDoc>(webhookTable, next);
  if (!next.enabled) return;
  if (result.verdict === "gone") autoDisable(ctx, next, "gone");
  else if (
    !delivered &&
    (next.consecutiveFailures >= maxConsecutiveFailures || ctx.now - next.failingSince! >= failingWindowSec)
  ) {
    autoDisable(ctx, next, "deliveryFailure");
  }
}
