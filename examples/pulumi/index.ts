/**
 * The monitoring of an example shop's API as a Pulumi program: every vigil resource kind and function, through
 * the vigil SDK (`vigil/pulumi`). The provider reads `vigil:endpoint` and the secret `vigil:token` from the
 * stack's config (Pulumi.dev.yaml), or VIGIL_ENDPOINT and VIGIL_TOKEN.
 */
import * as pulumi from "@pulumi/pulumi";
import {
  AlertSubscription,
  Contact,
  ContactGroup,
  getAccountOutput,
  getAgentPoolsOutput,
  getMonitorTypesOutput,
  MaintenanceWindow,
  Monitor,
  ReportSubscription,
  StatusPage,
  StatusPageTemplate,
  Webhook,
} from "vigil/pulumi";

// Credentials are stack secrets (`pulumi config set --secret ...`): Pulumi keeps them encrypted in the
// state, and the provider marks them secret again in every output.
const config = new pulumi.Config();
const pagerToken = config.requireSecret("pagerToken");
const webhookSecret = config.requireSecret("webhookSecret");
const apiPassword = config.requireSecret("apiPassword");
const statusPageSlug = config.get("statusPageSlug") ?? "example-shop-api-status";

// --- Contacts: who hears about problems ---

const pager = new Contact("pager", {
  type: "http",
  name: "API on-call pager",
  address: "https://hooks.example.com/api-pager",
  mimeType: "application/json",
  httpHeaders: [{ header: "Authorization", value: pulumi.interpolate`Bearer ${pagerToken}` }],
});
const apiTeam = new Contact("api-team", {
  type: "email",
  name: "API team",
  address: "api-team@example.com",
  activePeriod: { days: ["mon", "tue", "wed", "thu", "fri"], from: "08:00", to: "18:00" },
});
const reports = new Contact("reports", {
  type: "email",
  name: "API reports",
  address: "api-reports@example.com",
  language: "de",
  alertDelay: 10,
});

new ContactGroup("api-oncall", {
  name: "API on call",
  members: [
    { contactId: pager.id, events: ["down", "up", "repeatedlyDown"] },
    { contactId: apiTeam.id, events: ["down", "up", "weekly"] },
  ],
});

// --- Monitors of three types ---

const api = new Monitor("api", {
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
    password: apiPassword,
    certWatchDays: [30, 7],
    headers: [{ name: "Accept", value: "application/json" }],
  },
});
const gateway = new Monitor("gateway", {
  type: "ping",
  url: "gateway.example.com",
  name: "API gateway",
  interval: 120,
  tags: ["platform"],
  locations: { pools: ["allworld"], fallback: "world" },
});
const database = new Monitor("database-port", {
  type: "port",
  url: "db.example.com:5432",
  name: "Database port",
  interval: 300,
  tags: ["platform"],
  locations: { pools: ["westeurope"] },
  settings: { ssl: true },
});

// --- Subscriptions: which contact hears about which monitor ---

new AlertSubscription("api-pager", {
  monitorId: api.id,
  contactId: pager.id,
  alertTypes: ["down", "up"],
});
new AlertSubscription("database-api-team", {
  monitorId: database.id,
  contactId: apiTeam.id,
  alertTypes: ["down", "up", "repeatedlyDown"],
});
new ReportSubscription("api-reports", {
  monitorId: api.id,
  contactId: reports.id,
  frequencies: ["weekly", "monthly"],
});

// --- Planned downtime, the public status page, and event deliveries ---

new MaintenanceWindow("weekly-release", {
  name: "Weekly API release",
  from: 1799028000, // 2027-01-04T02:00:00Z
  to: 1799031600, // one hour later
  repeat: "weekly",
  monitorIds: [api.id, gateway.id],
  suppressAlerts: true,
});

const page = new StatusPage("status", {
  slug: statusPageSlug,
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
const apiDown = new StatusPageTemplate("api-down", {
  pageId: page.id,
  title: "API unavailable",
  message: "Requests to the shop's API fail. We are working on it.",
  impact: "major",
});

new Webhook("incident-bot", {
  name: "API incident bot",
  url: "https://hooks.example.com/vigil/api-incidents",
  events: ["monitor.down", "monitor.up", "incident.opened", "incident.closed"],
  scope: { tags: ["api"] },
  // Write-only: the API never shows it back; the state keeps it, encrypted.
  secret: webhookSecret,
  headers: [{ header: "X-Team", value: "api" }],
});

// --- Functions: the account, the location pools and the monitor type catalogue ---

const account = getAccountOutput();
const pools = getAgentPoolsOutput();
const types = getMonitorTypesOutput();

export const accountPlan = account.plan;
export const poolIds = pools.pools.apply((all) => all.map((p) => p.id));
export const browserTypes = types.types.apply((all) => all.filter((t) => t.fleet === "waterfall").map((t) => t.type));
export const apiMonitorId = api.id;
export const apiMonitorState = api.state;
export const statusPageUrl = page.slug.apply((slug) => `https://status.example.com/${slug}`);
export const apiDownTemplateId = apiDown.id;
