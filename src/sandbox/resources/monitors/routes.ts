import {
  type MonitorBody,
  type MonitorType,
  monitorDeleteReceipt,
  monitorKind,
  monitorSchema,
  monitorStates,
  monitorTypeAliases,
  monitorTypeNames,
  type ProblemCodeName,
} from "../../../kinds/index.ts";
import { newGuid } from "../../core/ids.ts";
import { type Filter, listOperations, parseExpand, pickFields } from "../../core/list.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { own } from "../../core/own.ts";
import { ApiProblem } from "../../core/problem.ts";
import { accountOf, entitlements, nextSyncSeq } from "../accounts.ts";
import { forgetMonitorHistory } from "../checks/history.ts";
import { detachMonitorFromWindows, monitorState } from "../maintenance/model.ts";
import { detachMonitorFromPages } from "../status-pages/index.ts";
import { removeSubscriptionsOf } from "../subscriptions/model.ts";
import { emitEvent } from "../webhooks/events.ts";
import { applyInline, planInline } from "./inline.ts";
import {
  enabledMonitors,
  type MonitorDoc,
  monitorCollection,
  monitorName,
  ownedMonitor,
  sameMonitor,
} from "./model.ts";
import { monitorEventData, monitorExpandTokens, renderMonitor } from "./render.ts";
import { monitorBody, prepareMonitor, resolveType } from "./validate.ts";

/** What a monitor body can be refused for, on create and on update alike. */
export const monitorBodyErrors: ProblemCodeName[] = [
  "validation_failed",
  "invalid_url",
  "url_blacklisted",
  "duplicate_monitor",
  "invalid_interval",
  "interval_below_type_floor",
  "package_limit",
  "invalid_settings",
  "unknown_pool",
  "insufficient_agents",
  "credential_write_only",
];

const createBody = monitorBody("create");
const updateBody = monitorBody("update");

const rowFields = [
  "id",
  "type",
  "url",
  "effectiveUrl",
  "name",
  "interval",
  "cronSchedule",
  "enabled",
  "tags",
  "locations",
  "recheck",
  "openStat",
  "fullLog",
  "slaTarget",
  "state",
  "since",
  "created",
  "updated",
  "overlimited",
  "expirationDate",
  "certNotBefore",
  ...monitorExpandTokens,
];
const ninetyDays = 90 * 86400;
const singleQuery = {
  expand: { type: "string", list: true, description: `Blocks: ${monitorExpandTokens.join(", ")}.` },
  fields: { type: "string", list: true, description: "Top-level members to keep (id always)." },
} as const;

function render(ctx: Ctx, m: MonitorDoc, warnings: unknown[] = []) {
  const body = renderMonitor(ctx, m, new Set(["settings"]));
  return warnings.length > 0 ? { ...body, warnings } : body;
}

/** Whether the plan has room for one more enabled monitor; paused ones (over-limit or not) take none. */
function hasRoom(ctx: Ctx): boolean {
  return enabledMonitors(ctx, ctx.account!.id).length < entitlements(accountOf(ctx)).monitors;
}

const noRoom = (limit: number) =>
  new ApiProblem("package_limit", `The plan allows ${limit} monitors.`, {
    extra: { feature: "monitors", limit },
  });

/** Creates a monitor and emits `monitor.created`; with `dryRun` the same work runs and is undone. */
export function createMonitor(ctx: Ctx, body: MonitorBody) {
  const type = resolveType(body.type);
  const { fields, warnings } = prepareMonitor(ctx, type, body);
  const inline = planInline(ctx, body);
  const features = entitlements(accountOf(ctx));
  let overlimited = false;
  if (fields.enabled && !hasRoom(ctx)) {
    if (body.onOverlimit !== "disable") throw noRoom(features.monitors);
    overlimited = true;
  }
  if (type === "tran") {
    const flows = ctx.store
      .all<MonitorDoc>(monitorCollection, ctx.account!.id)
      .filter((m) => m.type === "tran").length;
    if (flows >= features.tranCount) {
      throw new ApiProblem("package_limit", `The plan allows ${features.tranCount} transaction monitors.`, {
        extra: { feature: "tranCount", limit: features.tranCount },
      });
    }
  }
  const enabled = fields.enabled && !overlimited;
  const monitor = ctx.store.put<MonitorDoc>(monitorCollection, {
    id: newGuid(),
    accountId: ctx.account!.id,
    ...fields,
    enabled,
    state: enabled ? "up" : "paused",
    since: ctx.now,
    overlimited,
    created: ctx.now,
    updated: ctx.now,
    // Delta sync catches creation (and plan-limit disabling, which this is when overlimited).
    syncSeq: nextSyncSeq(ctx),
  });
  applyInline(ctx, monitor.id, inline);
  emitEvent(ctx, { event: "monitor.created", data: monitorEventData(ctx, monitor), monitor, retried: false });
  return { monitor, warnings };
}

