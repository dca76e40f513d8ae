/**
 * Never a stack trace for a user action: a path the system refuses (a file where a directory belongs, a
 * directory that does not exist) is said in one line, which call on which path and why, with exit 1.
 */
import { expect, it } from "vitest";
import { sandboxWorkspace, shown } from "./helpers.ts";

it.concurrent("export into a path under a file: one line, no stack trace", async () => {
  const w = await sandboxWorkspace({ "a-file": "" });
  const run = await w.run(["export", "--sandbox", "--out", "a-file/exported"]);
  expect(run.code, shown(run)).toBe(1);
  expect(run.stderr).toMatch(/^Error: ENOTDIR: not a directory, mkdir '.*a-file\/exported'\n$/);
}, 60_000);

it.concurrent("a state file under a file: one line, no stack trace", async () => {
  const w = await sandboxWorkspace({
    "a-file": "",
    "main.yaml": "contacts:\n  ops: { type: email, address: ops@example.com }\n",
  });
  const run = await w.run(["apply", "--sandbox", "--auto-approve", "--state", "a-file/state.json"]);
  expect(run.code, shown(run)).toBe(1);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr).toMatch(/^Error: E[A-Z]+: .*a-file/m);
}, 60_000);
