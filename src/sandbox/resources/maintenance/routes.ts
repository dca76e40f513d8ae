import { z } from "zod";
import {
  bodySchema,
  defaultsOf,
  maintenanceKind,
  maintenanceSchema,
  type ProblemDetailEntry,
  pageOf,
  windowRefusals,
} from "../../../kinds/index.ts";
import { newGuid } from "../../core/ids.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations, type Operation, type OpRequest } from "../../core/operation.ts";
import { ApiProblem, invalid, notFound } from "../../core/problem.ts";
import type { QueryParam } from "../../core/query.ts";
import { nextSyncSeq } from "../accounts.ts";
import { ownedMonitor } from "../monitors/model.ts";
import { endEarlyIfCut, settleEnds } from "./events.ts";
import {
  lastEndedBy,
  type MaintenanceDoc,
  maintenanceCollection,
  occurrenceAt,
  overlapsRange,
  week,
  windowState,
} from "./model.ts";

const createBody = bodySchema(maintenanceSchema, "create").required({ name: true, from: true, to: true });
const updateBody = bodySchema(maintenanceSchema, "update");
type MaintenanceBody = Partial<
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

/** Server defaults of a create, as the kind declares them. */
const defaults = defaultsOf(maintenanceSchema) as Pick<
  MaintenanceDoc,
  "monitorIds" | "repeat" | "suppressAlerts" | "excludeFromStats" | "showOnStatusPage"
>;

/** What `DELETE /maintenance/{id}` answers. */
export const maintenanceDeleteReceipt = z.looseObject({
  id: z.string(),
  deleted: z.literal(true),
  name: z.string(),
  state: z.enum(["scheduled", "active", "finished"]),
  endedEarly: z
    .boolean()
    .meta({ description: "true when the window was active: maintenance.ended was sent." }),
  cascaded: z.record(z.string(), z.array(z.string())),
});

const rowFields = [
  "name",
  "from",
  "to",
  "monitorIds",
  "repeat",
  "suppressAlerts",
  "excludeFromStats",
  "showOnStatusPage",
  "state",
  "occurrence",
  "created",
  "updated",
];

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

function requireWindow(ctx: Ctx, id: string): MaintenanceDoc {
  const w = ctx.store.owned<MaintenanceDoc>(maintenanceCollection, ctx.account!.id, id);
  if (!w) throw notFound("maintenance window", id);
  return w;
}

