import { z } from "zod";
import { maintenanceKind, maintenanceSchema, pageOf, windowState } from "../../../kinds/index.ts";
import { crudOperations, rowFieldsOf } from "../../core/crud.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations, type Operation, type OpRequest } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import type { QueryParam } from "../../core/query.ts";
import { ownedMonitor } from "../monitors/model.ts";
import { type MaintenanceDoc, maintenanceCollection, overlapsRange } from "./model.ts";
import {
  createWindow,
  deleteWindow,
  type MaintenanceBody,
  type MaintenanceCreate,
  renderMaintenance,
  requireWindow,
  updateWindow,
} from "./writes.ts";

/** What `DELETE /maintenance/{id}` answers. */
const maintenanceDeleteReceipt = z.looseObject({
  id: z.string(),
  deleted: z.literal(true),
  name: z.string(),
  state: z.enum(["scheduled", "active", "finished"]),
  endedEarly: z
    .boolean()
    .meta({ description: "true when the window was active: maintenance.ended was sent." }),
  cascaded: z.record(z.string(), z.array(z.string())),
});

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
  fields: rowFieldsOf(maintenanceKind),
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
  ...crudOperations<MaintenanceDoc, MaintenanceCreate, MaintenanceBody>({
    kind: maintenanceKind,
    id: "maintenance",
    scopes: { read: "monitor:read", write: "monitor:write" },
    noun: "The window",
    load: requireWindow,
    render: renderMaintenance,
    get: { summary: "Read a maintenance window; `state` follows the sandbox clock." },
    create: {
      summary: "Create a maintenance window (one-off, or weekly from `from`). Not limited by plan.",
      write: createWindow,
    },
    update: {
      summary:
        "Change sent members; a new monitorIds replaces coverage. Ending an active window now (to in the past, or moved away) sends maintenance.ended with endedEarly true.",
      write: updateWindow,
    },
    delete: {
      summary:
        "Delete a maintenance window; its monitors alert again at once. Deleting an active window sends maintenance.ended with endedEarly true.",
      write: deleteWindow,
      receipt: { description: "The delete receipt.", schema: maintenanceDeleteReceipt },
    },
  }),
);
