import {
  downEventDelaySec,
  monitorTypes,
  nextReminderTier,
  noticeOfMonitorType,
  reachedAt,
} from "../../../kinds/index.ts";
import { type Agent, agents, agentsFor } from "../../core/fleet.ts";
import { newGuid, newPrefixedId } from "../../core/ids.ts";
import type { Ctx } from "../../core/operation.ts";
import { nextSyncSeq } from "../accounts.ts";
import type { ContactDoc } from "../contacts/doc.ts";
import { deliver } from "../contacts/notifications/model.ts";
import { activeWindowsFor, alertsHeldBack } from "../maintenance/model.ts";
import { type MonitorDoc, monitorCollection, monitorName } from "../monitors/model.ts";
import { type AlertSubscriptionDoc, subscriptionCollection } from "../subscriptions/model.ts";
import { emitEvent } from "../webhooks/events.ts";
import {
  type AlertDueDoc,
  alertDueCollection,
  type CheckError,
  type CheckLocation,
  type CheckResultDoc,
  type CheckStateDoc,
  checkStateCollection,
  checkStateOf,
  type IncidentDoc,
  incidentCollection,
  lastResultOf,
  openIncidentOf,
  openSpanOf,
  putRow,
  type RecheckRow,
  resultCollection,
  type StateSpanDoc,
  spanCollection,
} from "./history.ts";

/**
 * The simulated check engine: an outcome (`POST /_sandbox/monitor/{id}/outcome`)
 * is one confirmed check. It writes the result, moves the monitor between up
 * and down, opens and closes incidents and spans, emits the engine events and
 * alerts subscribed contacts once their alert delay has passed. Timers
 * (alert delays, reminders, the end of a maintenance window) are run by
 * `checksTask` (task.ts) through `advanceIncident`. docs/sandbox-checks.md
 * describes every choice.
 */

/** A failure without an `error` in the outcome body reads as a timeout. */
export const defaultCheckError: CheckError = {
  code: 28,
  message: "Operation timed out after 30000 ms",
  codename: "timeout",
};

/** How many locations confirm a state change, unless `recheck.minNumDown` says otherwise. */
const defaultConfirmations = 3;

export interface OutcomeInput {
  state: "up" | "down";
  error?: Partial<CheckError>;
}

export interface OutcomeEffect {
  resultId: string;
  incidentId: string | null;
  /** Whether the outcome moved the monitor between up and down. */
  changed: boolean;
}

const toLocation = (a: Agent): CheckLocation => ({
  id: a.id,
  country: a.country,
  region: a.region,
  city: a.city,
  ip: a.ip,
});

/** The live locations that check a monitor: its pools, or the whole fleet for types without locations. */
function locationsOf(m: MonitorDoc): Agent[] {
  const fleet = monitorTypes[m.type].fleet ?? "net";
  const chosen = m.locations
    ? agentsFor(m.locations.pools, fleet, m.locations.excludedAgents)
    : agentsFor(["allworld"], fleet);
  return chosen.length > 0 ? chosen : agents.filter((a) => a.live);
}

/** Locations take turns by check number, as a fleet spreads checks. */
function checkLocations(m: MonitorDoc, checkNumber: number, confirming: boolean) {
  const pool = locationsOf(m);
  const at = (i: number) => pool[(checkNumber + i) % pool.length]!;
  const wanted = m.recheck?.strategy === "minNumDown" ? (m.recheck.minNumDown ?? 1) : defaultConfirmations;
  const count = confirming ? Math.min(wanted, 7, Math.max(pool.length - 1, 1)) : 0;
  return { primary: at(0), confirmers: Array.from({ length: count }, (_, i) => at(i + 1)) };
}

/** Deterministic measurements: a steady response time with a small wobble per check. */
function measurements(state: "up" | "down", error: CheckError | null, checkNumber: number) {
  if (state === "down") {
    const durationMs = error?.codename === "timeout" ? 30000 : 1000;
    return {
      durationMs,
      metrics: { responseTime: durationMs, dns: 0, connect: 0, tls: 0, ttfb: 0, transfer: 0 },
    };
  }
  const responseTime = 120 + ((checkNumber * 37) % 80);
  const metrics = { responseTime, dns: 8, connect: 15, tls: 25, ttfb: responseTime - 58, transfer: 10 };
  return { durationMs: responseTime, metrics };
}

