import type { BackgroundTask } from "./core/background.ts";
import { checksTask } from "./resources/checks/task.ts";

/** The sandbox's background tasks: everything that happens on its own time, listed once. */
export function backgroundTasks(): BackgroundTask[] {
  return [checksTask];
}
