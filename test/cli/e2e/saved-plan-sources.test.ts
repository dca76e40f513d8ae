import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { vigil, workspace } from "../vigil.ts";
import { project, useSandbox } from "./helpers.ts";
import { monitorsYaml } from "./monitors.ts";

const execFileAsync = promisify(execFile);
const sandbox = useSandbox();
const shown = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;

describe("apply --plan reads the configuration the plan was made from", { timeout: 60_000 }, () => {
  it("records the directory, paths and file digests, and applies from another directory", async () => {
    const p = await project(sandbox(), {
      "config/monitors.yaml": monitorsYaml(2),
      "config/more/extra.yaml": monitorsYaml(1, "x"),
      // Not part of the plan's paths: invalid YAML an apply from the wrong directory would trip on.
      "unrelated.yaml": "monitors: [not, a, map\n",
    });
    // A plan saved in a subdirectory belongs to the Git work tree holding it (docs/plan-format.md).
    await mkdir(join(p.dir, "plans"));
    await execFileAsync("git", ["init", "-q"], { cwd: p.dir });
    const saved = await p.run(["plan", "config", "--out", "plans/p.json"]);
    expect(saved.code, shown(saved)).toBe(0);
    const plan = JSON.parse(await readFile(join(p.dir, "plans/p.json"), "utf8"));
    expect(plan.config.dir).toBe("..");
    expect(plan.config.paths).toEqual(["config"]);
    expect(plan.config.files.map((f: { path: string }) => f.path)).toEqual([
      "config/monitors.yaml",
      "config/more/extra.yaml",
    ]);
    expect(plan.config.files[0].digest).toMatch(/^sha256:[0-9a-f]{64}$/);

    // Elsewhere, with the state and endpoint of the project (the default state is the plan's directory's).
    const elsewhere = await workspace({ "main.yaml": monitorsYaml(5, "other") });
    const apply = await vigil(["apply", "--plan", join(p.dir, "plans/p.json")], {
      cwd: elsewhere,
      env: { VIGIL_ENDPOINT: sandbox().url, VIGIL_TOKEN: p.account.token },
    });
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain("Apply complete: 3 created.");
    expect(Object.keys(JSON.parse(await p.read(".vigil/state.json")).resources).sort()).toEqual([
      "monitors.m-0",
      "monitors.m-1",
      "monitors.x-0",
    ]);
    await rm(elsewhere, { recursive: true, force: true });
  });

  it("a file changed, added or removed since the plan makes it stale, naming the file; nothing is sent", async () => {
    const p = await project(sandbox(), {
      "config/a.yaml": monitorsYaml(1, "a"),
      "config/b.yaml": monitorsYaml(1, "b"),
    });
    const made = await p.run(["plan", "config", "--out", "p.json"]);
    expect(made.code, shown(made)).toBe(0);
    await p.write("config/a.yaml", monitorsYaml(1, "a").replace("interval: 60", "interval: 300"));
    await rm(join(p.dir, "config/b.yaml"));
    await writeFile(join(p.dir, "config/c.yaml"), monitorsYaml(1, "c"));
    const stale = await p.run(["apply", "--plan", "p.json"]);
    expect(stale.code, shown(stale)).toBe(1);
    expect(stale.stderr).toContain("The saved plan is stale; make a new plan.");
    expect(stale.stderr).toContain("config/a.yaml: changed since the plan");
    expect(stale.stderr).toContain("config/b.yaml: removed since the plan");
    expect(stale.stderr).toContain("config/c.yaml: a configuration file that is new since the plan");
    expect((await p.account.get("/monitor")).body.data).toEqual([]);
  });

  it("refuses paths given with --plan, saying where the plan's configuration is", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1) });
    expect((await p.run(["plan", "--out", "p.json"])).code).toBe(0);
    const run = await p.run(["apply", "--plan", "p.json", "main.yaml"]);
    expect(run.code, shown(run)).toBe(1);
    expect(run.stderr).toContain(
      `apply --plan reads the configuration the plan was made from (. in ${p.dir}); give no paths with it.`,
    );
  });
});