/** Checks what the body schema cannot: the window's shape and that every monitor is the account's. */
function assertWindow(
  ctx: Ctx,
  w: Pick<MaintenanceDoc, "from" | "to" | "repeat" | "monitorIds">,
  sent: MaintenanceBody,
) {
  const entries: ProblemDetailEntry[] = [];
  // The window's shape is the maintenance kind's own rule, as plans judge it.
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

/** `from`/`to` keep windows with an occurrence overlapping the range; either end may be left open. */
const rangeParams: Record<string, QueryParam> = {
  from: { type: "time", description: "Keep windows with an occurrence ending after this time." },
  to: { type: "time", description: "Keep windows with an occurrence starting before this time." },
};

function inRange(req: OpRequest, rows: MaintenanceDoc[]): MaintenanceDoc[] {
  const from = req.query.from as number | undefined;
  const to = req.query.to as number | undefined;
  if (from !== undefined && to !== undefined && from > to) {
    throw new ApiProblem("invalid_range", "from is after to.", {
      errors: [{ pointer: "/from", parameter: "from", value: from, reason: "after_to" }],
    });
  }
  return from === undefined && to === undefined ? rows : rows.filter((w) => overlapsRange(w, from, to));
}

/** Adds the open-ended `from`/`to` range (the spec lists them as filters) and the page schema to a window list. */
function withRange(ops: Operation[], summary: string): Operation[] {
  return ops.map((op) => ({
    ...op,
    query: { ...op.query, ...rangeParams },
    errors: [...op.errors, "invalid_range"],
    response: { status: 200, description: summary, schema: pageOf(maintenanceSchema) },
  }));
}

const listShape = {
  rowId: (w: MaintenanceDoc) => w.id,
  filters: {
    state: {
      param: { type: "enum", values: ["scheduled", "active", "finished"], list: true },
      match: (w: MaintenanceDoc, states: string[], ctx: Ctx) => states.includes(windowState(w, ctx.now)),
    },
    monitor: {
      param: { type: "string", list: true, description: "Monitor ids; windows covering any of them." },
      match: (w: MaintenanceDoc, ids: string[]) => w.monitorIds.some((id) => ids.includes(id)),
    },
  },
  sort: {
    default: "from",
    columns: {
      from: { key: (w: MaintenanceDoc) => w.from, time: true },
      created: { key: (w: MaintenanceDoc) => w.created, time: true },
    },
  },
  fields: rowFields,
  render: (ctx: Ctx, w: MaintenanceDoc) => renderMaintenance(ctx, w),
} as const;

export const maintenanceOperations = defineOperations(
  ...withRange(
    listOperations<MaintenanceDoc>({
      id: "maintenance.list",
      path: "/maintenance",
      kind: maintenanceKind,
      summary: "List maintenance windows, with delta sync through syncCursor (every edit).",
      scope: "monitor:read",
      rows: (ctx, req) => inRange(req, ctx.store.all<MaintenanceDoc>(maintenanceCollection, ctx.account!.id)),
      syncSeq: (w) => w.syncSeq,
      ...listShape,
    }),
    "One page of maintenance windows.",
  ),
  ...withRange(
    listOperations<MaintenanceDoc>({
      id: "monitor.maintenance.list",
      path: "/monitor/{id}/maintenance",
      summary: "The maintenance windows covering one monitor.",
      scope: "monitor:read",
      rows: (ctx, req) => {
        const monitor = ownedMonitor(ctx, req.params.id!);
        return inRange(
          req,
          ctx.store
            .all<MaintenanceDoc>(maintenanceCollection, ctx.account!.id)
            .filter((w) => w.monitorIds.includes(monitor.id)),
        );
      },
      errors: ["not_found"],
      ...listShape,
    }),
    "One page of the windows covering the monitor.",
  ),
  {
    id: "maintenance.create",
    method: "POST",
    path: "/maintenance",
    summary: "Create a maintenance window (one-off, or weekly from `from`). Not limited by plan.",
    scope: "monitor:write",
    body: createBody,
    errors: ["validation_failed"],
    response: { status: 201, description: "The window.", schema: maintenanceSchema },
    handle: (ctx, req) => {
      const body = req.body as MaintenanceBody & Pick<MaintenanceDoc, "name" | "from" | "to">;
      const fields = {
        ...defaults,
        ...body,
        monitorIds: [...new Set(body.monitorIds ?? defaults.monitorIds)],
      };
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
      const w = ctx.store.put<MaintenanceDoc>(maintenanceCollection, {
        ...draft,
        endedThrough: lastEndedBy(draft, ctx.now),
        syncSeq: nextSyncSeq(ctx),
      });
      return { status: 201, headers: { Location: `/maintenance/${w.id}` }, body: renderMaintenance(ctx, w) };
    },
  },
  {
    id: "maintenance.get",
    method: "GET",
    path: "/maintenance/{id}",
    summary: "Read a maintenance window; `state` follows the sandbox clock.",
    scope: "monitor:read",
    errors: ["not_found"],
    response: { status: 200, description: "The window.", schema: maintenanceSchema },
    handle: (ctx, req) => ({ status: 200, body: renderMaintenance(ctx, requireWindow(ctx, req.params.id!)) }),
  },
  {
    id: "maintenance.update",
    method: "PATCH",
    path: "/maintenance/{id}",
    summary:
      "Change sent members; a new monitorIds replaces coverage. Ending an active window now (to in the past, or moved away) sends maintenance.ended with endedEarly true.",
    scope: "monitor:write",
    body: updateBody,
    errors: ["not_found", "validation_failed"],
    response: { status: 200, description: "The window.", schema: maintenanceSchema },
    handle: (ctx, req) => {
      const body = req.body as MaintenanceBody;
      // Ends already due under the old timing are sent first, so none is lost to the edit.
      const current = settleEnds(ctx, requireWindow(ctx, req.params.id!));
      const next: MaintenanceDoc = {
        ...current,
        ...body,
        monitorIds: body.monitorIds ? [...new Set(body.monitorIds)] : current.monitorIds,
      };
      assertWindow(ctx, next, body);
      if (JSON.stringify(next) === JSON.stringify(current)) {
        return { status: 200, body: renderMaintenance(ctx, current) };
      }
      endEarlyIfCut(ctx, current, next);
      const saved = ctx.store.put<MaintenanceDoc>(maintenanceCollection, {
        ...next,
        // Occurrences the new timing puts in the past were never live under it: they end silently.
        endedThrough: lastEndedBy(next, ctx.now),
        updated: ctx.now,
        syncSeq: nextSyncSeq(ctx),
      });
      return { status: 200, body: renderMaintenance(ctx, saved) };
    },
  },
  {
    id: "maintenance.delete",
    method: "DELETE",
    path: "/maintenance/{id}",
    summary:
      "Delete a maintenance window; its monitors alert again at once. Deleting an active window sends maintenance.ended with endedEarly true.",
    scope: "monitor:write",
    errors: ["not_found"],
    response: { status: 200, description: "The delete receipt.", schema: maintenanceDeleteReceipt },
    handle: (ctx, req) => {
      const w = settleEnds(ctx, requireWindow(ctx, req.params.id!));
      const state = windowState(w, ctx.now);
      const endedEarly = endEarlyIfCut(ctx, w, undefined);
      ctx.store.remove(maintenanceCollection, w.id);
      return {
        status: 200,
        body: { id: w.id, deleted: true, name: w.name, state, endedEarly, cascaded: {} },
      };
    },
  },
);