const sameError = (a: CheckError | null, b: CheckError | null) =>
  a === b ||
  (a !== null && b !== null && a.code === b.code && a.codename === b.codename && a.message === b.message);

/**
 * Records one confirmed check of an enabled monitor. `ctx.account` must be
 * the monitor's account. Runs inside the caller's transaction.
 */
export function recordOutcome(ctx: Ctx, monitor: MonitorDoc, input: OutcomeInput): OutcomeEffect {
  const now = ctx.now;
  // Read through the monitor's check state: an outcome costs the same however long its history is.
  const previous = lastResultOf(ctx, monitor.id);
  const checkNumber = (checkStateOf(ctx, monitor.id)?.checkNumber ?? 0) + 1;
  const error = input.state === "down" ? { ...defaultCheckError, ...input.error } : null;
  let incident = openIncidentOf(ctx, monitor.id);
  const opening = input.state === "down" && !incident;
  const closing = input.state === "up" && incident !== undefined;
  const changed = opening || closing || monitor.state !== input.state;
  const { primary, confirmers } = checkLocations(monitor, checkNumber, opening || closing);
  const recheck: RecheckRow[] = confirmers.map((a) => ({
    location: toLocation(a),
    state: input.state,
    ...(error && { error }),
  }));

  const resultId = newPrefixedId("res_");
  if (opening) incident = openIncident(ctx, monitor, { cause: error!, resultId, recheck, checkNumber });
  if (incident && input.state === "down") {
    incident = putRow<IncidentDoc>(ctx.store, incidentCollection, {
      ...incident,
      end: now,
      checkCount: incident.checkCount + 1,
    });
  }

  const incidentId = input.state === "down" ? incident!.id : null;
  const folded = !changed && previous && previous.state === input.state && sameError(previous.error, error);
  const storedResultId = folded ? previous.id : resultId;
  if (folded) {
    putRow<CheckResultDoc>(ctx.store, resultCollection, {
      ...previous,
      lastTime: now,
      checkCount: previous.checkCount + 1,
      checkNumber,
    });
  } else {
    putRow<CheckResultDoc>(ctx.store, resultCollection, {
      id: resultId,
      accountId: monitor.accountId,
      monitorId: monitor.id,
      time: now,
      lastTime: now,
      state: input.state,
      location: toLocation(primary),
      ...measurements(input.state, error, checkNumber),
      error,
      recheck,
      checkCount: 1,
      checkNumber,
      incidentId,
    });
  }

  let openSpan = openSpanOf(ctx, monitor.id);
  if (changed) {
    // The open span closes, one in the new state opens, and the monitor moves (delta sync catches it).
    if (openSpan) putRow<StateSpanDoc>(ctx.store, spanCollection, { ...openSpan, to: now });
    openSpan = startSpan(ctx, monitor, input.state, incidentId);
    ctx.store.put<MonitorDoc>(monitorCollection, {
      ...monitor,
      state: input.state,
      since: now,
      syncSeq: nextSyncSeq(ctx, monitor.accountId),
    });
  }
  // History starts with the first outcome (or starts over after a statistics reset): it opens the first span.
  else if (!openSpan) openSpan = startSpan(ctx, monitor, input.state, incidentId);
  ctx.store.put<CheckStateDoc>(checkStateCollection, {
    id: monitor.id,
    accountId: monitor.accountId,
    openIncidentId: incidentId,
    openSpanId: openSpan.id,
    lastResultId: storedResultId,
    checkNumber,
  });
  if (opening) {
    emitEvent(ctx, {
      event: "incident.opened",
      data: incidentOpenedData(incident!),
      monitor,
      resourceId: incident!.id,
      retried: true,
    });
    advanceIncident(ctx, monitor, incident!);
  }
  if (closing) closeIncident(ctx, monitor, incident!, resultId, recheck);
  return { resultId: storedResultId, incidentId, changed };
}

/** The incident a first failed check opens, its opening the check's result and the locations that confirmed it. */
function openIncident(
  ctx: Ctx,
  monitor: MonitorDoc,
  opened: { cause: CheckError; resultId: string; recheck: RecheckRow[]; checkNumber: number },
): IncidentDoc {
  const { now } = ctx;
  return putRow<IncidentDoc>(ctx.store, incidentCollection, {
    id: newPrefixedId("inc_"),
    accountId: monitor.accountId,
    monitorId: monitor.id,
    start: now,
    end: now,
    state: "open",
    cause: opened.cause,
    underMaintenance: activeWindowsFor(ctx, monitor).length > 0,
    comment: null,
    checkCount: 0,
    opening: { state: "down", at: now, resultId: opened.resultId, locations: opened.recheck },
    closing: null,
    checkNumber: opened.checkNumber,
    reachedContactIds: [],
    downEventSent: false,
    nextReminderAt: nextReminderTier(now, now),
  });
}

