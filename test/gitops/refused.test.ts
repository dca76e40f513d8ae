/**
 * The corpus of refused configurations (test/gitops/refused/<case>/): each is a small repo the service
 * refuses at apply. On Trial, Business and Enterprise accounts, `vigil plan` refuses it first, with the
 * API's code, the file:line:column and what is allowed, and sends no write; apply with the checks bypassed
 * shows the service answering that same code. The single-resource cases run through Terraform's
 * PlanResourceChange and Pulumi's Check too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveRefs } from "../../src/engine/refs.ts";
import { loadConfig } from "../../src/gitops/load.ts";
import { createHandlers as pulumiHandlers } from "../../src/pulumi/provider/handlers.ts";
import type { Props } from "../../src/pulumi/provider/values.ts";
import { resourceToken } from "../../src/pulumi/tokens.ts";
import type { ProviderHandlers } from "../../src/terraform/plugin/protocol.ts";
import { createHandlers as terraformHandlers } from "../../src/terraform/provider.ts";
import { resourceTypeName } from "../../src/terraform/schema.ts";
import { vigil, workspace } from "../cli/vigil.ts";
import { applyUnchecked, type PlanName, planCase, refusedCases } from "../helpers/refused.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { Core } from "../helpers/terraform-core.ts";

const cases = refusedCases();
const tiers: PlanName[] = ["trial", "business", "enterprise"];
const sandboxes = new Map<PlanName, TestSandbox>();

beforeAll(async () => {
  // One sandbox per tier: status page slugs are unique across a whole service.
  for (const tier of tiers) sandboxes.set(tier, await startTestSandbox());
});
afterAll(async () => {
  for (const sb of sandboxes.values()) await sb.close();
});

/** A fresh account of the tier, with the case's feature overrides. */
async function accountFor(tier: PlanName, overrides: Record<string, number | boolean> | undefined) {
  return sandboxes.get(tier)!.account({ plan: tier, ...(overrides && { featureOverrides: overrides }) });
}

it("covers every check the plan makes", () => {
  const codes = new Set(cases.flatMap((c) => Object.values(c.plans).map((e) => e!.code)));
  expect([...codes].sort()).toEqual([
    "contact_type_not_creatable",
    "duplicate_monitor",
    "duplicate_resource",
    "insufficient_agents",
    "interval_below_type_floor",
    "invalid_interval",
    "package_limit",
    "unknown_pool",
    "unsupported_report_channel",
    "validation_failed",
  ]);
  expect(cases.every((c) => Object.keys(c.plans).length > 0)).toBe(true);
});

describe.each(tiers)("on a %s account", (tier) => {
  const mine = cases.filter((c) => c.plans[tier]);

  it.each(mine.map((c) => [c.name, c] as const))(
    "%s: plan refuses it, with no write, as the service does",
    async (_name, c) => {
      const expected = c.plans[tier]!;
      const sb = sandboxes.get(tier)!;
      const planned = await planCase(sb, c.dir, (await accountFor(tier, c.overrides)).token);
      expect(planned.writes).toBe(0);
      const line = planned.lines.find(
        (l) => l.includes(` ${expected.code}: `) || l.includes(`${expected.code}:`),
      );
      expect(line, planned.lines.join("\n")).toBeDefined();
      expect(line!.startsWith(`${expected.at}: `), line).toBe(true);
      for (const text of expected.shows) expect(line).toContain(text);
      // The service, asked with no check in between, answers the code the plan predicted.
      const answered = await applyUnchecked(sb, c.dir, (await accountFor(tier, c.overrides)).token);
      expect(answered).toContain(expected.code);
    },
  );
});

it("vigil plan exits 1, names the code, the position and what is allowed", async () => {
  const sb = sandboxes.get("business")!;
  const account = await accountFor("business", undefined);
  const dir = await workspace({
    "vigil.yaml":
      "monitors:\n  api:\n    type: http\n    url: https://api.example.com/\n    interval: 45\n    locations: { pools: [europe] }\n",
  });
  await sb.admin.delete("/_sandbox/stats");
  const run = await vigil(["plan", "--endpoint", sb.url, "--token", account.token], { cwd: dir });
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr).toContain(
    "vigil.yaml:5:15: monitors.api interval: 422 invalid_interval: 45 seconds is not one of the account's intervals; allowed: 30, 60, 120, 180, 300, 600, 900, 1800, 3600",
  );
  expect(run.stderr).toContain(
    'vigil.yaml:6:26: monitors.api locations.pools[0]: 422 unknown_pool: "europe" is not a location pool; allowed: allworld,',
  );
  const stats = (await sb.admin.get("/_sandbox/stats")).body as { byRoute: Record<string, number> };
  expect(Object.keys(stats.byRoute).filter((r) => !r.startsWith("GET "))).toEqual([]);
}, 60_000);

/**
 * Cases of one resource without references: what Terraform and Pulumi plan one at a time. A report to a
 * contact that is not email needs the contact, another resource of the run, which they do not see.
 */
const single = cases.filter(
  (c) =>
    !["monitor-quota", "status-page-quota", "webhook-quota", "report-to-webhook-contact"].includes(c.name),
);

describe.each(tiers)("providers, on a %s account", (tier) => {
  const mine = single.filter((c) => c.plans[tier]);

  it.each(mine.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const expected = c.plans[tier]!;
    const sb = sandboxes.get(tier)!;
    const { resources } = await loadConfig([c.dir]);
    // The refused resource of a case is its last (a duplicate is the second of its key).
    const refused = resources.filter((r) => !r.address.includes(".reports.")).at(-1)!;
    const duplicate = expected.code.startsWith("duplicate_");
    const resource = c.name.startsWith("report-")
      ? resources.find((r) => r.address.includes(".reports."))!
      : refused;
    // References stand for ids of objects that exist by then.
    const members = resolveRefs(resource.members, () => "00000000-0000-4000-8000-000000000000") as Props;
    const account = await accountFor(tier, c.overrides);

    const tf = terraformHandlers({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
    const core = new Core(async (rpc, request) => tf[rpc as keyof ProviderHandlers](request as never));
    await core.configure();
    const typeName = resourceTypeName(resource.kind);
    const planned = core.plan(typeName, null, core.config(typeName, members));
    // Terraform plans one resource at a time: two resources of one key are a pair it never sees.
    if (duplicate) await expect(planned).resolves.toBeDefined();
    else {
      await expect(planned).rejects.toThrow(expected.code);
      const message = await planned.catch((e: Error) => e.message);
      // The diagnostics arrive as JSON: what is allowed, JSON-escaped.
      for (const text of expected.shows) expect(message).toContain(JSON.stringify(text).slice(1, -1));
    }

    const pulumi = pulumiHandlers({});
    pulumi.Configure({ args: { endpoint: sb.url, token: account.token } });
    const urn = `urn:pulumi:dev::refused::${resourceToken(resource.kind)}::${resource.address}`;
    const { failures } = await pulumi.Check({ urn, news: members });
    if (duplicate) expect(failures).toEqual([]);
    else expect(failures.map((f) => f.reason).join("\n")).toContain(`${expected.code}:`);
  });
});
