/**
 * The monitoring of an example shop's API as a CDK for Terraform stack: every vigil resource kind and data
 * source, through the generated bindings (`vigil/cdktf`). `node examples/cdktf/main.ts` synthesizes it to
 * examples/cdktf/cdktf.out/stacks/shop-api-monitoring/cdk.tf.json, which plain Terraform applies with the
 * vigil provider (README.md).
 */
import { join, resolve } from "node:path";
import {
  App,
  LocalBackend,
  TerraformIterator,
  TerraformOutput,
  TerraformStack,
  TerraformVariable,
} from "cdktf";
import type { Construct } from "constructs";
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
  StatusPageTemplate,
  VigilProvider,
  Webhook,
} from "vigil/cdktf";

export const stackName = "shop-api-monitoring";

export class ShopApiMonitoringStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    // State beside cdk.tf.json (the stack's working directory): cdktf's default names an absolute path
    // under the directory synth ran in, which would tie the JSON to one machine.
    new LocalBackend(this, { path: "terraform.tfstate" });

    // No endpoint and no token in code: the provider reads VIGIL_ENDPOINT and VIGIL_TOKEN when Terraform runs it.
    new VigilProvider(this, "vigil");

    // Credentials come in as sensitive variables (TF_VAR_pager_token, ...): the synthesized JSON names them
    // and never holds their values, and Terraform keeps them out of plan output.
    const pagerToken = new TerraformVariable(this, "pager_token", {
      type: "string",
      sensitive: true,
      description: "Bearer token the on-call pager's webhook expects (a contact credential).",
    });
    const webhookSecret = new TerraformVariable(this, "webhook_secret", {
      type: "string",
      sensitive: true,
      description: "Signs every delivery of the incident-bot webhook: 16 to 128 characters.",
    });
    const apiPassword = new TerraformVariable(this, "api_password", {
      type: "string",
      sensitive: true,
      description: "Password of the API health endpoint's basic auth.",
    });
    const statusPageSlug = new TerraformVariable(this, "status_page_slug", {
      type: "string",
      default: "example-shop-api-status",
      description: "Public address of the status page; unique in the whole service.",
    });

    // --- Contacts: who hears about problems ---

    const pager = new Contact(this, "pager", {
      type: "http",
      name: "API on-call pager",
      address: "https://hooks.example.com/api-pager",
      mimeType: "application/json",
      httpHeaders: [{ header: "Authorization", value: `Bearer ${pagerToken.stringValue}` }],
    });
    const apiTeam = new Contact(this, "api_team", {
      type: "email",
      name: "API team",
      address: "api-team@example.com",
      activePeriod: { days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "18:00" },
    });
    const reports = new Contact(this, "reports", {
      type: "email",
      name: "API reports",
      address: "api-reports@example.com",
      language: "de",
      alertDelay: 10,
    });

    new ContactGroup(this, "api_oncall", {
      name: "API on call",
      members: [
        { contactId: pager.id, events: ["down", "up", "repeatedlyDown"] },
        { contactId: apiTeam.id, events: ["down", "up", "weekly"] },
      ],
    });

    // --- Monitors of three types ---

    const api = new Monitor(this, "api", {
      type: "http",
      url: "https://api.example.com/health",
      name: "Shop API",
      interval: 60,
      tags: ["api", "prod"],
      slaTarget: 99.9,
      locations: { pools: ["westeurope", "northamerica"] },
      recheck: { strategy: "minNumDown", minNumDown: 2 },
      settings: {
        method: "G",
        timeout: 10000,
        keywords: "ok",
        followRedirect: true,
        username: "probe",
        password: apiPassword.stringValue,
        certWatchDays: [30, 7],
        headers: [{ name: "Accept", value: "application/json" }],
      },
    });
    const gateway = new Monitor(this, "gateway", {
      type: "ping",
      url: "gateway.example.com",
      name: "API gateway",
      interval: 120,
      tags: ["platform"],
      locations: { pools: ["allworld"], fallback: "world" },
    });
    const database = new Monitor(this, "database_port", {
      type: "port",
      url: "db.example.com:5432",
      name: "Database port",
      interval: 300,
      tags: ["platform"],
      locations: { pools: ["westeurope"] },
      settings: { ssl: true },
    });

    // --- Subscriptions: which contact hears about which monitor ---

    new AlertSubscription(this, "api_pager", {
      monitorId: api.id,
      contactId: pager.id,
      alertTypes: ["down", "up"],
    });
    new AlertSubscription(this, "database_api_team", {
      monitorId: database.id,
      contactId: apiTeam.id,
      alertTypes: ["down", "up", "repeatedlyDown"],
    });
    new ReportSubscription(this, "api_reports", {
      monitorId: api.id,
      contactId: reports.id,
      frequencies: ["weekly", "monthly"],
    });

    // --- Planned downtime, the public status page, and event deliveries ---

    new Maintenance(this, "weekly_release", {
      name: "Weekly API release",
      from: 1799028000, // 2027-01-04T02:00:00Z
      to: 1799031600, // one hour later
      repeat: "weekly",
      monitorIds: [api.id, gateway.id],
      suppressAlerts: true,
    });

    const page = new StatusPage(this, "status", {
      slug: statusPageSlug.stringValue,
      title: "Example Shop API status",
      description: "Live availability of the shop's API.",
      theme: "auto",
      components: [
        { name: "API", monitorId: api.id },
        { name: "Gateway", monitorId: gateway.id },
        // A component without a monitor: its state is set by hand.
        { name: "Developer portal", manualState: "operational" },
      ],
    });

    // Saved incident text, ready when the API goes down. Templates have no update: a change replaces one.
    new StatusPageTemplate(this, "api_down", {
      pageId: page.id,
      title: "API unavailable",
      message: "Requests to the shop's API fail. We are working on it.",
      impact: "major",
    });

    new Webhook(this, "incident_bot", {
      name: "API incident bot",
      url: "https://hooks.example.com/vigil/api-incidents",
      events: ["monitor.down", "monitor.up", "incident.opened", "incident.closed"],
      scope: { tags: ["api"] },
      // Write-only: the API never shows it back, so Terraform keeps what was applied.
      secret: webhookSecret.stringValue,
      headers: [{ header: "X-Team", value: "api" }],
    });

    // --- Data sources ---

    const account = new DataVigilAccount(this, "account", {});
    const pools = new DataVigilAgentPools(this, "pools", {});
    const types = new DataVigilMonitorTypes(this, "types", {});
    // Looks the API monitor up by its natural key; the references make Terraform read it after the monitor exists.
    const apiLookup = new DataVigilMonitor(this, "api_lookup", { type: api.type, url: api.url });

    new TerraformOutput(this, "account_plan", { value: account.plan });
    new TerraformOutput(this, "pool_ids", {
      value: TerraformIterator.fromList(pools.pools).pluckProperty("id"),
    });
    new TerraformOutput(this, "browser_types", {
      description: "Monitor types checked by a browser fleet.",
      value: TerraformIterator.fromList(types.types).forExpressionForList(
        'val.type if val.fleet == "waterfall"',
      ),
    });
    new TerraformOutput(this, "monitor_ids", {
      value: { api: api.id, gateway: gateway.id, database_port: database.id },
    });
    new TerraformOutput(this, "api_state", {
      description: "The API monitor's state, read through the vigil_monitor data source.",
      value: apiLookup.state,
    });
    new TerraformOutput(this, "status_page_url", { value: page.publicUrl });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  // Beside this file, unless the cdktf CLI (which sets CDKTF_OUTDIR) runs the app.
  const app = new App({ outdir: process.env.CDKTF_OUTDIR ?? join(import.meta.dirname, "cdktf.out") });
  new ShopApiMonitoringStack(app, stackName);
  app.synth();
}
