/** The state subcommands over the default file backend: workspaces, history, unlock, bad flags. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileStateStore } from "../../../src/engine/index.ts";
import { project, shown, useSandbox } from "./helpers.ts";
import { monitorsYaml } from "./monitors.ts";

const sandbox = useSandbox();

describe("vigil state with the file backend", () => {
  it("workspaces are files beside the state; history keeps one version per run with its holder", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(2) });
    expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);
    const staging = await p.run(["apply", "--auto-approve", "--workspace", "staging"]);
    expect(staging.code, shown(staging)).toBe(0);
    expect(existsSync(join(p.dir, ".vigil/state.d/staging.json"))).toBe(true);

    const listed = await p.run(["state", "workspaces", "--workspace", "staging"]);
    expect(listed.stdout).toMatch(/^ {2}default +serial \d+, saved .*\n\* staging +serial \d+, saved /);

    await p.write("main.yaml", monitorsYaml(3));
    expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);
    const history = await p.run(["state", "history"]);
    expect(history.code, shown(history)).toBe(0);
    const lines = history.stdout.split("\n").filter((l) => /^\d+ {2}/.test(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/apply by \S+@\S+, lock [0-9a-f-]{36}/);
    expect(history.stdout).toContain("+1 ~0 -0  monitors.m-2");
    const serial = Number(lines[1]!.split(" ")[0]);
    const old = await p.run(["state", "show", "--version", String(serial), "monitors.m-1"]);
    expect(old.code, shown(old)).toBe(0);
    expect(old.stdout).toContain("address: monitors.m-1");
    const missing = await p.run(["state", "show", "--version", "999"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Version 999 is not in the history");
  });

  it("unlock releases a lock only with its id", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1) });
    const store = new FileStateStore(join(p.dir, ".vigil/state.json"), { operation: "apply" });
    const lock = await store.lock();
    const id = (await store.currentLock())!.id;
    const wrong = await p.run(["state", "unlock", "0000"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`lock id 0000 does not name the lock`);
    expect(wrong.stderr).toContain(`lock id ${id}`);
    expect((await store.currentLock())?.id).toBe(id);
    const right = await p.run(["state", "unlock", id]);
    expect(right.code, shown(right)).toBe(0);
    expect(right.stdout).toMatch(
      new RegExp(`^Released the lock ${id}, held by .* \\(pid ${process.pid}, vigil .*, apply\\)`),
    );
    await expect(lock.write({ ...(await store.read()), serial: 1 } as never)).rejects.toThrow("lost");
    await lock.release();
  });

  it("refuses bad flags before anything is read", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1) });
    const timeout = await p.run(["apply", "--auto-approve", "--lock-timeout", "soon"]);
    expect(timeout.code).toBe(1);
    expect(timeout.stderr).toContain(
      '--lock-timeout takes a duration: 90s, 5m or 1h30m (units d, h, m, s, ms), or a whole number of seconds, or days.hours:minutes:seconds such as 7.00:00:00 or 01:00:00, or 0 (do not wait); not "soon".',
    );
    const workspace = await p.run(["state", "list", "--workspace", "../x"]);
    expect(workspace.code).toBe(1);
    expect(workspace.stderr).toContain('workspace "../x" is not a valid name');
    const keep = await p.run(["apply", "--auto-approve", "--keep-versions", "0"]);
    expect(keep.code).toBe(1);
    expect(keep.stderr).toContain("--keep-versions takes a whole number from 1");
  });
});
