import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePlan } from "../../../src/engine/index.ts";
import { project, shown, useSandbox } from "./helpers.ts";

/** Guards against deleting by accident: an empty configuration, a kind left out, most of the state gone. */
const sandbox = useSandbox();

const monitor = (name: string) => `  ${name}:
    type: http
    url: https://${name}.guards.example.com/health
    interval: 60
    locations: { pools: [westeurope] }
`;
const monitors = (names: string[]) => `monitors:\n${names.map(monitor).join("")}`;
const contacts = `contacts:
  ops: { type: http, address: https://hooks.guards.example.com/ops }
  pager: { type: http, address: https://hooks.guards.example.com/pager }
  audit: { type: http, address: https://hooks.guards.example.com/audit }
`;
const names = ["web", "api", "shop", "blog", "docs", "status"];

/** Public API calls the sandbox has answered so far (its own `/_sandbox/` routes left out). */
async function publicCalls(): Promise<number> {
  const byRoute: Record<string, number> = (await sandbox().admin.get("/_sandbox/stats")).body.byRoute;
  return Object.entries(byRoute)
    .filter(([route]) => !route.includes(" /_sandbox/"))
    .reduce((n, [, count]) => n + count, 0);
}

describe("deletion guards", { timeout: 120_000 }, () => {
  it("an empty configuration is refused by plan and apply, with no call and no write; destroy still deletes", async () => {
    const p = await project(sandbox(), { "monitors.yaml": monitors(names), "contacts.yaml": contacts });
    const first = await p.run(["apply", "--auto-approve"]);
    expect(first.code, shown(first)).toBe(0);
    expect(first.stdout).toContain("Apply complete: 9 created.");

    // One empty YAML file: a valid configuration of no resources.
    await rm(join(p.dir, "monitors.yaml"));
    await rm(join(p.dir, "contacts.yaml"));
    await p.write("empty.yaml", "");
    const validate = await p.run(["validate"]);
    expect(validate.code, shown(validate)).toBe(0);
    expect(validate.stdout).toBe("The configuration is valid: 0 resources in 1 file.\n");

    const statePath = join(p.dir, ".vigil/state.json");
    const state = await readFile(statePath, "utf8");
    const mtime = (await stat(statePath)).mtimeMs;
    const calls = await publicCalls();
    for (const args of [
      ["plan"],
      ["plan", "--json"],
      ["plan", "--allow-mass-delete"],
      ["apply", "--auto-approve"],
      ["apply", "--auto-approve", "--allow-mass-delete"],
    ]) {
      const run = await p.run(args);
      expect(run.code, `${args.join(" ")}\n${shown(run)}`).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        'Error: The configuration declares no resources, yet the state manages 9 objects: applying it would delete every one of them. Nothing was planned or changed. Check that the files or directories given hold the configuration (an empty file, or a wrong path, reads as "no resources"). To delete everything vigil manages, run vigil destroy.\n',
      );
    }
    expect(await publicCalls()).toBe(calls);
    expect(await readFile(statePath, "utf8")).toBe(state);
    expect((await stat(statePath)).mtimeMs).toBe(mtime);
    expect((await p.account.get("/monitor")).body.data).toHaveLength(names.length);

    // Deleting everything is what destroy is for.
    const destroy = await p.run(["destroy", "--auto-approve"]);
    expect(destroy.code, shown(destroy)).toBe(0);
    expect(destroy.stdout).toContain("⚠ This plan deletes 9 objects from the account. There is no undo.");
    expect(destroy.stdout).toContain("Apply complete: 9 deleted.");
    expect((await p.account.get("/monitor")).body.data).toEqual([]);
  });

  it("a kind the configuration no longer declares (a file left out) needs --allow-mass-delete", async () => {
    const p = await project(sandbox(), { "monitors.yaml": monitors(names), "contacts.yaml": contacts });
    expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);
    const state = await p.read(".vigil/state.json");

    // Only the monitors' file given: the contacts would all go.
    for (const args of [
      ["plan", "monitors.yaml"],
      ["apply", "--auto-approve", "monitors.yaml"],
    ]) {
      const run = await p.run(args);
      expect(run.code, shown(run)).toBe(1);
      expect(run.stderr).toBe(
        "Error: The plan would delete all 3 contacts (the configuration declares no object of that kind): contacts.audit, contacts.ops, contacts.pager. That looks like a configuration given in part (a file or directory left out, or a wrong path) rather than an edit, so vigil stops; nothing was changed. If these deletions are intended, run again with --allow-mass-delete. To delete everything vigil manages, run vigil destroy.\n",
      );
    }
    expect(await p.read(".vigil/state.json")).toBe(state);
    expect((await p.account.get("/contact")).body.data).toHaveLength(3);

    // Allowed: the plan shows the deletions, counted, in every output.
    const plan = await p.run(["plan", "monitors.yaml", "--allow-mass-delete"]);
    expect(plan.code, shown(plan)).toBe(0);
    expect(plan.stdout).toContain("Plan: 0 to add, 0 to change, 0 to replace, 3 to destroy.");
    expect(plan.stdout.trimEnd().split("\n").at(-1)).toBe(
      "⚠ This plan deletes 3 objects from the account. There is no undo.",
    );
    const json = await p.run(["plan", "monitors.yaml", "--allow-mass-delete", "--json"]);
    expect(json.code, shown(json)).toBe(0);
    expect(json.stderr).toBe("Warning: This plan deletes 3 objects from the account. There is no undo.\n");
    expect(Object.keys(JSON.parse(json.stdout)).slice(0, 2)).toEqual(["format_version", "summary"]);
    expect(parsePlan(json.stdout).summary.delete).toBe(3);
    const markdown = await p.run(["plan", "monitors.yaml", "--allow-mass-delete", "--markdown"]);
    expect(markdown.stdout).toContain(
      "> [!CAUTION]\n> **This plan deletes 3 objects from the account. There is no undo.**",
    );

    const apply = await p.run(["apply", "--auto-approve", "--allow-mass-delete", "monitors.yaml"]);
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain("Apply complete: 3 deleted.");
    expect((await p.account.get("/contact")).body.data).toEqual([]);
  });

  it("a plan deleting most of what the state manages needs --allow-mass-delete; one delete does not", async () => {
    const eight = [...names, "news", "jobs"];
    const p = await project(sandbox(), { "monitors.yaml": monitors(eight) });
    expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);

    // An ordinary edit: one monitor removed.
    await p.write("monitors.yaml", monitors(eight.slice(1)));
    const one = await p.run(["apply", "--auto-approve"]);
    expect(one.code, shown(one)).toBe(0);
    expect(one.stdout).toContain("⚠ This plan deletes 1 object from the account. There is no undo.");
    expect(one.stdout).toContain("Apply complete: 1 deleted.");

    // Six of the seven left go: more than half.
    await p.write("monitors.yaml", monitors(["status"]));
    const most = await p.run(["plan"]);
    expect(most.code, shown(most)).toBe(1);
    expect(most.stderr).toMatch(
      /^Error: The plan would delete 6 objects of the 7 vigil manages: monitors\.api, monitors\.blog, monitors\.docs, monitors\.jobs, monitors\.news, monitors\.shop\. .* --allow-mass-delete\./,
    );
    const allowed = await p.run(["apply", "--auto-approve", "--allow-mass-delete"]);
    expect(allowed.code, shown(allowed)).toBe(0);
    expect(allowed.stdout).toContain("Apply complete: 6 deleted.");
    expect((await p.account.get("/monitor")).body.data).toHaveLength(1);
  });
});
