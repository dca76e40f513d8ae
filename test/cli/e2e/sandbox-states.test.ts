/**
 * `--sandbox`: each configuration planned from one directory keeps its own default state, so planning
 * another repository from a checkout never reads the checkout example's state (the plan used to refuse
 * with `monitors.checkout-api is protected: it is no longer in the config`, about a monitor the user never
 * wrote). The commands that read no configuration say which sandbox state they read, or how to choose.
 */
import { existsSync } from "node:fs";
import { cp } from "node:fs/promises";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { sandboxWorkspace, shown } from "./helpers.ts";

const example = resolve(import.meta.dirname, "../../../examples/gitops");

const mine = `monitors:
  home:
    type: http
    url: https://home.example.com/health
    name: Home
    interval: 300
    locations: { pools: [westeurope] }
`;

it.skipIf(!existsSync(example)).concurrent(
  "another repository planned from the checkout has its own sandbox state",
  async () => {
    const w = await sandboxWorkspace({ "mine/monitors.yaml": mine });
    await cp(example, join(w.dir, "examples/gitops"), { recursive: true });
    const apply = await w.run(["apply", "examples/gitops", "--sandbox", "--auto-approve"]);
    expect(apply.code, shown(apply)).toBe(0);

    const plan = await w.run(["plan", "mine", "--sandbox", "--detailed-exitcode"]);
    expect(plan.code, shown(plan)).toBe(2);
    expect(plan.stderr).not.toContain("checkout-api");
    expect(plan.stdout).not.toContain("checkout-api");
    expect(plan.stdout).toContain("+ monitors.home  create  (mine/monitors.yaml:2)");
    expect(plan.stdout).toContain("Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy.");
    expect((await w.run(["apply", "mine/", "--sandbox", "--auto-approve"])).code).toBe(0);

    // Each keeps to its own: the example's plan is still clean, whichever way its path is written.
    for (const path of ["examples/gitops", "./examples/gitops/", resolve(w.dir, "examples/gitops")]) {
      const again = await w.run(["plan", path, "--sandbox", "--detailed-exitcode"]);
      expect(again.code, `${path}\n${shown(again)}`).toBe(0);
    }
    const own = await w.run(["plan", "mine/monitors.yaml", "--sandbox", "--detailed-exitcode"]);
    expect(own.code, shown(own)).toBe(0);
    expect(existsSync(join(w.dir, ".vigil/sandbox-states/examples%2Fgitops/state.json"))).toBe(true);
    expect(existsSync(join(w.dir, ".vigil/sandbox-states/mine/state.json"))).toBe(true);
    expect(existsSync(join(w.dir, ".vigil/sandbox-state.json"))).toBe(false);

    // Without paths there are two to choose from: each is named, with how to choose it.
    const list = await w.run(["state", "list", "--sandbox"]);
    expect(list.code, shown(list)).toBe(1);
    expect(list.stderr).toBe(
      [
        "Error: This directory's configuration has no sandbox state (.vigil/sandbox-state.json), and several others do:",
        "  examples/gitops (.vigil/sandbox-states/examples%2Fgitops/state.json)",
        "  mine (.vigil/sandbox-states/mine/state.json)",
        "Choose one with --state FILE (the file in parentheses).",
        "",
      ].join("\n"),
    );
    const chosen = await w.run([
      "state",
      "list",
      "--sandbox",
      "--state",
      ".vigil/sandbox-states/mine/state.json",
    ]);
    expect(chosen.code, shown(chosen)).toBe(0);
    expect(chosen.stdout).toMatch(/^monitors\.home\s+monitor\s+[0-9a-f-]{36}\n$/);

    // destroy with paths acts on the state of the configuration those files are in.
    const destroy = await w.run(["destroy", "mine/monitors.yaml", "--sandbox", "--auto-approve"]);
    expect(destroy.code, shown(destroy)).toBe(0);
    expect(destroy.stdout).toContain("Apply complete: 1 deleted.");
  },
  180_000,
);

it.concurrent("a single other sandbox state is read by the commands without paths, saying which", async () => {
  const w = await sandboxWorkspace({ "mine/monitors.yaml": mine });
  expect((await w.run(["apply", "mine", "--sandbox", "--auto-approve"])).code).toBe(0);
  const list = await w.run(["state", "list", "--sandbox"]);
  expect(list.code, shown(list)).toBe(0);
  expect(list.stdout).toMatch(/^monitors\.home\s+monitor\s+/);
  expect(list.stderr).toBe(
    "Note: the sandbox state of mine (.vigil/sandbox-states/mine/state.json), the only one here.\n",
  );
  const destroy = await w.run(["destroy", "--sandbox", "--auto-approve"]);
  expect(destroy.code, shown(destroy)).toBe(0);
  expect(destroy.stdout).toContain("Apply complete: 1 deleted.");
}, 120_000);

it.concurrent("state list without --sandbox, next to a sandbox state, says where it is", async () => {
  const w = await sandboxWorkspace({ "main.yaml": mine });
  expect((await w.run(["apply", "--sandbox", "--auto-approve"])).code).toBe(0);
  const list = await w.run(["state", "list"]);
  expect(list.code, shown(list)).toBe(1);
  expect(list.stderr).toBe(
    "Error: There is no state in file .vigil/state.json. Runs with --sandbox keep theirs apart: vigil state list --sandbox\n",
  );
  const show = await w.run(["state", "show", "monitors.home"]);
  expect(show.stderr).toContain("Runs with --sandbox keep theirs apart: vigil state show --sandbox\n");
}, 120_000);
