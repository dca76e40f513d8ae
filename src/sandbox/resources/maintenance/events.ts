import { occurrenceAt, windowState } from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { type BackgroundTask, systemCtx } from "../../core/state.ts";
import type { MonitorDoc } from "../monitors/model.ts";
import { emitEvent } from "../webhooks/events.ts";
import { scopeCovers, type WebhookDoc } from "../webhooks/model.ts";
import { type MaintenanceDoc, maintenanceCollection, occurrencesEndedBetween } from "./model.ts";

/**
 * Queues `maintenance.ended` for one occurrence. Each webhook hears of the
 * covered monitors in its own scope only, and not at all when the window
 * covers none of them (a webhook scoped to all monitors always hears).
 */
function emitEnded(
  ctx: Ctx,
  w: MaintenanceDoc,
  occurrence: { from: number; to: number },
  endedAt: number,
  endedEarly: boolean,
) {
  const monitors = w.monitorIds
    .map((id) => ctx.store.get<MonitorDoc>("monitor", id))
    .filter((m): m is MonitorDoc => m !== undefined);
  emitEvent(ctx, {
    event: "maintenance.ended",
    occurredAt: endedAt,
    resourceId: w.id,
    // A scheduled end is an engine event (retried); a cancel is caused by an API call (one attempt).
    retried: !endedEarly,
    data: (webhook: WebhookDoc) => {
      const all = "all" in webhook.scope;
      const inScope = all
        ? w.monitorIds
        : monitors.filter((m) => scopeCovers(webhook.scope, m)).map((m) => m.id);
      if (!all && inScope.length === 0) return undefined;
      return {
        maintenanceId: w.id,
        name: w.name,
        from: occurrence.from,
        to: occurrence.to,
        endedAt,
        endedEarly,
        monitorIds: inScope,
      };
    },
  });
}

/**
 * Emits `maintenance.ended` (endedEarly false) for every occurrence of the
 * window that reached its end since the last one emitted, and records how far
 * it got: each occurrence ends exactly once, whatever the clock jumped over.
 */
export function settleEnds(ctx: Ctx, w: MaintenanceDoc, now = ctx.now): MaintenanceDoc {
  return recordEnds(ctx, w, occurrencesEndedBetween(w, w.endedThrough, now));
}

function recordEnds(ctx: Ctx, w: MaintenanceDoc, ended: { from: number; to: number }[]): MaintenanceDoc {
  if (ended.length === 0) return w;
  for (const occurrence of ended) emitEnded(ctx, w, occurrence, occurrence.to, false);
  return ctx.store.put<MaintenanceDoc>(maintenanceCollection, { ...w, endedThrough: ended.at(-1)!.to });
}

/**
 * Emits `maintenance.ended` (endedEarly true) when a change ends an active
 * occurrence now: `before` was active and `after` (the window as changed, or
 * undefined once deleted) is not. Answers whether it did.
 */
export function endEarlyIfCut(ctx: Ctx, before: MaintenanceDoc, after: MaintenanceDoc | undefined): boolean {
  if (windowState(before, ctx.now) !== "active") return false;
  if (after && windowState(after, ctx.now) === "active") return false;
  emitEnded(ctx, before, occurrenceAt(before, ctx.now), ctx.now, true);
  return true;
}

/** Scheduled ends of maintenance windows, on the sandbox clock (after a restart too). */
export const maintenanceEndTask: BackgroundTask = {
  name: "maintenance.ended",
  due(state, now) {
    for (const w of state.store.scan<MaintenanceDoc>(maintenanceCollection)) {
      const ended = occurrencesEndedBetween(w, w.endedThrough, now);
      // A handler context only for the windows that did end.
      if (ended.length > 0) recordEnds(systemCtx(state, w.accountId), w, ended);
    }
  },
  // A window's start holds alerts back and its end releases them: both are moments the timers must see.
  nextDue(state, now) {
    let next: number | undefined;
    for (const w of state.store.scan<MaintenanceDoc>(maintenanceCollection)) {
      const { from, to } = occurrenceAt(w, now);
      const at = from > now ? from : to > now ? to : undefined;
      if (at !== undefined && (next === undefined || at < next)) next = at;
    }
    return next;
  },
};
