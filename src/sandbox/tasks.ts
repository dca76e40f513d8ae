import type { BackgroundTask } from "./core/background.ts";
import { checksTask } from "./resources/checks/task.ts";
import { webhookDeliveryTask } from "./resources/webhooks/worker.ts";

/** The sandbox's background tasks: everything that happens on its own time, listed once. */
export function backgroundTasks(): BackgroundTask[] {
  // Checks first: the events its timers queue go out in the same tick.
  return [checksTask, webhookDeliveryTask];
}
