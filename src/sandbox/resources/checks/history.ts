import type { Ctx } from "../../core/operation.ts";
import type { Doc } from "../../core/store.ts";

/** Where simulated checks keep what they found: results (`res_`), state spans and incidents (`inc_`). */
export const resultCollection = "checkResult";
export const spanCollection = "stateSpan";
export const incidentCollection = "incident";

/** A stored row of check history; every row names its monitor. */
export interface HistoryDoc extends Doc {
  monitorId: string;
}

export interface CheckError {
  code: number;
  message: string;
  codename: string;
}

export interface CheckLocation {
  id: string;
  country: string;
  region: string;
  city: string;
  ip: string;
}

export interface RecheckRow {
  location: CheckLocation;
  state: "up" | "down";
  error?: CheckError;
}

/** One result row; identical consecutive checks are folded into it (`checkCount`, `lastTime`). */
export interface CheckResultDoc extends HistoryDoc {
  time: number;
  lastTime: number;
  state: "up" | "down";
  location: CheckLocation;
  durationMs: number;
  error: CheckError | null;
  metrics: {
    responseTime: number;
    dns: number;
    connect: number;
    tls: number;
    ttfb: number;
    transfer: number;
  };
  /** Locations that confirmed a state change; empty on rows that changed nothing. */
  recheck: RecheckRow[];
  checkCount: number;
  /** Sequence number of the last check folded into the row. */
  checkNumber: number;
  incidentId: string | null;
}

/** One continuous up or down period; `to` is null while it goes on. */
export interface StateSpanDoc extends HistoryDoc {
  state: "up" | "down";
  from: number;
  to: number | null;
  incidentId: string | null;
}

export interface Transition {
  state: "up" | "down";
  at: number;
  resultId: string;
  locations: RecheckRow[];
}

/**
 * A down episode. Besides the API members it keeps the engine's bookkeeping
 * for alerts: which contacts were reached, whether `monitor.down` went out,
 * and when the next reminder is due.
 */
export interface IncidentDoc extends HistoryDoc {
  start: number;
  /** Last moment seen down while open; the recovery time once resolved. */
  end: number;
  state: "open" | "resolved";
  cause: CheckError;
  underMaintenance: boolean;
  comment: string | null;
  checkCount: number;
  opening: Transition;
  closing: Transition | null;
  /** The check that confirmed the failure, for `monitor.down`'s `checkNumber`. */
  checkNumber: number;
  /** Contacts whose alert delay passed while alerts were not held back: they got `down` if subscribed to it. */
  reachedContactIds: string[];
  /** Whether `monitor.down` was emitted (it is held back in maintenance); `monitor.up` follows only if so. */
  downEventSent: boolean;
  /** When the next `monitor.repeatedlyDown` tier is due. */
  nextReminderAt: number;
}

const historyCollections = [resultCollection, spanCollection, incidentCollection];

/**
 * `POST /monitor/{id}/reset-stats`: forgets a monitor's results, spans and
 * resolved incidents, so statistics start over. An open incident stays: the
 * monitor is still down, and its recovery must close it. Answers how many rows went.
 */
export function resetCheckHistory(ctx: Ctx, monitorId: string): number {
  let removed = 0;
  for (const collection of historyCollections) {
    for (const row of ctx.store.all<HistoryDoc & { state?: string }>(collection, ctx.account!.id)) {
      if (row.monitorId !== monitorId || row.state === "open") continue;
      ctx.store.remove(collection, row.id);
      removed++;
    }
  }
  return removed;
}

/** Removes every history row of a deleted monitor, open incident included. Answers how many rows went. */
export function forgetMonitorHistory(ctx: Ctx, monitorId: string): number {
  let removed = 0;
  for (const collection of historyCollections) {
    for (const row of ctx.store.all<HistoryDoc>(collection, ctx.account!.id)) {
      if (row.monitorId !== monitorId) continue;
      ctx.store.remove(collection, row.id);
      removed++;
    }
  }
  return removed;
}

/** A monitor's rows of one collection. */
export function rowsOf<T extends HistoryDoc>(ctx: Ctx, collection: string, monitorId: string): T[] {
  return ctx.store.all<T>(collection, ctx.account!.id).filter((r) => r.monitorId === monitorId);
}

/** The newest row by `key` (ties broken by id), or undefined. */
export function newest<T extends Doc>(rows: T[], key: (row: T) => number): T | undefined {
  let best: T | undefined;
  for (const row of rows) {
    if (!best || key(row) > key(best) || (key(row) === key(best) && row.id > best.id)) best = row;
  }
  return best;
}

export const openIncidentOf = (ctx: Ctx, monitorId: string) =>
  rowsOf<IncidentDoc>(ctx, incidentCollection, monitorId).find((i) => i.state === "open");

export const openSpanOf = (ctx: Ctx, monitorId: string) =>
  rowsOf<StateSpanDoc>(ctx, spanCollection, monitorId).find((s) => s.to === null);

export const lastResultOf = (ctx: Ctx, monitorId: string) =>
  newest(rowsOf<CheckResultDoc>(ctx, resultCollection, monitorId), (r) => r.checkNumber);
