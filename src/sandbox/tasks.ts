import type { BackgroundTask } from "./core/background.ts";
import { maintenanceEndTask } from "./resources/maintenance/events.ts";

/** The sandbox's background tasks: everything that happens on its own time, listed once. */
export function backgroundTasks(): BackgroundTask[] {
  return [maintenanceEndTask];
}
