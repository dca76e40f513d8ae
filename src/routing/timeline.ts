import { nextReminderTier, reachedAt, releasedAt } from "../kinds/index.ts";
import { type AlertType, holdSchedules, type MonitorRouting } from "./matrix.ts";

/** One outage of one monitor: confirmed down at `downAt`, up again at `upAt` (Unix seconds). */
export interface Outage {
  downAt: number;
  /** Absent: still down at `until`. */
  upAt?: number;
  /** The end of what is predicted. */
  until: number;
}

/** A notification the matrix says an outage causes: to a contact (an alert) or a webhook (an event). */
export interface ExpectedNotification {
  at: number;
  monitor: string;
  contact: string | null;
  webhook?: string;
  channel: string;
  /** A contact's alert type; for a webhook, the alert type of a `monitor.*` event, else null. */
  alertType: AlertType | null;
  /** A webhook's event (`monitor.down`, `incident.opened`, ...). */
  event?: string;
  outcome: "sent" | "blocked";
}

/**
 * What one outage of a monitor sends, by the matrix, as the sandbox sends it when its timer runs at each
 * moment (each minute, say; `docs/sandbox-checks.md`):
 * - each subscribed contact is reached once its delay has passed and no suppressing window is active, if
 *   the monitor is not up by then, and gets the `down` alert if it asked for it;
 * - `monitor.down` goes out likewise after the monitor's alert delay, and `monitor.up` only after it;
 * - reminders at each 30-minute tier where alerts are not held, once `monitor.down` went out before the
 *   tier, to the contacts reached before it;
 * - up alerts go to the contacts the outage reached. A paused monitor runs no checks: nothing.
 * Ordered by time, then recipient.
 */
export function expectedNotifications(row: MonitorRouting, outage: Outage): ExpectedNotification[] {
  if (!row.enabled) return [];
  const { downAt, until } = outage;
  const upAt = outage.upAt !== undefined && outage.upAt <= until ? outage.upAt : undefined;
  // The outage's last moment of alerting: the timer's run at the recovery comes before the recovery.
  const lastDown = upAt ?? until;
  const windows = holdSchedules(row.heldBy);
  const released = (at: number) => releasedAt(windows, at);
  const downEventAt = released(reachedAt(downAt, row.downDelayMinutes));
  const downEventSent = downEventAt <= lastDown;
  const out: ExpectedNotification[] = [];
  const tiers: number[] = [];
  for (let t = nextReminderTier(downAt, downAt); t <= lastDown; t = nextReminderTier(downAt, t))
    if (released(t) === t && downEventAt < t) tiers.push(t);

  for (const route of row.routes) {
    if (route.outcome === "none") continue;
    const base = {
      monitor: row.monitor,
      contact: route.contact,
      ...(route.webhook !== undefined && { webhook: route.webhook }),
      channel: route.channel,
      outcome: route.outcome,
    };
    if (route.webhook !== undefined) {
      const events = new Set(route.events);
      const event = (at: number, name: string, alertType: AlertType | null) => {
        if (events.has(name)) out.push({ ...base, at, alertType, event: name });
      };
      event(downAt, "incident.opened", null);
      if (downEventSent) event(downEventAt, "monitor.down", "down");
      for (const t of tiers) event(t, "monitor.repeatedlyDown", "repeatedlyDown");
      if (upAt !== undefined) {
        event(upAt, "incident.closed", null);
        if (downEventSent) event(upAt, "monitor.up", "up");
      }
      continue;
    }
    const reached = released(reachedAt(downAt, route.delayMinutes));
    if (reached > lastDown) continue;
    const alert = (at: number, alertType: AlertType) => {
      if (route.alertTypes.includes(alertType)) out.push({ ...base, at, alertType });
    };
    alert(reached, "down");
    for (const t of tiers) if (reached < t) alert(t, "repeatedlyDown");
    if (upAt !== undefined) alert(upAt, "up");
  }
  return out.sort(
    (a, b) =>
      a.at - b.at ||
      (a.contact ?? a.webhook ?? "").localeCompare(b.contact ?? b.webhook ?? "") ||
      (a.event ?? a.alertType ?? "").localeCompare(b.event ?? b.alertType ?? ""),
  );
}
