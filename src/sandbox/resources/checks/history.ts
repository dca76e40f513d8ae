import type { Ctx } from "../../core/operation.ts";
import type { Doc, Store } from "../../core/store.ts";

/** Where simulated checks keep what they found: results (`res_`), state spans and incidents (`inc_`). */
export const resultTable = "checkResult";
export const spanTable = "stateSpan";
export const incidentTable = "incident";
/** One `CheckStateDoc` per monitor with history, keyed by the monitor id. */
export const checkStateTable = "checkState";
/** One `AlertDueDoc` per open incident: what the timer scans. */
export const alertDueTable = "checkAlertDue";

const historyTables = [resultTable, spanTable, incidentTable] as const;
type HistoryTable = (typeof historyTables)[number];

/**
 * Each history row has an entry (`{id, accountId}`, the row's id) in a
 * per-monitor index table, so one monitor's rows are found without
 * reading the account's whole history. The index lives in the store, so
 * transactions, dry runs and the data file keep it in step with the rows.
 */
const indexOf = (table: HistoryTable, monitorId: string) => `${table}@${monitorId}`;

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

/**
 * Where a monitor's history stands, so an outcome costs the same however long
 * the history is: its open incident, its current span, its last result row,
 * and the sequence number of its last check.
 */
export interface CheckStateDoc extends Doc {
  openIncidentId: string | null;
  openSpanId: string | null;
  lastResultId: string | null;
  checkNumber: number;
}

/**
 * When an open incident next needs the timer: `dueAt` is the earliest of its
 * next reminder tier, `monitor.down` and the next contact's alert delay.
 * `held` says alerts were held back (paused monitor, suppressing maintenance)
 * at the last look: the timer then rechecks the hold on every run, because a
 * window's end or cancellation releases what is due at once.
 */
export interface AlertDueDoc extends Doc {
  monitorId: string;
  dueAt: number;
  held: boolean;
}

/** Stores a history row, entering a new one in its monitor's index. */
export function putRow<T extends HistoryDoc>(store: Store, table: HistoryTable, row: T): T {
  if (!store.get(table, row.id))
    store.put<Doc>(indexOf(table, row.monitorId), { id: row.id, accountId: row.accountId });
  return store.put<T>(table, row);
}

export function removeRow(store: Store, table: HistoryTable, row: HistoryDoc): void {
  store.remove(table, row.id);
  store.remove(indexOf(table, row.monitorId), row.id);
}

/** A monitor's rows of one table, read through its index. */
export function rowsOf<T extends HistoryDoc>(ctx: Ctx, table: HistoryTable, monitorId: string): T[] {
  const rows: T[] = [];
  for (const entry of ctx.store.all(indexOf(table, monitorId), ctx.account!.id)) {
    const row = ctx.store.get<T>(table, entry.id);
    if (row) rows.push(row);
  }
  return rows;
}

export const checkStateOf = (ctx: Ctx, monitorId: string) =>
  ctx.store.owned<CheckStateDoc>(checkStateTable, ctx.account!.id, monitorId);

const pointed = <T extends Doc>(ctx: Ctx, table: string, id: string | null | undefined) =>
  id ? ctx.store.owned<T>(table, ctx.account!.id, id) : undefined;

export const openIncidentOf = (ctx: Ctx, monitorId: string) =>
  pointed<IncidentDoc>(ctx, incidentTable, checkStateOf(ctx, monitorId)?.openIncidentId);

export const openSpanOf = (ctx: Ctx, monitorId: string) =>
  pointed<StateSpanDoc>(ctx, spanTable, checkStateOf(ctx, monitorId)?.openSpanId);

/** The monitor's last result row; undefined once the retention sweep or a statistics reset removed it. */
export const lastResultOf = (ctx: Ctx, monitorId: string) =>
  pointed<CheckResultDoc>(ctx, resultTable, checkStateOf(ctx, monitorId)?.lastResultId);

/** The newest row by `key` (ties broken by id), or undefined. */
export function newest<T extends Doc>(rows: T[], key: (row: T) => number): T | undefined {
  let best: T | undefined;
  for (const row of rows) {
    if (!best || key(row) > key(best) || (key(row) === key(best) && row.id > best.id)) best = row;
  }
  return best;
}

