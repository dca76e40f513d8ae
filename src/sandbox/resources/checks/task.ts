import { type BackgroundTask, systemCtx } from "../../core/background.ts";
import { type MonitorDoc, monitorCollection } from "../monitors/model.ts";
import { advanceIncident } from "./engine.ts";
import { type IncidentDoc, incidentCollection } from "./history.ts";

/**
 * The check engine's timers on the sandbox clock: alert delays, reminder
 * tiers, and alerts held back by a maintenance window that has since ended.
 * Every open incident is moved on to now; nothing is written when nothing is due.
 */
export const checksTask: BackgroundTask = {
  name: "checks",
  due(state) {
    for (const incident of state.store.scan<IncidentDoc>(incidentCollection)) {
      if (incident.state !== "open") continue;
      const monitor = state.store.owned<MonitorDoc>(
        monitorCollection,
        incident.accountId,
        incident.monitorId,
      );
      // A deleted monitor's history is unreachable and alerts nobody.
      if (!monitor) continue;
      advanceIncident(systemCtx(state, incident.accountId), monitor, incident);
    }
  },
};
