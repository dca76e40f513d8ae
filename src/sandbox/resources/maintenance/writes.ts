import {
  defaultsOf,
  maintenanceSchema,
  occurrenceAt,
  type ProblemDetailEntry,
  week,
  windowRefusals,
  windowState,
} from "../../../kinds/index.ts";
import { newGuid } from "../../core/ids.ts";
import type { Ctx } from "../../core/operation.ts";
import { invalid, notFound } from "../../core/problem.ts";
import { nextSyncSeq } from "../accounts.ts";
import { endEarlyIfCut, settleEnds } from "./events.ts";
import { lastEndedBy, type MaintenanceDoc, maintenanceCollection } from "./model.ts";

/** The members a window write sends; a create carries the kind's required ones. */
export type MaintenanceBody = Partial<
  Pick<
    MaintenanceDoc,
    | "name"
    | "from"
    | "to"
    | "monitorIds"
    | "repeat"
    | "suppressAlerts"
    | "excludeFromStats"
    | "showOnStatusPage"
  >
>;
export type MaintenanceCreate = MaintenanceBody & Pick<MaintenanceDoc, "name" | "from" | "to">;

/** Server defaults of a create, as the kind declares them. */
const defaults = defaultsOf(maintenanceSchema) as Pick<
  MaintenanceDoc,
  "monitorIds" | "repeat" | "suppressAlerts" | "excludeFromStats" | "showOnStatusPage"
>;

export function renderMaintenance(ctx: Ctx, w: MaintenanceDoc): Record<string, unknown> {
  return {
    id: w.id,
    name: w.name,
    from: w.from,
    to: w.to,
    monitorIds: w.monitorIds,
    repeat: w.repeat,
    suppressAlerts: w.suppressAlerts,
    excludeFromStats: w.excludeFromStats,
    showOnStatusPage: w.showOnStatusPage,
    state: windowState(w, ctx.now),
    occurrence: occurrenceAt(w, ctx.now),
    created: w.created,
    updated: w.updated,
  };
}

export function requireWindow(ctx: Ctx, id: string): MaintenanceDoc {
  const w = ctx.store.owned<MaintenanceDoc>(maintenanceCollection, ctx.account!.id, id);
  if (!w) throw notFound("maintenance window", id);
  return w;
}

/** Checks what the body schema cannot: the kind's window rules and that every monitor is the account's. */
function assertWindow(
  ctx: Ctx,
  w: Pick<MaintenanceDoc, "from" | "to" | "repeat" | "monitorIds">,
  sent: MaintenanceBody,
) {
  const entries: ProblemDetailEntry[] = [];
  // The window's shape is the maintenance kind's own rule, as `vigil validate` and plans judge it.
  for (const refusal of windowRefusals({ ...w })) {
    const inverted = refusal.reason === "not_after_from";
    const pointer = inverted && sent.to === undefined ? "/from" : refusal.pointer;
    entries.push({
      pointer,
      value: pointer === "/from" ? w.from : w.to,
      reason: refusal.reason!,
      ...(!inverted && { maximum: w.from + week }),
      message: inverted ? `to (${w.to}) must be after from (${w.from})` : refusal.message,
    });
  }
  (sent.monitorIds ?? []).forEach((id, i) => {
    if (!ctx.store.owned("monitor", ctx.account!.id, id)) {
      entries.push({
        pointer: `/monitorIds/${i}`,
        value: id,
        reason: "unknown_monitor",
        message: "no such monitor",
      });
    }
  });
  if (entries.length > 0) throw invalid(entries);
}

/** `POST /maintenance`: defaults filled, monitors as a set. */
export function createWindow(ctx: Ctx, body: MaintenanceCreate): MaintenanceDoc {
  const fields = { ...defaults, ...body, monitorIds: [...new Set(body.monitorIds ?? defaults.monitorIds)] };
  assertWindow(ctx, fields, body);
  const draft = {
    id: newGuid(),
    accountId: ctx.account!.id,
    ...fields,
    endedThrough: null,
    created: ctx.now,
    updated: ctx.now,
    syncSeq: 0,
  };
  // Occurrences already over when the window is created were never live: they end silently.
  return ctx.store.put<MaintenanceDoc>(maintenanceCollection, {
    ...draft,
    endedThrough: lastEndedBy(draft, ctx.now),
    syncSeq: nextSyncSeq(ctx),
  });
}

/** `PATCH /maintenance/{id}`: a window cut short ends now (`maintenance.ended`, `endedEarly`). */
export function updateWindow(ctx: Ctx, doc: MaintenanceDoc, body: MaintenanceBody): MaintenanceDoc {
  // Ends already due under the old timing are sent first, so none is lost to the edit.
  const current = settleEnds(ctx, doc);
  const next: MaintenanceDoc = {
    ...current,
    ...body,
    monitorIds: body.monitorIds ? [...new Set(body.monitorIds)] : current.monitorIds,
  };
  assertWindow(ctx, next, body);
  if (JSON.stringify(next) === JSON.stringify(current)) return current;
  endEarlyIfCut(ctx, current, next);
  return ctx.store.put<MaintenanceDoc>(maintenanceCollection, {
    ...next,
    // Occurrences the new timing puts in the past were never live under it: they end silently.
    endedThrough: lastEndedBy(next, ctx.now),
    updated: ctx.now,
    syncSeq: nextSyncSeq(ctx),
  });
}

/** Deletes a window; an active one ends early, and its monitors alert again at once. */
export function deleteWindow(ctx: Ctx, doc: MaintenanceDoc) {
  const w = settleEnds(ctx, doc);
  const state = windowState(w, ctx.now);
  const endedEarly = endEarlyIfCut(ctx, w, undefined);
  ctx.store.remove(maintenanceCollection, w.id);
  return { id: w.id, deleted: true, name: w.name, state, endedEarly, cascaded: {} };
}
