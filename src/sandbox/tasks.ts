import type { BackgroundTask } from "./core/background.ts";
import { jobRunner } from "./resources/jobs/runner.ts";

/** The sandbox's background tasks: everything that happens on its own time, listed once. */
export function backgroundTasks(): BackgroundTask[] {
  return [jobRunner];
}
