import type { BackgroundTask } from "./core/state.ts";
import { checksTask } from "./resources/checks/task.ts";
import { instantCheckTask } from "./resources/instant-checks/task.ts";
import { jobRunner } from "./resources/jobs/runner.ts";
import { maintenanceEndTask } from "./resources/maintenance/events.ts";
import { reportPurgeTask } from "./resources/reports/task.ts";
import { webhookDeliveryTask } from "./resources/webhooks/worker.ts";

/** The sandbox's background tasks: everything that happens on its own time, listed once. */
export function backgroundTasks(): BackgroundTask[] {
  // Timers first (a window's end, then the alerts it releases): the events they queue go out in the same tick.
  return [maintenanceEndTask, checksTask, jobRunner, reportPurgeTask, instantCheckTask, webhookDeliveryTask];
}
