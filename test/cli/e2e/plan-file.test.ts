/**
 * Issue 25, points 9 and 14: how `plan --out` writes a plan file (mode 0600, atomically, never through a
 * link, its directory checked before the account is read) and how `apply --plan` reads one (bounded as a
 * configuration is, rendered without overflowing the stack).
 */
import { lstat, mkdir, readdir, readFile, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Plan } from "../../../src/engine/index.ts";
import { project, shown, useSandbox } from "./helpers.ts";
import { monitorsYaml } from "./monitors.ts";

const sandbox = useSandbox();
const noStack = (run: { stderr: string }) => expect(run.stderr).not.toMatch(/^\s+at /m);

describe("plan --out writes the plan file safely", { timeout: 60_000 }, () => {
  it("replaces a link at the target, never writing through it", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1), "victim.txt": "precious\n" });
    await symlink(join(p.dir, "victim.txt"), join(p.dir, "plan.json"));
    const run = await p.run(["plan", "--out", "plan.json"]);
    expect(run.code, shown(run)).toBe(0);
    expect(await p.read("victim.txt")).toBe("precious\n");
    const saved = await lstat(join(p.dir, "plan.json"));
    expect(saved.isSymbolicLink()).toBe(false);
    expect(saved.mode & 0o777).toBe(0o600);
    expect((JSON.parse(await p.read("plan.json")) as Plan).summary.create).toBe(1);
  });

  it("gives an existing file mode 0600, and leaves no temporary file", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1) });
    await writeFile(join(p.dir, "plan.json"), "old\n", { mode: 0o644 });
    expect((await stat(join(p.dir, "plan.json"))).mode & 0o777).toBe(0o644);
    const run = await p.run(["plan", "--out", "plan.json"]);
    expect(run.code, shown(run)).toBe(0);
    expect((await stat(join(p.dir, "plan.json"))).mode & 0o777).toBe(0o600);
    expect((await readdir(p.dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("into a missing directory: one clear line, before the account is read", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1) });
    // Nothing listens there: a run that reached for the account would say it cannot reach the API.
    const run = await p.run(["plan", "--out", "missing/plan.json"], {
      env: { VIGIL_ENDPOINT: "http://127.0.0.1:9" },
    });
    expect(run.code, shown(run)).toBe(1);
    expect(run.stderr).toBe(
      "Error: --out missing/plan.json: the directory missing does not exist; create it first. Nothing was read.\n",
    );
    expect(run.stdout).toBe("");
  });

  it("outside the repository it is made for: refused before the account is read", async () => {
    const p = await project(sandbox(), { "config/main.yaml": monitorsYaml(1) });
    await mkdir(join(p.dir, "plans"));
    // Outside Git, a plan file's repository is its own directory: plans/ does not hold the configuration.
    const run = await p.run(["plan", "config", "--out", "plans/p.json"], {
      env: { VIGIL_ENDPOINT: "http://127.0.0.1:9" },
    });
    expect(run.code, shown(run)).toBe(1);
    expect(run.stderr).toContain(
      `Error: --out plans/p.json: a saved plan must be inside the repository it is made for (${p.dir}/plans: outside Git, the directory holding plans/p.json), and the directory vigil plan runs in (${p.dir}) is not.`,
    );
    noStack(run);
  });
});

describe("apply --plan reads a plan file within bounds", { timeout: 120_000 }, () => {
  it("renders a plan of 200,000 warnings (past the stack's argument limit) and applies it", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1) });
    expect((await p.run(["plan", "--out", "plan.json"])).code).toBe(0);
    const plan = JSON.parse(await p.read("plan.json")) as Plan;
    plan.warnings = Array.from({ length: 200_000 }, (_, i) => `warning ${i}`);
    await p.write("plan.json", JSON.stringify(plan));
    const run = await p.run(["apply", "--plan", "plan.json"]);
    expect(run.code, shown(run)).toBe(0);
    noStack(run);
    expect(run.stdout).toContain("Warning: warning 199999\n");
    expect(run.stdout).toContain("Apply complete: 1 created.");
  });

  it("refuses a file larger than the bound, without reading it", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1) });
    // Sparse: 129 MiB that take no room on the disk, refused by their size before a byte is read.
    await writeFile(join(p.dir, "plan.json"), "");
    await truncate(join(p.dir, "plan.json"), 129 * 2 ** 20);
    const run = await p.run(["apply", "--plan", "plan.json"]);
    expect(run.code, shown(run)).toBe(1);
    expect(run.stderr).toBe(
      "Error: The plan file plan.json holds 129 MiB; a plan file holds at most 128 MiB. It was not read.\n",
    );
  });

  it("refuses values nested deeper than a configuration's, in one line", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1) });
    expect((await p.run(["plan", "--out", "plan.json"])).code).toBe(0);
    const text = await p.read("plan.json");
    const depth = 100_000;
    // The first change's value, an array nested 100,000 deep (400 KB: far from the size bound).
    await p.write(
      "plan.json",
      text.replace(/"value": [^\n]*\n/, `"value": ${"[".repeat(depth)}${"]".repeat(depth)},\n`),
    );
    const run = await p.run(["apply", "--plan", "plan.json"]);
    expect(run.code, shown(run)).toBe(1);
    expect(run.stderr).toMatch(
      /^Error: The plan file plan\.json nests values deeper than 72 levels \(at character [\d,]+\), more than any plan vigil makes; it was not read\.\n$/,
    );
    expect(await readFile(join(p.dir, "plan.json"), "utf8")).toContain("[[[[");
  });
});
