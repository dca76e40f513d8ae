import { type BackgroundTask, systemCtx } from "../../core/state.ts";
import { alertsHeldBackIn } from "../maintenance/model.ts";
import { type MonitorDoc, monitorCollection } from "../monitors/model.ts";
import {
  type AlertDueDoc,
  alertDueCollection,
  type IncidentDoc,
  incidentCollection,
  sweepHistory,
} from "./history.ts";
import { advanceIncident } from "./incident-machine.ts";

/**
 * The check engine's timers on the sandbox clock: alert delays, `monitor.down`,
 * reminder tiers, and alerts held back by a maintenance window that has since
 * ended (the maintenance task runs first in the same tick), then the
 * retention sweep. A run reads one small row per open incident and moves on
 * only those that are due. Incidents whose alerts were held back are rechecked
 * on every run, because a window may end early (deleted or cut short) or a
 * paused monitor may resume; the windows are read once per account.
 */
export const checksTask: BackgroundTask = {
  name: "checks",
  due(state, now) {
    const suppressed = new Map<string, Set<string>>();
    const stillHeld = (due: AlertDueDoc, monitor: MonitorDoc) => {
      if (!monitor.enabled) return true;
      let ids = suppressed.get(due.accountId);
      if (!ids) {
        ids = alertsHeldBackIn(state, due.accountId, now);
        suppressed.set(due.accountId, ids);
      }
      return ids.has(monitor.id);
    };
    for (const due of state.store.scan<AlertDueDoc>(alertDueCollection)) {
      if (due.dueAt > now && !due.held) continue;
      const monitor = state.store.owned<MonitorDoc>(monitorCollection, due.accountId, due.monitorId);
      const incident = state.store.get<IncidentDoc>(incidentCollection, due.id);
      // A deleted monitor's history is unreachable and alerts nobody.
      if (!monitor || incident?.state !== "open") {
        state.store.remove(alertDueCollection, due.id);
        continue;
      }
      if (due.dueAt > now && stillHeld(due, monitor)) continue;
      advanceIncident(systemCtx(state, due.accountId), monitor, incident);
    }
    sweepHistory(state.store, now);
  },
  // Held-back alerts are released by a window's end (the maintenance task's moment) or a resume (a request).
  nextDue(state, now) {
    let next: number | undefined;
    for (const due of state.store.scan<AlertDueDoc>(alertDueCollection)) {
      if (!due.held && due.dueAt > now && (next === undefined || due.dueAt < next)) next = due.dueAt;
    }
    return next;
  },
};
