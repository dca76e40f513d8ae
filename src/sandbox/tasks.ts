import type { BackgroundTask } from "./core/background.ts";
import { webhookDeliveryTask } from "./resources/webhooks/worker.ts";

/** The sandbox's background tasks: everything that happens on its own time, listed once. */
export function backgroundTasks(): BackgroundTask[] {
  return [webhookDeliveryTask];
}
