/**
 * Real terraform, stopped with Ctrl+C as a terminal sends it: a SIGINT to the whole process group, so the
 * provider gets it too. The provider ignores the signal, as Go providers do; Terraform stops starting
 * resources and waits for the write in flight, which ends, is answered and lands in Terraform's state. No
 * stack trace, and nothing created that no state holds (docs/cli.md, "Ctrl+C").
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type HoldingProxy, holdingProxy } from "../../helpers/holding-proxy.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { terraformWorkspace, type Workspace } from "../../helpers/terraform.ts";
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

resource "vigil_status_page" "status" {
  slug       = "interrupted-status"
  title      = "Status"
  depends_on = [vigil_maintenance.deploy]
}
`;

describeWithTerraform("terraform apply stopped with Ctrl+C", () => {
  let sb: TestSandbox;
  let proxy: HoldingProxy;
  let account: Client;
  let ws: Workspace;
  let dir: string;

  beforeAll(async () => {
    sb = await startTestSandbox();
    proxy = await holdingProxy(sb.url, (method, path) => method === "POST" && path === "/maintenance");
    account = await sb.account({ plan: "business" });
    ws = await terraformWorkspace({ env: { VIGIL_ENDPOINT: proxy.url, VIGIL_TOKEN: account.token } });
    dir = join(ws.root, "stopped");
    await mkdir(dir);
    await writeFile(join(dir, "main.tf"), config);
    await ws.ok(dir, "init", "-input=false");
  }, 180_000);
  afterAll(async () => {
    await proxy?.release();
    await proxy?.close();
    await ws?.remove();
    await sb?.close();
  });

  it("the provider lives through the signal: the write in flight ends in Terraform's state", {
    timeout: 180_000,
  }, async () => {
    // Its own process group, as a shell gives a command: the signal goes to terraform and its providers.
    const child = spawn("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], {
      cwd: dir,
      env: ws.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
    const exited = new Promise<number | null>((done) => child.once("close", done));
    await proxy.arrival();
    process.kill(-child.pid!, "SIGINT");
    await proxy.release();
    const code = await exited;
    const shown = stripVTControlCharacters(output);
    expect(shown).toContain("Interrupt received");
    expect(shown, shown).toMatch(/vigil_maintenance\.deploy: Creation complete/);
    expect(shown).not.toMatch(/\n\s+at |panic|plugin exited|Plugin did not respond|unexpected EOF/i);
    // Terraform stopped before the page, and says the run was halted.
    expect(code, shown).not.toBe(0);
    const state = await ws.ok(dir, "state", "list");
    expect(state.stdout.trim().split("\n")).toEqual(["vigil_maintenance.deploy"]);
    expect((await account.get("/maintenance")).body.data).toHaveLength(1);
    expect((await account.get("/statuspage")).body.data).toEqual([]);
  });
});
