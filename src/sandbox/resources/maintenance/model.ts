import type { z } from "zod";
import { knownZone, type maintenanceSchema, occurrenceAt, windowState } from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import type { Doc, Store } from "../../core/store.ts";
import type { KindMembers } from "../../core/stored.ts";
import { type AccountDoc, nextSyncSeq } from "../accounts.ts";
import type { MonitorDoc } from "../monitors/model.ts";

export type MaintenanceMembers = z.output<typeof maintenanceSchema>;

/**
 * A stored maintenance window: the kind's members (which ones a write keeps is the kind's: `storedValues`),
 * with those the sandbox reads itself typed as stored, and the service's own bookkeeping.
 */
export interface MaintenanceDoc extends Doc, KindMembers<MaintenanceMembers> {
  name: string;
  from: number;
  to: number;
  monitorIds: string[];
  /** `weekly` recurs every 7 days from `from`, at its wall-clock times in the account's zone (`windowZone`). */
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

export const maintenanceTable = "maintenance";

/**
 * The zone the account's weekly windows keep their wall-clock times in: its time zone, or UTC when Intl
 * does not know it (accounts take any name).
 */
export function windowZone(store: Store, accountId: string): string {
  const zone = store.get<AccountDoc>("account", accountId)?.timezone;
  return (zone && knownZone(zone)) ?? "UTC";
}

/** Windows of the account active at `now`. */
export function activeWindows(ctx: Pick<Ctx, "store">, accountId: string, now: number): MaintenanceDoc[] {
  const zone = windowZone(ctx.store, accountId);
  return ctx.store
    .all<MaintenanceDoc>(maintenanceTable, accountId)
    .filter((w) => windowState(w, now, zone) === "active");
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
  const zone = windowZone(ctx.store, m.accountId);
  return ctx.store
    .all<MaintenanceDoc>(maintenanceTable, m.accountId)
    .filter((w) => w.monitorIds.includes(m.id) && windowState(w, ctx.now, zone) !== "finished")
    .map((w) => {
      const { from, to } = occurrenceAt(w, ctx.now, zone);
      return {
        id: w.id,
        name: w.name,
        from,
        to,
        state: windowState(w, ctx.now, zone),
        suppressAlerts: w.suppressAlerts,
      };
    })
    .sort((a, b) => a.from - b.from);
}

/** Removes a deleted monitor from every window covering it; answers the ids of the windows changed. */
export function detachMonitorFromWindows(ctx: Ctx, monitorId: string): string[] {
  return ctx.store
    .all<MaintenanceDoc>(maintenanceTable, ctx.account!.id)
    .filter((w) => w.monitorIds.includes(monitorId))
    .map((w) => {
      ctx.store.put<MaintenanceDoc>(maintenanceTable, {
        ...w,
        monitorIds: w.monitorIds.filter((id) => id !== monitorId),
        updated: ctx.now,
        syncSeq: nextSyncSeq(ctx),
      });
      return w.id;
    });
}
