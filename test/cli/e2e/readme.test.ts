import { existsSync, readFileSync } from "node:fs";
import { cp } from "node:fs/promises";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { sandboxWorkspace, shown } from "./helpers.ts";

/**
 * The README's main command, `npx vigil apply examples/gitops --sandbox --auto-approve`, on whatever the
 * example holds: it works with no account and no environment (the example's credentials have `${env:...:-default}`
 * defaults), and a plan right after finds nothing to change. The example is copied so that `.vigil/` is made in
 * a temporary directory, not in the repository.
 */
const example = resolve(import.meta.dirname, "../../../examples/gitops");

it.skipIf(!existsSync(example))(
  "vigil apply examples/gitops --sandbox --auto-approve, then a plan with no changes",
  async () => {
    const w = await sandboxWorkspace({});
    await cp(example, join(w.dir, "examples/gitops"), { recursive: true });

    const apply = await w.run(["apply", "examples/gitops", "--sandbox", "--auto-approve"]);
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toMatch(/^Apply complete: \d+ created\.$/m);
    // Nothing but read progress, which a read slower than 5 s (a busy machine) prints without a terminal.
    expect(apply.stderr.replace(/^Reading the account: .*\n/gm, "")).toBe("");
    // docs/cli.md states what this run costs: its figures are this run's.
    const stated =
      /`API calls: (\d+) reads, (\d+) writes in all\.` \(the example repo's first apply with `--sandbox`: (\d+) objects/.exec(
        readFileSync(resolve(import.meta.dirname, "../../../docs/cli.md"), "utf8"),
      );
    expect(stated, "docs/cli.md states the example's first apply").not.toBeNull();
    const [, reads, writes, objects] = stated!;
    expect(apply.stdout).toContain(`Apply complete: ${objects} created.\n`);
    expect(apply.stdout).toContain(`API calls: ${reads} reads, ${writes} writes in all.\n`);

    const plan = await w.run(["plan", "examples/gitops", "--sandbox", "--detailed-exitcode"]);
    expect(plan.code, shown(plan)).toBe(0);
    expect(plan.stdout).toContain("No changes. The account matches the configuration.");
  },
  120_000,
);
