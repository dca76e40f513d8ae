import { monitorDeleteReceipt } from "../../../kinds/events.ts";
import { type MonitorBody, monitorKind, monitorSchema } from "../../../kinds/index.ts";
import { crudOperations, rowFieldsOf } from "../../core/crud.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { monitorState } from "../maintenance/model.ts";
import { monitorListFilters } from "./filters.ts";
import { type MonitorDoc, monitorCollection, monitorName, ownedMonitor } from "./model.ts";
import { monitorExpandTokens, renderMonitor } from "./render.ts";
import { monitorBody } from "./validate.ts";
import { createMonitor, deleteMonitor, monitorBodyErrors, updateMonitor } from "./writes.ts";

/** A monitor reads back its members, `overlimited`, and the blocks `expand` adds. */
const rowFields = rowFieldsOf(monitorKind, monitorExpandTokens);
const ninetyDays = 90 * 86400;
function render(ctx: Ctx, m: MonitorDoc, warnings: unknown[] = []) {
  const body = renderMonitor(ctx, m, new Set(["settings"]));
  return warnings.length > 0 ? { ...body, warnings } : body;
}

export const monitorOperations = defineOperations(
  ...listOperations<MonitorDoc>({
    id: "monitor.list",
    path: "/monitor",
    kind: monitorKind,
    summary: "List monitors, with delta sync through syncCursor.",
    scope: "monitor:read",
    rows: (ctx) => ctx.store.all<MonitorDoc>(monitorCollection, ctx.account!.id),
    rowId: (m) => m.id,
    filters: monitorListFilters,
    sort: {
      default: "created",
      columns: {
        name: { key: (m) => monitorName(m).toLowerCase() },
        state: { key: (m, ctx) => monitorState(ctx, m) },
        type: { key: (m) => m.type },
        interval: { key: (m) => m.interval },
        // The last state change is the start of the current state.
        lastChange: { key: (m) => m.since, time: true },
        url: { key: (m) => m.url },
        created: { key: (m) => m.created, time: true },
        tags: { key: (m) => [...m.tags].sort()[0] ?? null },
      },
    },
    expand: [...monitorExpandTokens, "count"],
    fields: rowFields,
    syncSeq: (m) => m.syncSeq,
    window: { maxSpan: ninetyDays, defaultSpan: 30 * 86400 },
    render: (ctx, m, expand) => renderMonitor(ctx, m, expand),
  }),
  {
    id: "monitor.create",
    method: "POST",
    path: "/monitor",
    summary: "Create a monitor; dryRun=true validates only.",
    scope: "monitor:write",
    // Inline contacts reach into the contact domain: both write scopes, and a key so a retry binds, not duplicates.
    extraScopes: (body) => ((body as MonitorBody).contacts?.length ? ["contact:write"] : []),
    idempotency: (req) => ((req.body as MonitorBody | undefined)?.contacts?.length ?? 0) > 0,
    query: { dryRun: { type: "bool", description: "Validate only; nothing is created." } },
    body: monitorBody("create"),
    errors: [
      ...monitorBodyErrors,
      "monitor_type_discontinued",
      "unknown_contact_ref",
      "too_many_items",
      "unsupported_report_channel",
      "contact_type_not_creatable",
      "invalid_alert_delay",
      "idempotency_key_required",
    ],
    response: { status: 201, description: "The monitor, with its settings.", schema: monitorSchema },
    handle: (ctx, req) => {
      const body = req.body as MonitorBody;
      if (req.query.dryRun === true) {
        const preview = ctx.store.dryRun(() => {
          const { monitor, warnings } = createMonitor(ctx, body);
          const { id: _id, ...rest } = render(ctx, monitor, warnings);
          return rest;
        });
        ctx.account = ctx.store.get("account", ctx.account!.id);
        return { status: 200, body: { dryRun: true, valid: true, monitor: preview } };
      }
      const { monitor, warnings } = createMonitor(ctx, body);
      return {
        status: 201,
        body: render(ctx, monitor, warnings),
        headers: { Location: `/monitor/${monitor.id}` },
      };
    },
  },
  ...crudOperations<MonitorDoc, never, MonitorBody>({
    kind: monitorKind,
    id: "monitor",
    scopes: { read: "monitor:read", write: "monitor:write" },
    load: ownedMonitor,
    render: (ctx, monitor) => render(ctx, monitor),
    get: {
      summary: "Read a monitor (its settings by default).",
      expand: { tokens: monitorExpandTokens, defaults: ["settings"], render: renderMonitor },
      fields: rowFields,
    },
    update: {
      summary: "Change sent members; settings merge, arrays are replaced whole, null clears.",
      description: "The monitor, with its settings.",
      // The monitor's body checks settings by type (`monitorBody`); only an update meets a stored interval
      // that a plan change left outside the plan.
      body: () => monitorBody("update"),
      errors: ["type_immutable", "package_interval_conflict", ...monitorBodyErrors],
      write: (ctx, current, body) => {
        const { monitor, warnings } = updateMonitor(ctx, current.id, body);
        return { doc: monitor, answer: render(ctx, monitor, warnings) };
      },
    },
    delete: {
      summary: "Delete a monitor permanently; the receipt names cascaded subscriptions.",
      write: deleteMonitor,
      receipt: { description: "The delete receipt.", schema: monitorDeleteReceipt },
    },
  }),
);