function startSpan(ctx: Ctx, monitor: MonitorDoc, state: "up" | "down", incidentId: string | null) {
  return putRow<StateSpanDoc>(ctx.store, spanCollection, {
    id: newGuid(),
    accountId: monitor.accountId,
    monitorId: monitor.id,
    state,
    from: ctx.now,
    to: null,
    incidentId,
  });
}

function incidentOpenedData(i: IncidentDoc) {
  return {
    incidentId: i.id,
    monitorId: i.monitorId,
    start: i.start,
    cause: i.cause.codename,
    underMaintenance: i.underMaintenance,
  };
}

function monitorRef(m: MonitorDoc) {
  return { id: m.id, name: monitorName(m), ...(m.url !== null && { url: m.url }), type: m.type };
}

/** `monitor.down`: the confirmed failure and the locations that confirmed it. */
function downData(ctx: Ctx, m: MonitorDoc, i: IncidentDoc) {
  return {
    monitor: monitorRef(m),
    state: "down",
    occurredAt: ctx.now,
    checkNumber: i.checkNumber,
    failedAt: i.start,
    error: i.cause,
    recheck: i.opening.locations,
  };
}

/** `monitor.up` and `monitor.repeatedlyDown` add the episode so far. */
function episodeData(ctx: Ctx, m: MonitorDoc, i: IncidentDoc, lastFailedAt = i.end) {
  return {
    ...downData(ctx, m, i),
    firstFailedAt: i.start,
    lastFailedAt,
    failedChecks: i.checkCount,
    downtimeSec: ctx.now - i.start,
  };
}

function alertSubscriptions(ctx: Ctx, monitorId: string) {
  return ctx.store
    .all<AlertSubscriptionDoc>(subscriptionCollection.alert, ctx.account!.id)
    .filter((s) => s.monitorId === monitorId);
}

/** An alert of a notice type's monitor (a certificate, say) is a notice: plain http contacts do not get it. */
function alertContact(
  ctx: Ctx,
  monitor: MonitorDoc,
  contactId: string,
  kind: "alert" | "reminder",
  event: string,
) {
  const contact = ctx.store.owned<ContactDoc>("contact", ctx.account!.id, contactId);
  if (contact)
    deliver(
      ctx,
      contact,
      { kind, event, monitorIds: [monitor.id], period: null },
      noticeOfMonitorType(monitor.type),
    );
}

/** The delay before `monitor.down` (`downEventDelaySec`), over the subscriptions whose contact exists. */
function downDelaySec(subscriptions: AlertSubscriptionDoc[], contacts: Map<string, ContactDoc>): number {
  return downEventDelaySec(
    subscriptions.flatMap((sub) => {
      const contact = contacts.get(sub.contactId);
      return contact ? [{ alertTypes: sub.alertTypes, alertDelay: contact.alertDelay }] : [];
    }),
  );
}

/** Records when the incident next needs the timer; writes only when that changed. */
function scheduleIncident(ctx: Ctx, incident: IncidentDoc, dueAt: number, held: boolean) {
  const current = ctx.store.get<AlertDueDoc>(alertDueCollection, incident.id);
  if (current?.dueAt === dueAt && current.held === held) return;
  ctx.store.put<AlertDueDoc>(alertDueCollection, {
    id: incident.id,
    accountId: incident.accountId,
    monitorId: incident.monitorId,
    dueAt,
    held,
  });
}

/**
 * Moves an open incident's alerting on to `ctx.now`: `monitor.down` once the
 * monitor's alert delay (`downDelaySec`) has passed, the down alert to each
 * subscribed contact whose `alertDelay` has passed, and a
 * `monitor.repeatedlyDown` reminder when a tier is due. A paused monitor
 * alerts nobody, and a monitor inside a maintenance window that suppresses
 * alerts waits: what is due goes out once the window ends. Then records when
 * the incident next needs the timer. Writes only when something happened.
 */
