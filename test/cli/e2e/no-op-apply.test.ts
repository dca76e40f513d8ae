/**
 * An apply that changes nothing leaves the state as it found it: no new version in the history (it used
 * to save one, summarised `+0 ~0 -0`), the same serial, the file untouched, so a GitOps repo's apply job
 * has nothing to commit. An apply that changes something still saves its version.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { sandboxWorkspace, shown } from "./helpers.ts";
import { monitorsYaml } from "./monitors.ts";

it.concurrent("a no-op apply writes no version of the state", async () => {
  const w = await sandboxWorkspace({ "main.yaml": monitorsYaml(2) });
  expect((await w.run(["apply", "--sandbox", "--auto-approve"])).code).toBe(0);
  const statePath = join(w.dir, ".vigil/sandbox-state.json");
  const before = await readFile(statePath, "utf8");
  const mtime = (await stat(statePath)).mtimeMs;
  const history = await w.run(["state", "history", "--sandbox"]);
  expect(history.code, shown(history)).toBe(0);

  const again = await w.run(["apply", "--sandbox", "--auto-approve"]);
  expect(again.code, shown(again)).toBe(0);
  expect(again.stdout).toContain("Apply complete: nothing to do.");
  expect(await readFile(statePath, "utf8")).toBe(before);
  expect((await stat(statePath)).mtimeMs).toBe(mtime);
  const after = await w.run(["state", "history", "--sandbox"]);
  expect(after.stdout).toBe(history.stdout);
  expect(after.stdout).not.toContain("+0 ~0 -0");

  // A change is saved as its own version, as before.
  await w.write("main.yaml", monitorsYaml(2).replace("interval: 60", "interval: 300"));
  const update = await w.run(["apply", "--sandbox", "--auto-approve"]);
  expect(update.stdout).toContain("Apply complete: 1 updated.");
  const updated = await w.run(["state", "history", "--sandbox"]);
  expect(updated.stdout.split("\n").filter((l) => /^\d+ /.test(l)).length).toBe(
    history.stdout.split("\n").filter((l) => /^\d+ /.test(l)).length + 1,
  );
}, 120_000);