/**
 * `POST /monitor/{id}/reset-stats`: forgets a monitor's results, spans and
 * resolved incidents, so statistics start over. An open incident stays: the
 * monitor is still down, and its recovery must close it. Answers how many rows went.
 */
export function resetCheckHistory(ctx: Ctx, monitorId: string): number {
  let removed = 0;
  for (const table of historyTables) {
    for (const row of rowsOf<HistoryDoc & { state?: string }>(ctx, table, monitorId)) {
      if (row.state === "open") continue;
      removeRow(ctx.store, table, row);
      removed++;
    }
  }
  const state = checkStateOf(ctx, monitorId);
  // The next outcome starts a new history: a first span, check numbers from 1.
  if (state)
    ctx.store.put<CheckStateDoc>(checkStateTable, {
      ...state,
      openSpanId: null,
      lastResultId: null,
      checkNumber: 0,
    });
  return removed;
}

/** Removes every history row of a deleted monitor, open incident included. Answers how many rows went. */
export function forgetMonitorHistory(ctx: Ctx, monitorId: string): number {
  let removed = 0;
  for (const table of historyTables) {
    for (const row of rowsOf<HistoryDoc>(ctx, table, monitorId)) {
      removeRow(ctx.store, table, row);
      removed++;
    }
  }
  const state = checkStateOf(ctx, monitorId);
  if (state?.openIncidentId) ctx.store.remove(alertDueTable, state.openIncidentId);
  ctx.store.remove(checkStateTable, monitorId);
  return removed;
}

/**
 * How long rows are kept. Raw results: the spec's 30-day window. Spans and
 * incidents feed uptime figures and summaries, whose windows have no cap:
 * they are kept 400 days, so a year over year summary stays whole.
 */
export const retention = { resultSec: 30 * 86400, spanSec: 400 * 86400, incidentSec: 400 * 86400 };
/** Sweeps run at most this often (sandbox seconds), and otherwise only when a row can have expired. */
const sweepIntervalSec = 300;
const sweepMeta = "checks.sweep";

/**
 * Removes rows past retention: results whose last check is older than 30
 * days, closed spans and resolved incidents that ended more than 400 days
 * ago. Open incidents and current spans are never removed. A sweep reads every
 * row, so it runs only when the oldest remaining row can have expired (rows
 * written later expire later), and not more than every 5 minutes.
 */
export function sweepHistory(store: Store, now: number): void {
  const last = store.meta<{ at: number; nextAt: number }>(sweepMeta);
  // A clock set back makes the schedule meaningless: sweep and plan again.
  if (last && now >= last.at && now < last.nextAt) return;
  // Rows written from now on are kept at least this long.
  let nextAt = now + retention.resultSec + 1;
  const sweep = <T extends HistoryDoc>(table: HistoryTable, keptUntil: (row: T) => number | null) => {
    for (const row of store.scan<T>(table)) {
      const until = keptUntil(row);
      if (until === null) continue;
      if (until < now) removeRow(store, table, row);
      else nextAt = Math.min(nextAt, until + 1);
    }
  };
  sweep<CheckResultDoc>(resultTable, (r) => r.lastTime + retention.resultSec);
  sweep<StateSpanDoc>(spanTable, (s) => (s.to === null ? null : s.to + retention.spanSec));
  sweep<IncidentDoc>(incidentTable, (i) => (i.state === "open" ? null : i.end + retention.incidentSec));
  store.setMeta(sweepMeta, { at: now, nextAt: Math.max(nextAt, now + sweepIntervalSec) });
}

/**
 * Asks the timer to look at a monitor's open incident now: who is subscribed
 * to it, or with which alert delay, changed, so alerts (and `monitor.down`,
 * which waits for the shortest delay) may be due earlier than scheduled.
 */
export function rescheduleOpenIncident(ctx: Ctx, monitorId: string): void {
  const incidentId = checkStateOf(ctx, monitorId)?.openIncidentId;
  const due = incidentId ? ctx.store.get<AlertDueDoc>(alertDueTable, incidentId) : undefined;
  if (due && due.dueAt > ctx.now) ctx.store.put<AlertDueDoc>(alertDueTable, { ...due, dueAt: ctx.now });
}
