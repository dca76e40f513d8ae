import { occurrencesOverlapping } from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { type MaintenanceDoc, maintenanceTable, windowZone } from "../maintenance/model.ts";
import type { MonitorDoc } from "../monitors/model.ts";
import {
  type CheckResultDoc,
  type IncidentDoc,
  incidentTable,
  resultTable,
  rowsOf,
  type StateSpanDoc,
  spanTable,
} from "./history.ts";

type Interval = [number, number];

/**
 * Occurrences of the monitor's `excludeFromStats` windows inside `[from, to)`:
 * that time counts as maintenance in uptime figures.
 */
export function statsExclusions(ctx: Ctx, m: MonitorDoc, from: number, to: number): Interval[] {
  const out: Interval[] = [];
  const zone = windowZone(ctx.store, m.accountId);
  for (const w of ctx.store.all<MaintenanceDoc>(maintenanceTable, m.accountId)) {
    if (!w.excludeFromStats || !w.monitorIds.includes(m.id)) continue;
    for (const o of occurrencesOverlapping(w, from, to, zone))
      out.push([Math.max(from, o.from), Math.min(to, o.to)]);
  }
  // Merged, so overlapping windows do not count the same second twice.
  out.sort((x, y) => x[0] - y[0]);
  const merged: Interval[] = [];
  for (const [a, b] of out) {
    const tail = merged.at(-1);
    if (tail && a <= tail[1]) tail[1] = Math.max(tail[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

const overlap = (a: number, b: number, intervals: Interval[]) =>
  intervals.reduce((sum, [x, y]) => sum + Math.max(0, Math.min(b, y) - Math.max(a, x)), 0);
const inside = (t: number, intervals: Interval[]) => intervals.some(([x, y]) => t >= x && t < y);

/** Whether a row lasting `[start, end]` (end null: still going) overlaps the window. */
export const overlapsWindow = (start: number, end: number | null, from: number, to: number) =>
  start <= to && (end === null || end >= from);

export interface Measured {
  from: number;
  to: number;
  upSec: number;
  downSec: number;
  totalSec: number;
  maintenance: { upSec: number; downSec: number };
  checks: { total: number; up: number; down: number; maintenanceUp: number; maintenanceDown: number };
  downSpans: number;
  uptimePercent: number | null;
  slaTarget: number | null;
  slaMet: boolean | null;
  errorBudgetSecRemaining: number | null;
  incidents: { opened: number; restored: number };
}

/**
 * Uptime of one monitor over `[from, to)`, from its spans and results. Only
 * measured time counts: history starts with the first outcome. `uptimePercent`
 * is upSec / (totalSec - maintenance.downSec) * 100, null when nothing was measured.
 */
export function measure(
  ctx: Ctx,
  m: MonitorDoc,
  from: number,
  to: number,
  sla = m.slaTarget ?? null,
): Measured {
  const end = Math.min(to, ctx.now);
  const excluded = statsExclusions(ctx, m, from, end);
  const time = { up: 0, down: 0, maintUp: 0, maintDown: 0 };
  let downSpans = 0;
  for (const s of rowsOf<StateSpanDoc>(ctx, spanTable, m.id)) {
    const a = Math.max(from, s.from);
    const b = Math.min(end, s.to ?? ctx.now);
    if (a >= b && !(s.state === "down" && overlapsWindow(s.from, s.to, from, end))) continue;
    const length = Math.max(0, b - a);
    const maint = overlap(a, b, excluded);
    if (s.state === "up") {
      time.up += length;
      time.maintUp += maint;
    } else {
      time.down += length;
      time.maintDown += maint;
      downSpans++;
    }
  }
  // Windows are half-open, except that a window reaching now includes what happened now.
  const within = (t: number) => t >= from && (t < end || (t === end && end >= ctx.now));
  const checks = { total: 0, up: 0, down: 0, maintenanceUp: 0, maintenanceDown: 0 };
  for (const r of rowsOf<CheckResultDoc>(ctx, resultTable, m.id)) {
    if (!within(r.time)) continue;
    checks.total += r.checkCount;
    checks[r.state] += r.checkCount;
    if (inside(r.time, excluded))
      checks[r.state === "up" ? "maintenanceUp" : "maintenanceDown"] += r.checkCount;
  }
  const incidents = { opened: 0, restored: 0 };
  for (const i of rowsOf<IncidentDoc>(ctx, incidentTable, m.id)) {
    if (within(i.start)) incidents.opened++;
    if (i.state === "resolved" && within(i.end)) incidents.restored++;
  }
  const totalSec = time.up + time.down;
  const measured = totalSec - time.maintDown;
  const uptimePercent = measured > 0 ? (time.up / measured) * 100 : null;
  const allowedDown = sla !== null && measured > 0 ? (1 - sla / 100) * measured : null;
  return {
    from,
    to,
    upSec: time.up,
    downSec: time.down,
    totalSec,
    maintenance: { upSec: time.maintUp, downSec: time.maintDown },
    checks,
    downSpans,
    uptimePercent,
    slaTarget: sla,
    slaMet: sla !== null && uptimePercent !== null ? uptimePercent >= sla : null,
    errorBudgetSecRemaining:
      allowedDown === null ? null : Math.round(allowedDown - (time.down - time.maintDown)),
    incidents,
  };
}
