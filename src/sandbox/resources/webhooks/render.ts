import { webhookSchema } from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { renderedValues } from "../../core/stored.ts";
import { type MonitorDoc, monitorTable } from "../monitors/model.ts";
import type { DeliveryDoc } from "./deliveries.ts";
import { dueAt } from "./delivery-index.ts";
import { type WebhookDoc, type WebhookScope, webhookTable } from "./model.ts";

const tagsKey = (tags: readonly string[]) => JSON.stringify([...tags].sort());
/** Per request: how many monitors each tags scope covers. */
const tagCountsByRequest = new WeakMap<Ctx, Map<string, number>>();

/** How many monitors of the account each tags scope covers, in one walk over its monitors. */
function countTagScopes(ctx: Ctx, scopes: readonly (readonly string[])[], into: Map<string, number>): void {
  const wanted = scopes.map((tags) => ({ key: tagsKey(tags), tags: new Set(tags), count: 0 }));
  for (const m of ctx.store.all<MonitorDoc>(monitorTable, ctx.account!.id)) {
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
  if ("all" in scope) return ctx.store.count(monitorTable, ctx.account!.id);
  if ("monitorIds" in scope) return scope.monitorIds.filter((id) => ctx.store.get(monitorTable, id)).length;
  const key = tagsKey(scope.tags);
  let counts = tagCountsByRequest.get(ctx);
  if (!counts) {
    counts = new Map();
    tagCountsByRequest.set(ctx, counts);
    const tagScopes = ctx.store
      .all<WebhookDoc>(webhookTable, ctx.account!.id)
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
    // The kind's members as stored, in its order; then those that read back otherwise, in their places.
    ...renderedValues(webhookSchema, w),
    scope: { ...w.scope, monitorCount: monitorCount(ctx, w.scope) },
    // Header values are often credentials (Authorization tokens): they are sent, never shown.
    headers: w.headers.map(({ header }) => ({ header, value: { set: true } })),
    secret: secretInFull ?? { set: true, updatedAt: w.secretUpdatedAt, previousValidUntil },
    // Written by updates only, so not among the members a write keeps as sent.
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
