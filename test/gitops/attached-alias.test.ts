/**
 * A monitor's `attached` is the same member as `settings.attached` (the spec: "Same as settings.attached").
 * Written in both places, the engine and the service could each keep a different one of them, and every plan
 * after apply showed a change again. Every frontend refuses it offline, at the member, through the monitor
 * kind's rule; either spelling alone applies and then plans no change.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { displayName } from "../../src/gitops/files.ts";
import { formatDiagnostic, loadConfig } from "../../src/gitops/load.ts";
import { createHandlers as pulumiHandlers } from "../../src/pulumi/provider/handlers.ts";
import { resourceToken } from "../../src/pulumi/tokens.ts";
import type { ProviderHandlers } from "../../src/terraform/plugin/protocol.ts";
import { createHandlers as terraformHandlers } from "../../src/terraform/provider.ts";
import { sandboxWorkspace, shown } from "../cli/e2e/helpers.ts";
import { workspace } from "../cli/vigil.ts";
import { Core } from "../helpers/terraform-core.ts";

const refusal =
  "422 validation_failed: attached is the same member as settings.attached (an alias of it); write the sub-checks in one of them, settings.attached (where the service reads them back), not both";

const both = {
  type: "http",
  url: "https://both.example.com/",
  locations: { pools: ["westeurope"] },
  // Toggles as objects: Terraform types each as one.
  attached: { sslExp: { enabled: true } },
  settings: { attached: { sslExp: { enabled: false }, domainExp: { enabled: true } } },
};

describe("attached and settings.attached in one monitor", () => {
  it("are refused by vigil validate and plan at the alias's file:line:column, saying which to write", async () => {
    const dir = await workspace({
      "m.yaml": `monitors:
  web:
    type: http
    url: https://web.example.com/
    locations: { pools: [westeurope] }
    attached: { sslExp: true }
    settings:
      attached: { sslExp: false, domainExp: true }
`,
    });
    const config = await loadConfig([dir], { env: {} });
    expect(config.diagnostics.map(formatDiagnostic)).toEqual([
      `${displayName(join(dir, "m.yaml"))}:6:15: monitors.web attached: ${refusal}`,
    ]);
  });

  it("are refused by Terraform's validation and Pulumi's check alike", async () => {
    const tf = terraformHandlers({});
    const core = new Core(async (rpc, request) => tf[rpc as keyof ProviderHandlers](request as never));
    const diagnostics = await core.validate("vigil_monitor", core.config("vigil_monitor", both));
    expect(diagnostics.filter((d) => d.severity === "ERROR").map((d) => d.detail)).toEqual([
      expect.stringContaining("attached is the same member as settings.attached"),
    ]);

    const pulumi = pulumiHandlers({});
    const urn = `urn:pulumi:dev::alias::${resourceToken("monitor")}::web`;
    const { failures } = await pulumi.Check({ urn, news: both });
    expect(failures).toEqual([
      {
        property: "attached",
        reason: expect.stringContaining("attached is the same member as settings.attached"),
      },
    ]);
  });

  it("either one alone applies, and the next plan shows no change", async () => {
    const w = await sandboxWorkspace({
      "m.yaml": `monitors:
  alias:
    type: http
    url: https://alias.example.com/
    locations: { pools: [westeurope] }
    attached: { sslExp: true, domainExp: false }
  nested:
    type: http
    url: https://nested.example.com/
    locations: { pools: [westeurope] }
    settings:
      attached: { sslExp: { enabled: true }, webRisk: false }
`,
    });
    const apply = await w.run(["apply", "--sandbox", "--auto-approve"]);
    expect(apply.code, shown(apply)).toBe(0);
    expect(apply.stdout).toContain("Apply complete: 2 created.");
    const plan = await w.run(["plan", "--sandbox", "--detailed-exitcode"]);
    expect(plan.code, shown(plan)).toBe(0);
    expect(plan.stdout).toContain("No changes. The account matches the configuration.");
  }, 60_000);
});
