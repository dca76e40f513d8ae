import { type MonitorBody, monitorTypeAliases, type ProblemCodeName } from "../../../kinds/index.ts";
import { newGuid } from "../../core/ids.ts";
import type { Ctx } from "../../core/operation.ts";
import { own } from "../../core/own.ts";
import { ApiProblem } from "../../core/problem.ts";
import { accountOf, entitlements, nextSyncSeq } from "../accounts.ts";
import { forgetMonitorHistory } from "../checks/history.ts";
import { detachMonitorFromWindows } from "../maintenance/model.ts";
import { detachMonitorFromPages } from "../status-pages/model.ts";
import { removeSubscriptionsOf } from "../subscriptions/model.ts";
import { emitEvent } from "../webhooks/events.ts";
import { applyInline, planInline } from "./inline.ts";
import {
  enabledMonitors,
  type MonitorDoc,
  monitorName,
  monitorTable,
  ownedMonitor,
  sameMonitor,
} from "./model.ts";
import { monitorEventData } from "./render.ts";
import { prepareMonitor, resolveType } from "./validate.ts";

/** A monitor's writes (create, update, delete), shared by its routes and the bulk jobs. */

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
      .all<MonitorDoc>(monitorTable, ctx.account!.id)
      .filter((m) => m.type === "tran").length;
    if (flows >= features.tranCount) {
      throw new ApiProblem("package_limit", `The plan allows ${features.tranCount} transaction monitors.`, {
        extra: { feature: "tranCount", limit: features.tranCount },
      });
    }
  }
  const enabled = fields.enabled && !overlimited;
  const monitor = ctx.store.put<MonitorDoc>(monitorTable, {
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
  const monitor = ctx.store.put<MonitorDoc>(monitorTable, { ...next, updated: ctx.now });
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
  ctx.store.remove(monitorTable, monitor.id);
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
