/**
 * Runs around each test file of the "shared" project (vitest.config.ts), whose files follow one another in
 * one worker process: what a file changed of the process, or left running, it must not hand to the next.
 */
import { afterAll } from "vitest";
import { openSandboxes } from "../helpers/sandbox.ts";

// Vitest runs this module again before it loads each file: what the file changes, even while it loads, is
// put back after it.
const env = { ...process.env };
const cwd = process.cwd();

afterAll(async () => {
  // A sandbox the file did not close (a failed set-up, a timed-out test) would keep its background work
  // going. Its test has failed already, and the file's clean-up may have removed the folder its snapshot
  // goes to: closing it is the end of a process of its own, with nothing more to report.
  await Promise.all([...openSandboxes].map((sandbox) => sandbox.close().catch(() => {})));
  openSandboxes.clear();
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  if (process.cwd() !== cwd) process.chdir(cwd);
});
