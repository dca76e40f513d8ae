import { describe, expect, it } from "vitest";
import { project, shown, useSandbox } from "./helpers.ts";

/** `plan --refresh-only`, `--target`, `--refresh=false`, and `vigil import`. */
const sandbox = useSandbox();

const config = (b = "B") => `contacts:
  oncall: { type: http, address: https://hooks.example.com/pager, name: On call }
monitors:
  a:
    type: http
    url: https://a.example.com/health
    name: A
    interval: 60
    locations: { pools: [westeurope] }
    alerts: [{ contact: oncall, alertTypes: [down, up] }]
  b: { type: http, url: https://b.example.com/health, name: ${b}, interval: 60, locations: { pools: [westeurope] } }
`;

describe.concurrent("plan options and import", { timeout: 90_000 }, () => {
  it("--refresh-only shows what changed outside vigil, not the config's changes, and cannot be applied", async () => {
    const p = await project(sandbox(), { "main.yaml": config() });
    expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);

    const quiet = await p.run(["plan", "--refresh-only", "--detailed-exitcode"]);
    expect(quiet.code, shown(quiet)).toBe(0);
    expect(quiet.stdout).toContain("No objects changed outside vigil.");

    await p.write("main.yaml", config("Bee"));
    const drift = await p.account.patch(`/monitor/${await p.idOf("monitors.a")}`, { name: "A (by hand)" });
    expect(drift.status).toBe(200);
    const ro = await p.run(["plan", "--refresh-only", "--detailed-exitcode", "--out", "ro.json"]);
    expect(ro.code, shown(ro)).toBe(2);
    expect(ro.stdout).toContain(
      [
        "Objects changed outside vigil:",
        "(values as vigil applied them → as found in the account)",
        "",
        "  ~ monitors.a  (main.yaml:4)",
        '      ~ name: "A" → "A (by hand)"',
        "",
        "1 object changed outside vigil.",
      ].join("\n"),
    );
    expect(ro.stdout).not.toContain("monitors.b");

    const apply = await p.run(["apply", "--plan", "ro.json"]);
    expect(apply.code, shown(apply)).toBe(1);
    expect(apply.stderr).toBe(
      "Error: A refresh-only plan shows what changed outside vigil; it cannot be applied.\n",
    );
    expect(apply.stdout).toBe("");
    expect((await p.account.get(`/monitor/${await p.idOf("monitors.a")}`)).body.name).toBe("A (by hand)");

    // The ordinary plan has both: the drift restored and the config's change.
    const plan = await p.run(["plan"]);
    expect(plan.stdout).toContain('~ name: "A (by hand)" → "A"  (drift: changed outside vigil)');
    expect(plan.stdout).toContain('~ name: "B" → "Bee"');
  });

  it("--target plans only the targets, with what they need and what nests under them", async () => {
    const p = await project(sandbox(), { "main.yaml": config() });
    const plan = await p.run(["plan", "--target", "monitors.a", "--detailed-exitcode"]);
    expect(plan.code, shown(plan)).toBe(2);
    const headers = plan.stdout.split("\n").filter((l) => /^ {2}\S/.test(l));
    expect(headers).toEqual([
      "  + contacts.oncall  create  (main.yaml:2)",
      "  + monitors.a  create  (main.yaml:4)",
      "  + monitors.a.alerts.oncall  create  (main.yaml:10)",
    ]);
    expect(plan.stdout).toContain("Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy.");

    const two = await p.run(["plan", "--target", "monitors.b", "contacts.oncall"]);
    expect(two.code, shown(two)).toBe(0);
    expect(two.stdout).toContain("Plan: 2 to add, 0 to change, 0 to replace, 0 to destroy.");
    expect(two.stdout).not.toContain("monitors.a");
  });

  it("--refresh=false trusts the state: a config change shows, an edit that delta sync does not report does not", async () => {
    const p = await project(sandbox(), { "main.yaml": config("B0") });
    expect((await p.run(["apply", "--auto-approve"])).code).toBe(0);
    // The state keeps the sync cursors of the apply's own refresh, from before its creations (the next delta
    // sync sees them): a second apply moves them past. (One with nothing to do saves nothing, cursors neither.)
    await p.write("main.yaml", config());
    const again = await p.run(["apply", "--auto-approve"]);
    expect(again.stdout).toContain("Apply complete: 1 updated.");
    // Contacts' delta sync reports creations only: an out-of-band rename is seen by a full refresh alone.
    const drift = await p.account.patch(`/contact/${await p.idOf("contacts.oncall")}`, { name: "Renamed" });
    expect(drift.status).toBe(200);
    await p.write("main.yaml", config("Bee"));

    const trusted = await p.run(["plan", "--refresh=false"]);
    expect(trusted.code, shown(trusted)).toBe(0);
    expect(trusted.stdout).toContain('~ name: "B" → "Bee"');
    expect(trusted.stdout).not.toContain("contacts.oncall");
    expect(trusted.stdout).toContain("Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.");
    // Commander's spaced form too.
    expect((await p.run(["plan", "--refresh", "false"])).stdout).toBe(trusted.stdout);

    const full = await p.run(["plan"]);
    expect(full.stdout).toContain('~ name: "Renamed" → "On call"  (drift: changed outside vigil)');
    expect(full.stdout).toContain("Plan: 0 to add, 2 to change, 0 to replace, 0 to destroy.");
  });

  it("import brings an object made outside vigil under an address, asking only when it would change it", async () => {
    const p = await project(sandbox(), { "main.yaml": config() });
    const created = await p.account.post("/monitor", {
      type: "http",
      url: "https://b.example.com/health",
      name: "B",
      interval: 60,
      locations: { pools: ["westeurope"] },
    });
    expect(created.status, created.text).toBe(201);
    const id: string = created.body.id;

    const undeclared = await p.run(["import", "monitors.c", id]);
    expect(undeclared.code, shown(undeclared)).toBe(1);
    expect(undeclared.stderr).toBe(
      `Error: monitors.c is not declared in the configuration; declare it first, then import ${id} into it.\n`,
    );

    // Nothing would change: no terminal and no --auto-approve are needed.
    const imported = await p.run(["import", "monitors.b", id]);
    expect(imported.code, shown(imported)).toBe(0);
    expect(imported.stdout).toContain("← monitors.b  import  (main.yaml:11)");
    expect(imported.stdout).toContain("Apply complete: 1 imported.");
    expect(await p.idOf("monitors.b")).toBe(id);
    const state = JSON.parse(await p.read(".vigil/state.json"));
    expect(Object.keys(state.resources)).toEqual(["monitors.b"]);
    const plan = await p.run(["plan"]);
    expect(plan.stdout).toMatch(/Plan: 3 to add, 0 to change, 0 to replace, 0 to destroy\.\nAPI calls/);

    // An import that would change the object is an apply: it needs approval.
    const other = await p.account.post("/contact", {
      type: "http",
      address: "https://hooks.example.com/pager",
      name: "Pager",
    });
    expect(other.status, other.text).toBe(201);
    const refused = await p.run(["import", "contacts.oncall", other.body.id]);
    expect(refused.code, shown(refused)).toBe(1);
    expect(refused.stdout).toContain('~ name: "Pager" → "On call"');
    expect(refused.stderr).toContain("vigil import needs --auto-approve when it does not run in a terminal");
    expect((await p.account.get(`/contact/${other.body.id}`)).body.name).toBe("Pager");
    const approved = await p.run(["import", "contacts.oncall", other.body.id, "--auto-approve"]);
    expect(approved.code, shown(approved)).toBe(0);
    expect((await p.account.get(`/contact/${other.body.id}`)).body.name).toBe("On call");
  });
});
