import { z } from "zod";
import { windowRefusals } from "./account-rules.ts";
import { createdAt, monitorRef, readOnlyId, unixTime, updatedAt } from "./common.ts";
import { field, set } from "./field.ts";
import { defineKind } from "./kind.ts";

export const maintenanceSchema = z
  .strictObject({
    id: readOnlyId,
    name: field(z.string().min(1).max(255), {}),
    from: field(unixTime, { description: "Start, Unix seconds." }),
    to: field(unixTime, { description: "End, Unix seconds; after from." }),
    monitorIds: field(set(monitorRef).max(500), {
      default: [],
      description: "Covered monitors of the account (up to 500); a new list replaces coverage.",
    }),
    repeat: field(z.enum(["none", "weekly"]), {
      default: "none",
      description: "weekly recurs every 7 days from `from` (an occurrence may last at most 7 days).",
    }),
    suppressAlerts: field(z.boolean(), { default: true, description: "Hold back alerts while active." }),
    excludeFromStats: field(z.boolean(), { default: true, description: "Keep the time out of statistics." }),
    showOnStatusPage: field(z.boolean(), { default: false }),
    state: field(z.enum(["scheduled", "active", "finished"]), {
      readOnly: true,
      description: "By the clock: before, inside or after the occurrence shown in `occurrence`.",
    }),
    occurrence: field(z.object({ from: unixTime, to: unixTime }), {
      readOnly: true,
      description: "The occurrence active now, else the next one; the last one once finished.",
    }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export const maintenanceKind = defineKind({
  name: "maintenance",
  title: "Maintenance window",
  schema: maintenanceSchema,
  naturalKey: ["name"],
  rules: { offline: [windowRefusals] },
  required: ["name", "from", "to"],
  paths: { collection: "/maintenance", item: "/maintenance/{id}" },
  list: {
    sort: ["from", "created"],
    defaultSort: "from",
    filters: ["state", "monitor"],
    deltaSync: "every edit",
  },
});

/** A window's schedule: what its occurrences and their state follow from. */
export interface WindowSchedule {
  from: number;
  to: number;
  /** `weekly` recurs every 7 days from `from`. */
  repeat: "none" | "weekly";
}

export const week = 7 * 86400;

/** The occurrence of a window that is active at `now`, or else the next one; the last one once it has finished. */
export function occurrenceAt(w: WindowSchedule, now: number): { from: number; to: number } {
  if (w.repeat === "none" || now < w.to) return { from: w.from, to: w.to };
  // Weekly: the latest occurrence that started by now (it may still be running), else the next.
  const n = Math.floor((now - w.from) / week);
  const current = { from: w.from + n * week, to: w.to + n * week };
  return now < current.to ? current : { from: current.from + week, to: current.to + week };
}

export function windowState(w: WindowSchedule, now: number): "scheduled" | "active" | "finished" {
  const { from, to } = occurrenceAt(w, now);
  if (now < from) return "scheduled";
  if (now < to) return "active";
  return "finished";
}

/**
 * The first moment at or after `at` when none of `windows` is active: when alerts held back by suppressing
 * windows go out ("alert again at once" when a window ends). Infinity when the windows never all end (weekly
 * occurrences that join into one another for good).
 */
export function releasedAt(windows: readonly WindowSchedule[], at: number): number {
  let t = at;
  // Past the last one-off window, weekly ones repeat their pattern: two weeks of holding is holding for good.
  const horizon = Math.max(at, ...windows.map((w) => (w.repeat === "none" ? w.to : w.from))) + 2 * week;
  for (let active = activeAt(windows, t); active; active = activeAt(windows, t)) {
    t = occurrenceAt(active, t).to;
    if (t > horizon) return Number.POSITIVE_INFINITY;
  }
  return t;
}

const activeAt = (windows: readonly WindowSchedule[], now: number) =>
  windows.find((w) => windowState(w, now) === "active");
