import { describe, expect, it } from "vitest";
import { sandboxWorkspace, shown } from "./helpers.ts";

/**
 * What `(sensitive)` covers in a plan: the secrets, where they sit and wherever their values appear, and
 * nothing else. A header value is a credential by declaration, so `X-Team: platform` is masked in its
 * member; it once masked every `platform` of the output too (the example repository's tags and the name of
 * its `monitors/platform.yaml`), since vigil searches the output for its secrets by value.
 */
const platform = `monitors:
  edge:
    type: http
    url: https://edge.example.com/
    tags: [platform, network]
    locations: { pools: [westeurope] }
  login:
    type: http
    url: https://login.example.com/
    locations: { pools: [westeurope] }
    settings: { username: probe, password: "\${env:MASK_SCOPE_PW}" }
`;
const webhooks = `webhooks:
  change-log:
    url: https://hooks.example.com/changes
    events: [monitor.created]
    scope: { all: true }
    headers: [{ header: X-Team, value: platform }]
`;
const password = "pw-Hq4Zt8Ln2Vc6";

describe("plan masks the secrets and nothing else", () => {
  it("a credential written openly elsewhere: masked in its member, its text shown in tags and file names", async () => {
    const w = await sandboxWorkspace({ "platform.yaml": platform, "webhooks.yaml": webhooks });
    const plan = await w.run(["plan", "--sandbox"], { MASK_SCOPE_PW: password });
    expect(plan.code, shown(plan)).toBe(0);
    expect(plan.stdout).toContain("+ monitors.edge  create  (platform.yaml:2)");
    expect(plan.stdout).toContain('+ tags: ["network","platform"]');
    expect(plan.stdout).toContain('+ headers: [{"header":"X-Team","value":(sensitive)}]');
    expect(plan.stdout).toContain("+ settings.password: (sensitive)");
    expect(`${plan.stdout}${plan.stderr}`).not.toContain(password);
  }, 60_000);

  it("a value from the environment: masked wherever it appears, but never in a file's name", async () => {
    const w = await sandboxWorkspace({
      "checkout.yaml": `monitors:
  shop-api:
    type: http
    url: https://shop.example.com/
    tags: [checkout]
    locations: { pools: [westeurope] }
    settings: { headers: [{ name: X-Team, value: "\${env:MASK_SCOPE_TEAM}" }] }
`,
    });
    const plan = await w.run(["plan", "--sandbox"], { MASK_SCOPE_TEAM: "checkout" });
    expect(plan.code, shown(plan)).toBe(0);
    expect(plan.stdout).toContain("+ monitors.shop-api  create  (checkout.yaml:2)");
    expect(plan.stdout).toContain('+ settings.headers: [{"name":"X-Team","value":(sensitive)}]');
    // The documented rule: a value from the environment is a secret, whatever else writes the same text.
    expect(plan.stdout).toContain("+ tags: (sensitive)");
  }, 60_000);
});
