import type { SubscribableEvent } from "../../../kinds/events.ts";
import type { Ctx } from "../../core/operation.ts";
import { notFound } from "../../core/problem.ts";
import type { Doc } from "../../core/store.ts";
import type { MonitorDoc } from "../monitors/model.ts";

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

/** Whether a webhook's scope covers a monitor; a tags scope catches monitors tagged later too. */
export function scopeCovers(scope: WebhookScope, monitor: MonitorDoc): boolean {
  if ("all" in scope) return true;
  if ("monitorIds" in scope) return scope.monitorIds.includes(monitor.id);
  return monitor.tags.some((tag) => scope.tags.includes(tag));
}

/** How long deliveries carry a signature made with the previous secret after a rotation. */
export const rotationOverlapSec = 86400;

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
