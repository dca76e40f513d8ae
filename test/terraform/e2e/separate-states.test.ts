/**
 * Real terraform: two directories (two states, say two teams) declaring the same objects against one account.
 * Each write's idempotency key is its own planned change's, so the second directory never gets the first's
 * objects: its window is a second window, its monitor is refused as a duplicate naming the first's, and its
 * destroy deletes only what its state holds.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { described, terraformWorkspace, type Workspace } from "../../helpers/terraform.ts";
import { describeWithTerraform } from "./describe.ts";

const config = `terraform {
  required_providers {
    vigil = { source = "vigil/vigil" }
  }
}

provider "vigil" {}

resource "vigil_maintenance" "deploy" {
  name   = "Weekly deploy"
  from   = 1798941600
  to     = 1798945200
  repeat = "weekly"
}

resource "vigil_monitor" "shop" {
  type      = "http"
  url       = "https://shop.example.com/health"
  locations = { pools = ["allworld"] }
}

output "ids" {
  value = { maintenance = vigil_maintenance.deploy.id, monitor = vigil_monitor.shop.id }
}
`;

describeWithTerraform("two Terraform states declaring the same objects", () => {
  let sb: TestSandbox;
  let account: Client;
  let ws: Workspace;
  const dirs: Record<"team1" | "team2", string> = { team1: "", team2: "" };

  beforeAll(async () => {
    sb = await startTestSandbox();
    account = await sb.account({ plan: "business" });
    ws = await terraformWorkspace({ env: { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token } });
    for (const team of ["team1", "team2"] as const) {
      dirs[team] = join(ws.root, team);
      await mkdir(dirs[team]);
      await writeFile(join(dirs[team], "main.tf"), config);
      await ws.ok(dirs[team], "init", "-input=false");
    }
  }, 120_000);
  afterAll(async () => {
    await ws?.remove();
    await sb?.close();
  });

  const ids = async (dir: string) =>
    JSON.parse((await ws.ok(dir, "output", "-json", "ids")).stdout) as {
      maintenance: string;
      monitor: string;
    };
  /** The id a state holds at an address, from `terraform show -json`. */
  const idIn = async (dir: string, address: string) => {
    const shown = JSON.parse((await ws.ok(dir, "show", "-json")).stdout);
    const resources = (shown.values?.root_module?.resources ?? []) as {
      address: string;
      values: { id: string };
    }[];
    return resources.find((r) => r.address === address)?.values.id;
  };
  const listed = async (path: string) =>
    (await account.get(`${path}?limit=20`)).body.data as { id: string }[];

  it("never share an object: the second window is its own, its monitor a clear duplicate; a destroy takes its own only", {
    timeout: 180_000,
  }, async () => {
    await ws.ok(dirs.team1, "apply", "-auto-approve", "-input=false");
    const team1 = await ids(dirs.team1);

    const second = await ws.run(dirs.team2, "apply", "-auto-approve", "-input=false");
    expect(second.code, described(second)).toBe(1);
    const out = second.stderr.replace(/\s*│\s*/g, " ");
    expect(out).toContain("Could not create vigil_monitor");
    expect(out).toContain("409 duplicate_monitor");
    expect(out).toContain(`The object already exists as ${team1.monitor}`);
    const state2 = (await ws.ok(dirs.team2, "state", "list")).stdout.trim().split("\n");
    expect(state2).toEqual(["vigil_maintenance.deploy"]);
    const team2Window = await idIn(dirs.team2, "vigil_maintenance.deploy");
    expect(team2Window).toMatch(/./);
    expect(team2Window).not.toBe(team1.maintenance);
    expect((await listed("/maintenance")).map((w) => w.id).sort()).toEqual(
      [team1.maintenance, team2Window].sort(),
    );
    expect((await listed("/monitor")).map((m) => m.id)).toEqual([team1.monitor]);

    await ws.ok(dirs.team2, "destroy", "-auto-approve", "-input=false");
    expect((await listed("/maintenance")).map((w) => w.id)).toEqual([team1.maintenance]);
    expect((await listed("/monitor")).map((m) => m.id)).toEqual([team1.monitor]);
    const plan = await ws.run(dirs.team1, "plan", "-detailed-exitcode", "-input=false");
    expect(plan.code, described(plan)).toBe(0);
  });
});
