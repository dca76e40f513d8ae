/**
 * examples/cdktf: the stack synthesizes with every resource kind and data source, the values and
 * references it declares, its credentials only as sensitive variables, and JSON that fits provider.json;
 * `node examples/cdktf/main.ts` writes cdktf.out (JSON, or HCL for `cdktf synth --hcl`).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Testing } from "cdktf";
import {
  AlertSubscription,
  Contact,
  ContactGroup,
  DataVigilAccount,
  DataVigilAgentPools,
  DataVigilMonitor,
  DataVigilMonitorTypes,
  Maintenance,
  Monitor,
  ReportSubscription,
  StatusPage,
  VigilProvider,
  Webhook,
} from "vigil/cdktf";
import { beforeAll, describe, expect, it } from "vitest";
import { ShopApiMonitoringStack, stackName } from "../../examples/cdktf/main.ts";
import { providerJson, schemaProblems } from "./conformance.ts";
import "./matchers.ts";

const mainTs = join(import.meta.dirname, "../../examples/cdktf/main.ts");

let synth: string;
let stack: Record<string, any>;

beforeAll(() => {
  synth = Testing.synth(new ShopApiMonitoringStack(Testing.app(), stackName));
  stack = JSON.parse(synth);
});

/** The synthesized stack's resources and data sources without cdktf's "//" metadata. */
function withoutMetadata(section: Record<string, Record<string, Record<string, unknown>>>) {
  return Object.fromEntries(
    Object.entries(section).map(([type, blocks]) => [
      type,
      Object.fromEntries(
        Object.entries(blocks).map(([name, { "//": _, ...attributes }]) => [name, attributes]),
      ),
    ]),
  );
}

describe("examples/cdktf synthesized with Testing.synth", () => {
  it("declares every resource type and data source of provider.json", () => {
    expect(Object.keys(stack.resource).sort()).toEqual(Object.keys(providerJson.resource_schemas!).sort());
    expect(Object.keys(stack.data).sort()).toEqual(Object.keys(providerJson.data_source_schemas!).sort());
  });

  it("uses only attributes provider.json has, settable ones, with their types, and every required one", () => {
    expect(schemaProblems(synth)).toEqual([]);
  });

  it("configures the provider with nothing: endpoint and token come from VIGIL_ENDPOINT and VIGIL_TOKEN", () => {
    expect(synth).toHaveProvider(VigilProvider);
    expect(stack.provider).toEqual({ vigil: [{}] });
    expect(stack.terraform.required_providers).toEqual({
      vigil: { source: "vigil/vigil", version: "~> 0.1" },
    });
  });

  it("takes every credential from a sensitive variable, never a value in the JSON", () => {
    for (const name of ["pager_token", "webhook_secret", "api_password"]) {
      expect(stack.variable[name]).toMatchObject({ type: "string", sensitive: true });
      expect(stack.variable[name].default).toBeUndefined();
    }
    expect(stack.variable.status_page_slug).toEqual(
      expect.objectContaining({ default: "example-shop-api-status" }),
    );
    expect(stack.variable.status_page_slug.sensitive).toBeUndefined();
    expect(stack.resource.vigil_contact.pager.http_headers).toEqual([
      { header: "Authorization", value: "Bearer ${var.pager_token}" },
    ]);
    expect(stack.resource.vigil_monitor.api.settings.password).toBe("${var.api_password}");
    expect(stack.resource.vigil_webhook.incident_bot.secret).toBe("${var.webhook_secret}");
  });

  it("declares monitors of three types with their settings", () => {
    expect(synth).toHaveResourceWithProperties(Monitor, {
      type: "http",
      url: "https://api.example.com/health",
      name: "Shop API",
      interval: 60,
      tags: ["api", "prod"],
      sla_target: 99.9,
      locations: { pools: ["westeurope", "northamerica"] },
      recheck: { strategy: "minNumDown", min_num_down: 2 },
      settings: expect.objectContaining({
        method: "G",
        timeout: 10000,
        follow_redirect: true,
        cert_watch_days: [30, 7],
        headers: [{ name: "Accept", value: "application/json" }],
      }),
    });
    expect(synth).toHaveResourceWithProperties(Monitor, {
      type: "ping",
      url: "gateway.example.com",
      locations: { pools: ["allworld"], fallback: "world" },
    });
    expect(synth).toHaveResourceWithProperties(Monitor, { type: "port", settings: { ssl: true } });
    expect(synth).not.toHaveResourceWithProperties(Monitor, { type: "dnsbl" });
  });

  it("declares contacts and a contact group whose members reference them", () => {
    expect(synth).toHaveResourceWithProperties(Contact, {
      type: "http",
      address: "https://hooks.example.com/api-pager",
      mime_type: "application/json",
    });
    expect(synth).toHaveResourceWithProperties(Contact, {
      type: "email",
      active_period: { days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "18:00" },
    });
    expect(synth).toHaveResourceWithProperties(Contact, { language: "de", alert_delay: 10 });
    expect(synth).toHaveResourceWithProperties(ContactGroup, {
      name: "API on call",
      members: [
        { contact_id: "${vigil_contact.pager.id}", events: ["down", "up", "repeatedlyDown"] },
        { contact_id: "${vigil_contact.api_team.id}", events: ["down", "up", "weekly"] },
      ],
    });
  });

  it("subscribes contacts to monitors through references", () => {
    expect(synth).toHaveResourceWithProperties(AlertSubscription, {
      monitor_id: "${vigil_monitor.api.id}",
      contact_id: "${vigil_contact.pager.id}",
      alert_types: ["down", "up"],
    });
    expect(synth).toHaveResourceWithProperties(AlertSubscription, {
      monitor_id: "${vigil_monitor.database_port.id}",
      contact_id: "${vigil_contact.api_team.id}",
    });
    expect(synth).toHaveResourceWithProperties(ReportSubscription, {
      monitor_id: "${vigil_monitor.api.id}",
      contact_id: "${vigil_contact.reports.id}",
      frequencies: ["weekly", "monthly"],
    });
  });

  it("declares a weekly maintenance window, a status page and a signed webhook", () => {
    expect(synth).toHaveResourceWithProperties(Maintenance, {
      name: "Weekly API release",
      from: 1799028000,
      to: 1799031600,
      repeat: "weekly",
      suppress_alerts: true,
      monitor_ids: ["${vigil_monitor.api.id}", "${vigil_monitor.gateway.id}"],
    });
    expect(synth).toHaveResourceWithProperties(StatusPage, {
      slug: "${var.status_page_slug}",
      theme: "auto",
      components: [
        { name: "API", monitor_id: "${vigil_monitor.api.id}" },
        { name: "Gateway", monitor_id: "${vigil_monitor.gateway.id}" },
        { name: "Developer portal", manual_state: "operational" },
      ],
    });
    expect(synth).toHaveResourceWithProperties(Webhook, {
      url: "https://hooks.example.com/vigil/api-incidents",
      events: ["monitor.down", "monitor.up", "incident.opened", "incident.closed"],
      scope: { tags: ["api"] },
      headers: [{ header: "X-Team", value: "api" }],
    });
  });

  it("reads the data sources, the monitor one by the natural key of a managed monitor", () => {
    expect(synth).toHaveDataSource(DataVigilAccount);
    expect(synth).toHaveDataSource(DataVigilAgentPools);
    expect(synth).toHaveDataSource(DataVigilMonitorTypes);
    expect(synth).toHaveDataSourceWithProperties(DataVigilMonitor, {
      type: "${vigil_monitor.api.type}",
      url: "${vigil_monitor.api.url}",
    });
    expect(stack.output.account_plan.value).toBe("${data.vigil_account.account.plan}");
    expect(stack.output.api_state.value).toBe("${data.vigil_monitor.api_lookup.state}");
    expect(stack.output.pool_ids.value).toContain("data.vigil_agent_pools.pools.pools");
    expect(stack.output.status_page_url.value).toBe("${vigil_status_page.status.public_url}");
  });
});