/** Applies a PATCH body; a change emits `monitor.updated`, an update that changes nothing emits nothing. */
export function updateMonitor(ctx: Ctx, id: string, body: MonitorBody) {
  const current = ownedMonitor(ctx, id);
  if (body.type !== undefined && (own(monitorTypeAliases, body.type) ?? body.type) !== current.type) {
    throw new ApiProblem("type_immutable", "A monitor's type cannot change; create a new monitor.", {
      errors: [{ pointer: "/type", value: body.type, allowed: [current.type] }],
    });
  }
  const { fields, warnings } = prepareMonitor(ctx, current.type, body, current);
  // A paused monitor (over-limit or paused by its owner) comes back only when the plan has room;
  // with onOverlimit "disable" the rest of the update applies and it stays disabled.
  let enabled = fields.enabled;
  if (enabled && !current.enabled && !hasRoom(ctx)) {
    if (body.onOverlimit !== "disable") throw noRoom(entitlements(accountOf(ctx)).monitors);
    enabled = false;
  }
  const pausedNow = current.enabled && !enabled;
  const resumedNow = !current.enabled && enabled;
  const next: MonitorDoc = {
    ...current,
    ...fields,
    enabled,
    state: pausedNow ? "paused" : resumedNow ? "up" : current.state,
    since: pausedNow || resumedNow ? ctx.now : current.since,
    overlimited: resumedNow ? false : current.overlimited,
  };
  // An update that changes nothing leaves the monitor, `updated` included, as it was.
  if (sameMonitor(next, current)) return { monitor: current, warnings };
  const monitor = ctx.store.put<MonitorDoc>(monitorCollection, { ...next, updated: ctx.now });
  emitEvent(ctx, { event: "monitor.updated", data: monitorEventData(ctx, monitor), monitor, retried: false });
  return { monitor, warnings };
}

/** Deletes a monitor with its subscriptions, emits `monitor.deleted`, and answers the receipt. */
export function deleteMonitor(ctx: Ctx, monitor: MonitorDoc) {
  const cascaded = removeSubscriptionsOf(ctx, { monitorId: monitor.id });
  forgetMonitorHistory(ctx, monitor.id);
  detachMonitorFromWindows(ctx, monitor.id);
  // Before the remove: a page's component keeps the monitor's last state as its manual one.
  detachMonitorFromPages(ctx, monitor.id);
  ctx.store.remove(monitorCollection, monitor.id);
  const receipt = {
    id: monitor.id,
    deleted: true,
    type: monitor.type,
    name: monitorName(monitor),
    ...(monitor.url !== null && { url: monitor.url }),
    cascaded,
  };
  emitEvent(ctx, { event: "monitor.deleted", data: receipt, monitor, retried: false });
  return receipt;
}

/** The filters of `GET /monitor` and `POST /monitor/q`; bulk deletes select with the same ones. */
export const monitorListFilters: Record<string, Filter<MonitorDoc>> = {
  q: {
    param: { type: "string", description: "Substring of the name or address, case-insensitive." },
    match: (m, q: string) => `${monitorName(m)}\n${m.url ?? ""}`.toLowerCase().includes(q.toLowerCase()),
  },
  type: {
    param: { type: "enum", values: monitorTypeNames, list: true },
    match: (m, types: MonitorType[]) => types.includes(m.type),
  },
  tag: {
    param: { type: "string", list: true },
    match: (m, tags: string[]) => m.tags.some((t) => tags.includes(t)),
  },
  state: {
    param: { type: "enum", values: monitorStates, list: true },
    match: (m, states: string[], ctx) => states.includes(monitorState(ctx, m)),
  },
  enabled: { param: { type: "bool" }, match: (m, enabled: boolean) => m.enabled === enabled },
  url: {
    param: { type: "string", list: true, description: "Exact address (as sent or as normalised)." },
    match: (m, urls: string[]) => urls.includes(m.url ?? "") || urls.includes(m.effectiveUrl ?? ""),
  },
};

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
    body: createBody,
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
  {
    id: "monitor.get",
    method: "GET",
    path: "/monitor/{id}",
    summary: "Read a monitor (its settings by default).",
    scope: "monitor:read",
    query: singleQuery,
    errors: ["not_found", "unknown_expand", "unknown_field"],
    response: { status: 200, description: "The monitor.", schema: monitorSchema },
    handle: (ctx, req) => {
      const monitor = ownedMonitor(ctx, req.params.id!);
      const expand = parseExpand(req, monitorExpandTokens, ["settings"]);
      return { status: 200, body: pickFields(req, renderMonitor(ctx, monitor, expand), rowFields) };
    },
  },
  {
    id: "monitor.update",
    method: "PATCH",
    path: "/monitor/{id}",
    summary: "Change sent members; settings merge, arrays are replaced whole, null clears.",
    scope: "monitor:write",
    body: updateBody,
    // Only an update meets a stored interval that a plan change left outside the plan.
    errors: ["not_found", "type_immutable", "package_interval_conflict", ...monitorBodyErrors],
    response: { status: 200, description: "The monitor, with its settings.", schema: monitorSchema },
    handle: (ctx, req) => {
      const { monitor, warnings } = updateMonitor(ctx, req.params.id!, req.body as MonitorBody);
      return { status: 200, body: render(ctx, monitor, warnings) };
    },
  },
  {
    id: "monitor.delete",
    method: "DELETE",
    path: "/monitor/{id}",
    summary: "Delete a monitor permanently; the receipt names cascaded subscriptions.",
    scope: "monitor:write",
    errors: ["not_found"],
    response: { status: 200, description: "The delete receipt.", schema: monitorDeleteReceipt },
    handle: (ctx, req) => ({ status: 200, body: deleteMonitor(ctx, ownedMonitor(ctx, req.params.id!)) }),
  },
);
