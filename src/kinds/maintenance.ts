import { z } from "zod";
import { windowRefusals } from "./account-rules.ts";
import { createdAt, monitorRef, readOnlyId, unixTime, updatedAt } from "./common.ts";
import { field, set } from "./field.ts";
import { defineKind } from "./kind.ts";
import { firstInstantAtOrAfter, wallTimeAt } from "./wall-clock.ts";

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
      description:
        "weekly recurs every 7 days from `from`, at the same wall-clock times in the account's time zone (an occurrence may last at most 7 days).",
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
  /** `weekly` recurs every 7 days from `from`, at the same wall-clock times in the account's time zone. */
  repeat: "none" | "weekly";
}

export const week = 7 * 86400;

/** An occurrence of a window: Unix seconds, `to` excluded. */
export interface Occurrence {
  from: number;
  to: number;
}

/**
 * The `k`th occurrence of a window (0: the one its `from` and `to` give). A weekly window keeps its
 * wall-clock start and end in `zone` (the account's time zone), so a daylight-saving change moves it by the
 * change in Unix seconds. Each end is the first instant the zone's clock shows that time or later: a time
 * the clocks skip becomes the moment they jump (a window wholly inside the skipped hour is empty that
 * week), and a time they show twice is its first showing (a window ending in the repeated hour ends the
 * first time the clock reaches its end).
 */
export function occurrence(w: WindowSchedule, k: number, zone: string): Occurrence {
  if (k === 0 || w.repeat === "none") return { from: w.from, to: w.to };
  const shift = (t: number) => firstInstantAtOrAfter(zone, wallTimeAt(zone, t) + k * week);
  return { from: shift(w.from), to: shift(w.to) };
}

/** The number of the latest occurrence that started by `now` (0 before the first). */
function latestStartedBy(w: WindowSchedule, now: number, zone: string): number {
  if (w.repeat === "none" || now < w.from) return 0;
  // Zone offsets differ by hours, never by a week: the estimate is off by one at most.
  let k = Math.floor((now - w.from) / week);
  while (k > 0 && occurrence(w, k, zone).from > now) k--;
  while (occurrence(w, k + 1, zone).from <= now) k++;
  return k;
}

/** The occurrence of a window that is active at `now`, or else the next one; the last one once it has finished. */
export function occurrenceAt(w: WindowSchedule, now: number, zone: string): Occurrence {
  if (w.repeat === "none" || now < w.to) return { from: w.from, to: w.to };
  const k = latestStartedBy(w, now, zone);
  const current = occurrence(w, k, zone);
  // A week's occurrence can be empty (wholly in a skipped hour) or end as the next starts: the next one.
  return now < current.to ? current : occurrence(w, k + 1, zone);
}

export function windowState(
  w: WindowSchedule,
  now: number,
  zone: string,
): "scheduled" | "active" | "finished" {
  const { from, to } = occurrenceAt(w, now, zone);
  if (now < from) return "scheduled";
  if (now < to) return "active";
  return "finished";
}

/** The occurrences that ended after `after` (null: from the first) and by `now`, oldest first. */
export function occurrencesEndedBetween(
  w: WindowSchedule,
  after: number | null,
  now: number,
  zone: string,
): Occurrence[] {
  if (now < w.to) return [];
  if (w.repeat === "none") return after !== null && after >= w.to ? [] : [{ from: w.from, to: w.to }];
  const out: Occurrence[] = [];
  for (let k = after === null ? 0 : firstEndingAfter(w, after, zone); ; k++) {
    const o = occurrence(w, k, zone);
    if (o.to > now) return out;
    if (after === null || o.to > after) out.push(o);
  }
}

/** The end of the latest occurrence that ended by `now`; null when none has. */
export function lastEndedBy(w: WindowSchedule, now: number, zone: string): number | null {
  if (now < w.to) return null;
  if (w.repeat === "none") return w.to;
  const k = latestStartedBy(w, now, zone);
  const current = occurrence(w, k, zone);
  return current.to <= now ? current.to : occurrence(w, k - 1, zone).to;
}

/** The number of the first occurrence that ends after `t`. */
function firstEndingAfter(w: WindowSchedule, t: number, zone: string): number {
  if (w.repeat === "none" || t < w.to) return 0;
  let k = Math.max(0, Math.floor((t - w.to) / week));
  while (k > 0 && occurrence(w, k - 1, zone).to > t) k--;
  while (occurrence(w, k, zone).to <= t) k++;
  return k;
}

/** The non-empty occurrences that overlap [from, to) (a finite range), oldest first. */
export function occurrencesOverlapping(
  w: WindowSchedule,
  from: number,
  to: number,
  zone: string,
): Occurrence[] {
  const out: Occurrence[] = [];
  for (let k = firstEndingAfter(w, from, zone); ; k++) {
    const o = occurrence(w, k, zone);
    if (o.from >= to) return out;
    if (o.from < o.to && o.to > from) out.push(o);
    if (w.repeat === "none") return out;
  }
}

/** Whether some occurrence overlaps [from, to) (either end may be infinite). */
export function overlapsRange(w: WindowSchedule, from: number, to: number, zone: string): boolean {
  for (let k = firstEndingAfter(w, from, zone); ; k++) {
    const o = occurrence(w, k, zone);
    if (o.from >= to) return false;
    if (o.from < o.to && o.to > from) return true;
    if (w.repeat === "none") return false;
  }
}

/** A window's schedule with the time zone its weekly occurrences keep their wall-clock times in. */
export interface ZonedSchedule extends WindowSchedule {
  timeZone: string;
}

/**
 * The first moment at or after `at` when none of `windows` is active: when alerts held back by suppressing
 * windows go out ("alert again at once" when a window ends). Infinity when the windows never all end (weekly
 * occurrences that join into one another for good).
 */
export function releasedAt(windows: readonly ZonedSchedule[], at: number): number {
  let t = at;
  // Past the last one-off window, weekly ones repeat their pattern: two weeks of holding is holding for good
  // (three, as a daylight-saving change can move a week's occurrences by hours).
  const horizon = Math.max(at, ...windows.map((w) => (w.repeat === "none" ? w.to : w.from))) + 3 * week;
  for (let active = activeAt(windows, t); active; active = activeAt(windows, t)) {
    t = occurrenceAt(active, t, active.timeZone).to;
    if (t > horizon) return Number.POSITIVE_INFINITY;
  }
  return t;
}

const activeAt = (windows: readonly ZonedSchedule[], now: number) =>
  windows.find((w) => windowState(w, now, w.timeZone) === "active");