describe("node examples/cdktf/main.ts", () => {
  async function synthesizeTo(env: Record<string, string>) {
    const outdir = await mkdtemp(join(tmpdir(), "vigil-cdktf-out-"));
    await promisify(execFile)(process.execPath, ["--no-deprecation", mainTs], {
      env: { ...process.env, CDKTF_OUTDIR: outdir, ...env },
    });
    return outdir;
  }

  it("writes cdktf.out/stacks/<name>/cdk.tf.json: the stack Testing.synth renders, with local state beside it", async () => {
    const outdir = await synthesizeTo({});
    try {
      const manifest = JSON.parse(await readFile(join(outdir, "manifest.json"), "utf8"));
      expect(manifest.stacks[stackName].synthesizedStackPath).toBe(`stacks/${stackName}/cdk.tf.json`);
      const written = JSON.parse(await readFile(join(outdir, "stacks", stackName, "cdk.tf.json"), "utf8"));
      expect(withoutMetadata(written.resource)).toEqual(stack.resource);
      expect(withoutMetadata(written.data)).toEqual(stack.data);
      expect(written.variable).toEqual(stack.variable);
      expect(written.terraform.backend).toEqual({ local: { path: "terraform.tfstate" } });
      expect(schemaProblems(JSON.stringify(written))).toEqual([]);
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });

  it("writes HCL with nested attributes as arguments (`name = {...}`), never as blocks, when asked as `cdktf synth --hcl` asks", async () => {
    const outdir = await synthesizeTo({ SYNTH_HCL_OUTPUT: "true" });
    try {
      const hcl = await readFile(join(outdir, "stacks", stackName, "cdk.tf"), "utf8");
      expect(hcl).toContain('resource "vigil_monitor" "api" {');
      expect(hcl).toMatch(/^settings = \{$/m);
      expect(hcl).toMatch(/^http_headers = \[$/m);
      expect(hcl).toMatch(/^value = "Bearer \$\{var\.pager_token\}"$/m);
      const nestedNames = new Set<string>();
      const collect = (attributes: Record<string, any>) => {
        for (const [name, attribute] of Object.entries(attributes)) {
          if (!attribute.nested_type) continue;
          nestedNames.add(name);
          collect(attribute.nested_type.attributes);
        }
      };
      for (const schema of Object.values(providerJson.resource_schemas!)) collect(schema.block.attributes!);
      const blockLines = hcl
        .split("\n")
        .filter((line) => nestedNames.has(line.match(/^(\w+) \{$/)?.[1] ?? ""));
      expect(blockLines).toEqual([]);
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
