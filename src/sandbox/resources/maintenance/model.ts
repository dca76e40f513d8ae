import { occurrenceAt, week, windowState } from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import type { Doc } from "../../core/store.ts";
import { nextSyncSeq } from "../accounts.ts";
import type { MonitorDoc } from "../monitors/model.ts";

/** A stored maintenance window. Its occurrences and state follow the kind's schedule rules (`occurrenceAt`). */
export interface MaintenanceDoc extends Doc {
  name: string;
  from: number;
  to: number;
  monitorIds: string[];
  /** `weekly` recurs every 7 days from `from`. */
  repeat: "none" | "weekly";
  suppressAlerts: boolean;
  excludeFromStats: boolean;
  showOnStatusPage: boolean;
  /** End of the last occurrence whose `maintenance.ended` was emitted; null before the first. */
  endedThrough: number | null;
  created: number;
  updated: number;
  syncSeq: number;
}

export const maintenanceCollection = "maintenance";

/** The end of the latest occurrence that ended by `now`; null when none has. */
export function lastEndedBy(w: MaintenanceDoc, now: number): number | null {
  if (now < w.to) return null;
  if (w.repeat === "none") return w.to;
  return w.to + Math.floor((now - w.to) / week) * week;
}

/** Occurrences that ended after `after` (null: from the first) and by `now`, oldest first. */
export function occurrencesEndedBetween(
  w: MaintenanceDoc,
  after: number | null,
  now: number,
): { from: number; to: number }[] {
  const last = lastEndedBy(w, now);
  if (last === null) return [];
  if (w.repeat === "none") return after !== null && after >= w.to ? [] : [{ from: w.from, to: w.to }];
  const first = after === null || after < w.to ? 0 : Math.floor((after - w.to) / week) + 1;
  const out: { from: number; to: number }[] = [];
  for (let k = first; w.to + k * week <= last; k++)
    out.push({ from: w.from + k * week, to: w.to + k * week });
  return out;
}

/** Whether some occurrence of the window overlaps [rangeFrom, rangeTo) (either end open when absent). */
export function overlapsRange(w: MaintenanceDoc, rangeFrom: number | undefined, rangeTo: number | undefined) {
  const after = rangeFrom ?? Number.NEGATIVE_INFINITY;
  const before = rangeTo ?? Number.POSITIVE_INFINITY;
  // The first occurrence still running after `after`: the only one that can start soonest.
  const k = w.repeat === "none" || after < w.to ? 0 : Math.floor((after - w.to) / week) + 1;
  if (w.repeat === "none" && w.to <= after) return false;
  return w.from + k * week < before;
}

/** Windows of the account active at `now`. */
export function activeWindows(ctx: Pick<Ctx, "store">, accountId: string, now: number): MaintenanceDoc[] {
  return ctx.store
    .all<MaintenanceDoc>(maintenanceCollection, accountId)
    .filter((w) => windowState(w, now) === "active");
}

/** Monitors of the account whose alerts are held back at `now`: inside an active window that suppresses them. */
export function alertsHeldBackIn(ctx: Pick<Ctx, "store">, accountId: string, now: number): Set<string> {
  return new Set(
    activeWindows(ctx, accountId, now)
      .filter((w) => w.suppressAlerts)
      .flatMap((w) => w.monitorIds),
  );
}

/** Active windows covering one monitor. */
export function activeWindowsFor(ctx: Ctx, monitor: MonitorDoc, now = ctx.now): MaintenanceDoc[] {
  return activeWindows(ctx, monitor.accountId, now).filter((w) => w.monitorIds.includes(monitor.id));
}

/** Whether a monitor's alerts are held back now: it is inside an active window that suppresses alerts. */
export function alertsHeldBack(ctx: Ctx, monitor: MonitorDoc, now = ctx.now): boolean {
  return alertsHeldBackIn(ctx, monitor.accountId, now).has(monitor.id);
}

/** Monitors inside an active window, computed once per request (a list renders many rows). */
const coverageByRequest = new WeakMap<Ctx, Set<string>>();

function coverage(ctx: Ctx, accountId: string): Set<string> {
  let covered = coverageByRequest.get(ctx);
  if (!covered) {
    covered = new Set(activeWindows(ctx, accountId, ctx.now).flatMap((w) => w.monitorIds));
    coverageByRequest.set(ctx, covered);
  }
  return covered;
}

/** A monitor's state as read: an enabled monitor inside an active window reads `maintenance`. */
export function monitorState(ctx: Ctx, m: MonitorDoc): MonitorDoc["state"] {
  if (!m.enabled) return m.state;
  return coverage(ctx, m.accountId).has(m.id) ? "maintenance" : m.state;
}

/** The `maintenance` expand block of a monitor: windows covering it that are active or still to come. */
export function maintenanceBlock(ctx: Ctx, m: MonitorDoc): Record<string, unknown>[] {
  return ctx.store
    .all<MaintenanceDoc>(maintenanceCollection, m.accountId)
    .filter((w) => w.monitorIds.includes(m.id) && windowState(w, ctx.now) !== "finished")
    .map((w) => {
      const { from, to } = occurrenceAt(w, ctx.now);
      return {
        id: w.id,
        name: w.name,
        from,
        to,
        state: windowState(w, ctx.now),
        suppressAlerts: w.suppressAlerts,
      };
    })
    .sort((a, b) => a.from - b.from);
}

/** Removes a deleted monitor from every window covering it; answers the ids of the windows changed. */
export function detachMonitorFromWindows(ctx: Ctx, monitorId: string): string[] {
  return ctx.store
    .all<MaintenanceDoc>(maintenanceCollection, ctx.account!.id)
    .filter((w) => w.monitorIds.includes(monitorId))
    .map((w) => {
      ctx.store.put<MaintenanceDoc>(maintenanceCollection, {
        ...w,
        monitorIds: w.monitorIds.filter((id) => id !== monitorId),
        updated: ctx.now,
        syncSeq: nextSyncSeq(ctx),
      });
      return w.id;
    });
}
