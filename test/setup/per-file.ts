/**
 * Runs around each test file of the "shared" project (vitest.config.ts), whose files follow one another in
 * one worker process: what a file changed of the process, or left running, it must not hand to the next.
 */
import { afterAll, beforeAll } from "vitest";
import { openSandboxes } from "../helpers/sandbox.ts";

let env: NodeJS.ProcessEnv;
let cwd: string;

beforeAll(() => {
  env = { ...process.env };
  cwd = process.cwd();
});

afterAll(async () => {
  // A sandbox the file did not close (a failed set-up, say) would keep its background work going.
  await Promise.all([...openSandboxes].map((sandbox) => sandbox.close()));
  openSandboxes.clear();
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  if (process.cwd() !== cwd) process.chdir(cwd);
});