export function advanceIncident(ctx: Ctx, monitor: MonitorDoc, incident: IncidentDoc): IncidentDoc {
  const now = ctx.now;
  const tierDue = now >= incident.nextReminderAt;
  const nextTier = nextReminderTier(incident.start, now);
  if (!monitor.enabled || alertsHeldBack(ctx, monitor)) {
    // Reminders that fall due while alerts are held back are skipped, not saved up.
    const held = tierDue
      ? putRow<IncidentDoc>(ctx.store, incidentCollection, { ...incident, nextReminderAt: nextTier })
      : incident;
    scheduleIncident(ctx, held, held.nextReminderAt, true);
    return held;
  }
  const subscriptions = alertSubscriptions(ctx, monitor.id);
  const contacts = new Map<string, ContactDoc>();
  for (const sub of subscriptions) {
    const contact = ctx.store.owned<ContactDoc>("contact", ctx.account!.id, sub.contactId);
    if (contact) contacts.set(contact.id, contact);
  }
  const downAt = incident.start + downDelaySec(subscriptions, contacts);
  let next = incident;
  if (!next.downEventSent && now >= downAt) {
    emitEvent(ctx, {
      event: "monitor.down",
      data: downData(ctx, monitor, next),
      monitor,
      resourceId: next.id,
      retried: true,
    });
    next = { ...next, downEventSent: true };
  }
  const reached = new Set(next.reachedContactIds);
  const pending: number[] = [];
  for (const sub of subscriptions) {
    const contact = contacts.get(sub.contactId);
    if (!contact || reached.has(contact.id)) continue;
    const reachAt = reachedAt(next.start, contact.alertDelay);
    if (now < reachAt) {
      pending.push(reachAt);
      continue;
    }
    reached.add(contact.id);
    if (sub.alertTypes.includes("down")) alertContact(ctx, monitor, contact.id, "alert", "down");
  }
  if (reached.size !== next.reachedContactIds.length) next = { ...next, reachedContactIds: [...reached] };
  // A reminder repeats what was already said: not before `monitor.down`, nor in the run that first says it.
  if (tierDue && incident.downEventSent) {
    emitEvent(ctx, {
      event: "monitor.repeatedlyDown",
      data: { ...episodeData(ctx, monitor, next), state: "down", recheck: [] },
      monitor,
      resourceId: next.id,
      retried: true,
    });
    for (const sub of subscriptions) {
      if (incident.reachedContactIds.includes(sub.contactId) && sub.alertTypes.includes("repeatedlyDown"))
        alertContact(ctx, monitor, sub.contactId, "reminder", "repeatedlyDown");
    }
  }
  if (tierDue) next = { ...next, nextReminderAt: nextTier };
  if (next !== incident) next = putRow<IncidentDoc>(ctx.store, incidentCollection, next);
  if (!next.downEventSent) pending.push(downAt);
  scheduleIncident(ctx, next, Math.min(next.nextReminderAt, ...pending), false);
  return next;
}

/**
 * Resolves an incident: `incident.closed`, then `monitor.up` if `monitor.down`
 * went out, and the up alert to contacts subscribed to `up` that the episode
 * reached (their alert delay passed while alerts were not held back).
 */
function closeIncident(
  ctx: Ctx,
  monitor: MonitorDoc,
  open: IncidentDoc,
  resultId: string,
  recheck: RecheckRow[],
) {
  ctx.store.remove(alertDueCollection, open.id);
  const closed = putRow<IncidentDoc>(ctx.store, incidentCollection, {
    ...open,
    end: ctx.now,
    state: "resolved",
    closing: { state: "up", at: ctx.now, resultId, locations: recheck },
  });
  emitEvent(ctx, {
    event: "incident.closed",
    data: {
      ...incidentOpenedData(closed),
      end: closed.end,
      durationSec: closed.end - closed.start,
      checkCount: closed.checkCount,
    },
    monitor,
    resourceId: closed.id,
    retried: true,
  });
  if (closed.downEventSent) {
    emitEvent(ctx, {
      event: "monitor.up",
      data: { ...episodeData(ctx, monitor, closed, open.end), state: "up", recheck },
      monitor,
      resourceId: closed.id,
      retried: true,
    });
  }
  for (const sub of alertSubscriptions(ctx, monitor.id)) {
    if (closed.reachedContactIds.includes(sub.contactId) && sub.alertTypes.includes("up"))
      alertContact(ctx, monitor, sub.contactId, "alert", "up");
  }
}
