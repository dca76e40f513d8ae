import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { sandboxWorkspace, shown } from "./helpers.ts";

/**
 * `--sandbox`: the embedded sandbox and its own state (`.vigil/sandbox-state.json`, apart from the state of a
 * real account) outlive each process, in `.vigil/` of the workspace.
 */
const config = (interval: number) => `contacts:
  oncall: { type: http, address: https://hooks.example.com/pager }
monitors:
  web:
    type: http
    url: https://web.example.com/health
    name: Web
    interval: ${interval}
    locations: { pools: [westeurope] }
    alerts: [{ contact: oncall, alertTypes: [down, up] }]
webhooks:
  ops: { url: https://hooks.example.com/vigil, events: [monitor.down], scope: { monitors: [web] } }
`;

it.concurrent("keeps the account and the state between runs: apply, plan, change, state rm, import, destroy", async () => {
  const w = await sandboxWorkspace({ "main.yaml": config(60) });

  const apply = await w.run(["apply", "--sandbox", "--auto-approve"]);
  expect(apply.code, shown(apply)).toBe(0);
  expect(apply.stdout).toContain("Apply complete: 4 created.");
  // The webhook sets no secret: the one the service generated is kept beside the sandbox's state.
  expect((await readdir(join(w.dir, ".vigil"))).sort()).toEqual([
    "sandbox-outputs.json",
    "sandbox-state.history",
    "sandbox-state.json",
    "sandbox.json",
  ]);
  const real = await w.run(["state", "list"]);
  expect(real.code, shown(real)).toBe(1);
  expect(real.stderr).toBe(
    "Error: There is no state in file .vigil/state.json. Runs with --sandbox keep theirs apart: vigil state list --sandbox\n",
  );

  // A second process finds what the first one made.
  const unchanged = await w.run(["plan", "--sandbox", "--detailed-exitcode"]);
  expect(unchanged.code, shown(unchanged)).toBe(0);
  expect(unchanged.stdout).toContain("No changes. The account matches the configuration.");

  await w.write("main.yaml", config(120));
  const changed = await w.run(["plan", "--sandbox", "--detailed-exitcode"]);
  expect(changed.code, shown(changed)).toBe(2);
  expect(changed.stdout).toContain("~ monitors.web  update  (main.yaml:4)");
  expect(changed.stdout).toContain("~ interval: 60 → 120");
  expect(changed.stdout).toContain("Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.");
  const update = await w.run(["apply", "--sandbox", "--auto-approve"]);
  expect(update.code, shown(update)).toBe(0);
  expect(update.stdout).toContain("Apply complete: 1 updated.");

  const list = await w.run(["state", "list", "--sandbox"]);
  expect(list.code, shown(list)).toBe(0);
  expect(list.stdout.split("\n").map((l) => l.split(/\s+/)[0])).toEqual([
    "contacts.oncall",
    "monitors.web",
    "monitors.web.alerts.oncall",
    "webhooks.ops",
    "",
  ]);
  expect(list.stdout).toMatch(/^monitors\.web\s+monitor\s+[0-9a-f-]{36}$/m);

  // rm forgets the monitor and what nests under it; the objects stay, so the next plan adopts them by natural key.
  const rm = await w.run(["state", "rm", "monitors.web", "--sandbox"]);
  expect(rm.code, shown(rm)).toBe(0);
  expect(rm.stdout).toBe(
    "Removed monitors.web from the state; its object stays in the account.\n" +
      "Removed monitors.web.alerts.oncall from the state; its object stays in the account.\n",
  );
  const missing = await w.run(["state", "show", "monitors.web", "--sandbox"]);
  expect(missing.code, shown(missing)).toBe(1);
  expect(missing.stderr).toBe("Error: monitors.web is not in the state; vigil state list shows what is.\n");
  const adopt = await w.run(["plan", "--sandbox", "--detailed-exitcode"]);
  expect(adopt.code, shown(adopt)).toBe(2);
  expect(adopt.stdout).toContain("← monitors.web  import  (main.yaml:4)");
  expect(adopt.stdout).toContain("← monitors.web.alerts.oncall  import");
  expect(adopt.stdout).toContain("adopted by natural key");
  expect(adopt.stdout).not.toMatch(/^\s+\+ /m);
  expect(adopt.stdout).toContain(
    "Plan: 0 to add, 0 to change, 0 to replace, 0 to destroy.\nAlso 2 to import.",
  );
  const imported = await w.run(["apply", "--sandbox", "--auto-approve"]);
  expect(imported.code, shown(imported)).toBe(0);
  expect(imported.stdout).toContain("Apply complete: 2 imported.");
  expect((await w.run(["plan", "--sandbox", "--detailed-exitcode"])).code).toBe(0);

  const destroy = await w.run(["destroy", "--sandbox", "--auto-approve"]);
  expect(destroy.code, shown(destroy)).toBe(0);
  expect(destroy.stdout).toContain("Plan: 0 to add, 0 to change, 0 to replace, 4 to destroy.");
  expect(destroy.stdout).toContain("Apply complete: 4 deleted.");
  const empty = await w.run(["state", "list", "--sandbox"]);
  expect(empty.code, shown(empty)).toBe(0);
  expect(empty.stdout).toBe("");

  const again = await w.run(["plan", "--sandbox", "--detailed-exitcode"]);
  expect(again.code, shown(again)).toBe(2);
  expect(again.stdout).toContain("Plan: 4 to add, 0 to change, 0 to replace, 0 to destroy.");
}, 120_000);

it.concurrent("state rm of an address the state does not hold is 1 and removes nothing", async () => {
  const w = await sandboxWorkspace({ "main.yaml": config(60) });
  expect((await w.run(["apply", "--sandbox", "--auto-approve"])).code).toBe(0);
  const rm = await w.run(["state", "rm", "--sandbox", "monitors.web", "monitors.nope"]);
  expect(rm.code, shown(rm)).toBe(1);
  expect(rm.stderr).toBe("Error: monitors.nope is not in the state; nothing was removed.\n");
  expect((await w.run(["state", "list", "--sandbox"])).stdout).toContain("monitors.web.alerts.oncall");
}, 60_000);

it.concurrent("destroy with paths deletes only what those files declare, even when they reference other files", async () => {
  const w = await sandboxWorkspace({
    "main.yaml": config(60).replace(/webhooks:[\s\S]*$/, ""),
    "webhooks.yaml": `webhooks:\n  ops: { url: https://hooks.example.com/vigil, events: [monitor.down], scope: { monitors: [web] } }\n`,
  });
  expect((await w.run(["apply", ".", "--sandbox", "--auto-approve"])).code).toBe(0);

  const destroy = await w.run(["destroy", "webhooks.yaml", "--sandbox", "--auto-approve"]);
  expect(destroy.code, shown(destroy)).toBe(0);
  expect(destroy.stdout).toContain("Plan: 0 to add, 0 to change, 0 to replace, 1 to destroy.");
  expect(destroy.stdout).toContain("- webhooks.ops");
  const list = await w.run(["state", "list", "--sandbox"]);
  expect(list.stdout).toContain("monitors.web ");
  expect(list.stdout).not.toContain("webhooks.ops");

  // Nothing of that file is managed any more: nothing to do, and no call made.
  const again = await w.run(["destroy", "webhooks.yaml", "--sandbox", "--auto-approve"]);
  expect(again.code, shown(again)).toBe(0);
  expect(again.stdout).toBe(
    "Nothing to destroy: the state manages none of the resources those files declare.\n",
  );
}, 120_000);
