import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { described, terraformWorkspace, type Workspace } from "../../helpers/terraform.ts";
import { describeWithTerraform } from "./describe.ts";

/** Real terraform: `terraform plan` refuses what the account would refuse, at the attribute, with no write. */
describeWithTerraform("terraform plan against the account", () => {
  let sb: TestSandbox;
  let ws: Workspace;
  let dir: string;

  beforeAll(async () => {
    sb = await startTestSandbox();
    const account = await sb.account({ plan: "business" });
    ws = await terraformWorkspace({ env: { VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token } });
    dir = join(ws.root, "refused");
    await mkdir(dir);
    await writeFile(
      join(dir, "main.tf"),
      `terraform {
  required_providers {
    vigil = { source = "vigil/vigil" }
  }
}

provider "vigil" {}

resource "vigil_monitor" "api" {
  type      = "http"
  url       = "https://api.example.com/"
  interval  = 45
  locations = { pools = ["europe"] }
}
`,
    );
    await ws.ok(dir, "init", "-input=false");
  }, 120_000);
  afterAll(async () => {
    await ws?.remove();
    await sb?.close();
  });

  it("exits 1 naming the code, the attribute and what is allowed; nothing is written", {
    timeout: 60_000,
  }, async () => {
    await sb.admin.delete("/_sandbox/stats");
    const plan = await ws.run(dir, "plan", "-input=false");
    expect(plan.code, described(plan)).toBe(1);
    const out = plan.stderr.replace(/\s*│\s*/g, " ");
    expect(out).toContain("Invalid interval");
    expect(out).toContain(
      "422 invalid_interval: 45 seconds is not one of the account's intervals; allowed: 30, 60, 120, 180, 300, 600, 900, 1800, 3600",
    );
    expect(out).toContain('422 unknown_pool: "europe" is not a location pool; allowed: allworld,');
    const stats = (await sb.admin.get("/_sandbox/stats")).body as { byRoute: Record<string, number> };
    expect(Object.keys(stats.byRoute).filter((r) => !r.startsWith("GET "))).toEqual([]);
  });
});
