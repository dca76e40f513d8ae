/**
 * `plan --out` ends with the command that applies the saved plan, and that command works as printed: a
 * plan made on the embedded sandbox says `--sandbox` (it used to print `vigil apply --plan FILE`, which
 * then failed with "No API endpoint"), a state file given as a flag is repeated. A sandbox plan is applied
 * only with `--sandbox`, and a plan made against an endpoint never on the embedded sandbox.
 */
import { describe, expect, it } from "vitest";
import { project, sandboxWorkspace, shown, useSandbox } from "./helpers.ts";
import { monitorsYaml } from "./monitors.ts";

const sandbox = useSandbox();

/** The command `plan --out` suggested, as words (the suggestion quotes nothing these tests use). */
function suggested(stderr: string): string[] {
  const line = /^Saved the plan to \S+; apply it with vigil (.*)$/m.exec(stderr);
  expect(line, stderr).not.toBeNull();
  return line![1]!.split(" ");
}

describe("the command plan --out suggests", { timeout: 120_000 }, () => {
  it.concurrent("a sandbox plan: --sandbox, and the command works as printed", async () => {
    const w = await sandboxWorkspace({ "main.yaml": monitorsYaml(2) });
    const plan = await w.run(["plan", "--sandbox", "--out", "plan.json"]);
    expect(plan.code, shown(plan)).toBe(0);
    expect(plan.stderr).toContain(
      "Saved the plan to plan.json; apply it with vigil apply --plan plan.json --sandbox\n",
    );
    // Without --sandbox it is refused before anything is read: no "No API endpoint".
    const bare = await w.run(["apply", "--plan", "plan.json"]);
    expect(bare.code, shown(bare)).toBe(1);
    expect(bare.stderr).toBe(
      "Error: The plan plan.json was made on the embedded sandbox (vigil plan --sandbox): apply it there with vigil apply --plan plan.json --sandbox. Nothing was read or sent.\n",
    );
    const apply = await w.run(suggested(plan.stderr));
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain("Apply complete: 2 created.");
    const after = await w.run(["plan", "--sandbox", "--detailed-exitcode"]);
    expect(after.code, shown(after)).toBe(0);
  });

  it.concurrent("a sandbox plan of another directory's configuration, from the checkout", async () => {
    const w = await sandboxWorkspace({ "repo/main.yaml": monitorsYaml(1) });
    const plan = await w.run(["plan", "repo", "--sandbox", "--out", "repo.plan.json"]);
    expect(plan.code, shown(plan)).toBe(0);
    const apply = await w.run(suggested(plan.stderr));
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain("Apply complete: 1 created.");
    expect((await w.run(["plan", "repo", "--sandbox", "--detailed-exitcode"])).code).toBe(0);
  });

  it.concurrent("a state file given as a flag is repeated; an endpoint plan is refused on the sandbox", async () => {
    const p = await project(sandbox(), { "main.yaml": monitorsYaml(1) });
    const plan = await p.run(["plan", "--state", "mine.json", "--out", "plan.json"]);
    expect(plan.code, shown(plan)).toBe(0);
    expect(suggested(plan.stderr)).toEqual(["apply", "--plan", "plan.json", "--state", "mine.json"]);
    const onSandbox = await p.run(["apply", "--plan", "plan.json", "--state", "mine.json", "--sandbox"]);
    expect(onSandbox.code, shown(onSandbox)).toBe(1);
    expect(onSandbox.stderr).toContain(
      "The plan plan.json was made against an API endpoint, not the embedded sandbox",
    );
    const apply = await p.run(suggested(plan.stderr));
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain("Apply complete: 1 created.");
  });
});
