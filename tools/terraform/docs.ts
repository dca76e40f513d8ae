/**
 * Per-resource documentation in the Terraform registry layout
 * (docs/terraform/index.md, resources/<name>.md, data-sources/<name>.md),
 * rendered from the provider schema: what each page lists cannot drift from
 * provider.json. Only the example configurations are written by hand.
 */
import { engineKind } from "../../src/engine/kinds/index.ts";
import type { KindName } from "../../src/kinds/index.ts";
import {
  type Attribute,
  dataSourceSchema,
  dataSourceTypes,
  kindOfResourceType,
  providerConfigSchema,
  providerName,
  resourceSchema,
  resourceTypes,
  type Schema,
} from "../../src/terraform/schema.ts";

/** `vigil_monitor` → `monitor`: the page's file name, as the registry names it. */
const shortName = (typeName: string) => typeName.slice(providerName.length + 1);

/** The provider block's example. */
const providerExample = `provider "vigil" {
  endpoint = "https://api.example.com/v2" # or VIGIL_ENDPOINT
  # token comes from VIGIL_TOKEN
}`;

/**
 * Example configurations, by kind. Keyed by `KindName`, so a kind added to the registry fails to compile here
 * until its page has an example.
 */
const examples: Readonly<Record<KindName, string>> = {
  monitor: `resource "vigil_monitor" "checkout" {
  type     = "http"
  url      = "https://shop.example.com/checkout"
  name     = "Checkout"
  interval = 60
  tags     = ["shop"]

  locations = {
    pools = ["westeurope"]
  }

  settings = {
    method          = "G"
    follow_redirect = true
    keywords        = "Pay now"
  }
}`,
  contact: `resource "vigil_contact" "oncall" {
  type    = "email"
  address = "oncall@example.com"
  name    = "On call"
}`,
  contactGroup: `resource "vigil_contact_group" "ops" {
  name = "Operations"
  members = [
    { contact_id = vigil_contact.oncall.id, events = ["down", "up"] },
  ]
}`,
  alertSubscription: `resource "vigil_alert_subscription" "checkout_oncall" {
  monitor_id  = vigil_monitor.checkout.id
  contact_id  = vigil_contact.oncall.id
  alert_types = ["down", "up"]
}`,
  reportSubscription: `resource "vigil_report_subscription" "checkout_oncall" {
  monitor_id  = vigil_monitor.checkout.id
  contact_id  = vigil_contact.oncall.id
  frequencies = ["weekly"]
}`,
  maintenance: `resource "vigil_maintenance" "release" {
  name        = "Weekly release"
  from        = 1798768800 # 2027-01-01T02:00:00Z
  to          = 1798772400
  repeat      = "weekly"
  monitor_ids = [vigil_monitor.checkout.id]
}`,
  statusPage: `resource "vigil_status_page" "public" {
  slug  = "shop-status"
  title = "Shop status"
  components = [
    { name = "Checkout", monitor_id = vigil_monitor.checkout.id },
    { name = "Support", manual_state = "operational" },
  ]
}`,
  statusPageTemplate: `resource "vigil_status_page_template" "checkout_down" {
  page_id = vigil_status_page.public.id
  title   = "Checkout unavailable"
  message = "Payments fail; we are working on it."
  impact  = "major"
}`,
  webhook: `resource "vigil_webhook" "events" {
  url    = "https://hooks.example.com/vigil"
  events = ["monitor.down", "monitor.up"]
  scope  = { all = true }
  secret = var.webhook_secret
}`,
};

/** Example configurations, by data source type. */
const dataSourceExamples: Record<string, string> = {
  vigil_monitor_types: `data "vigil_monitor_types" "all" {}

output "browser_types" {
  value = [for t in data.vigil_monitor_types.all.types : t.type if t.fleet == "waterfall"]
}`,
  vigil_agent_pools: `data "vigil_agent_pools" "all" {}

output "pool_ids" {
  value = [for p in data.vigil_agent_pools.all.pools : p.id]
}`,
  vigil_account: `data "vigil_account" "current" {}

output "plan" {
  value = data.vigil_account.current.plan
}`,
  vigil_monitor: `data "vigil_monitor" "checkout" {
  type = "http"
  url  = "https://shop.example.com/checkout"
}`,
};

function typeText(attribute: Attribute): string {
  if (attribute.nested_type) {
    const mode = attribute.nested_type.nesting_mode;
    return mode === "single" ? "Attributes" : `Attributes ${mode[0]!.toUpperCase()}${mode.slice(1)}`;
  }
  const render = (t: unknown): string =>
    Array.isArray(t) ? (t[0] === "object" ? "Object" : `${render(t[0])} of ${render(t[1])}`) : String(t);
  const text = render(attribute.type);
  return `${text[0]!.toUpperCase()}${text.slice(1)}`;
}

const anchor = (path: string) => `nestedatt--${path.replaceAll(".", "--")}`;

/** Required / Optional / Read-Only lists of a block, with nested schemas after them. */
function schemaSections(attributes: Record<string, Attribute>, path = ""): string[] {
  const groups: [string, (a: Attribute) => boolean][] = [
    ["Required", (a) => Boolean(a.required)],
    ["Optional", (a) => Boolean(a.optional)],
    ["Read-Only", (a) => Boolean(a.computed) && !a.optional],
  ];
  const out: string[] = [];
  const nestedOnes: [string, Attribute][] = [];
  for (const [title, belongs] of groups) {
    const rows = Object.entries(attributes).filter(([, a]) => belongs(a));
    if (rows.length === 0) continue;
    // Top-level groups are headings; a nested schema's are labels under its own heading.
    out.push(path ? `${title}:` : `### ${title}`, "");
    for (const [name, a] of rows) {
      const full = path ? `${path}.${name}` : name;
      const flags = [typeText(a), a.sensitive ? "Sensitive" : undefined].filter(Boolean).join(", ");
      const more = a.nested_type ? ` (see [below for nested schema](#${anchor(full)}))` : "";
      out.push(`- \`${name}\` (${flags}) ${a.description}${more}`);
      if (a.nested_type) nestedOnes.push([full, a]);
    }
    out.push("");
  }
  for (const [full, a] of nestedOnes) {
    out.push(`<a id="${anchor(full)}"></a>`, `### Nested Schema for \`${full}\``, "");
    out.push(...schemaSections(a.nested_type!.attributes, full));
  }
  return out;
}

function page(frontmatter: Record<string, string>, body: string[]): string {
  const head = Object.entries(frontmatter).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `${["---", ...head, "---", "", ...body].join("\n").trimEnd()}\n`;
}

function schemaPage(
  category: "Resource" | "Data Source",
  typeName: string,
  schema: Schema,
  extra: string[] = [],
): string {
  const example =
    category === "Resource" ? examples[kindOfResourceType(typeName)] : dataSourceExamples[typeName];
  if (!example) throw new Error(`${typeName}: write an example in tools/terraform/docs.ts`);
  const description = schema.block.description;
  return page({ page_title: `${typeName} ${category} - ${providerName}`, subcategory: "", description }, [
    `# ${typeName} (${category})`,
    "",
    description,
    "",
    "## Example Usage",
    "",
    "```terraform",
    example,
    "```",
    "",
    "## Schema",
    "",
    ...schemaSections(schema.block.attributes),
    ...extra,
  ]);
}

function importSection(typeName: string): string[] {
  const kind = engineKind(kindOfResourceType(typeName));
  return [
    "## Import",
    "",
    `Import an existing ${kind.definition.title.toLowerCase()} by its id (the \`id\` attribute, as ${kind.definition.paths.collection} lists it):`,
    "",
    "```shell",
    `terraform import ${typeName}.example <id>`,
    "```",
  ];
}

function indexPage(): string {
  const schema = providerConfigSchema();
  return page(
    { page_title: `${providerName} Provider`, subcategory: "", description: schema.block.description },
    [
      `# ${providerName} Provider`,
      "",
      schema.block.description,
      "",
      "## Example Usage",
      "",
      "```terraform",
      providerExample,
      "```",
      "",
      "## Schema",
      "",
      ...schemaSections(schema.block.attributes),
    ],
  );
}

export interface DocPage {
  path: string;
  render(): string;
}

/** Every page, with its path relative to the repository root. */
export function terraformDocPages(): DocPage[] {
  return [
    { path: "docs/terraform/index.md", render: indexPage },
    ...Object.keys(resourceTypes).map((typeName) => ({
      path: `docs/terraform/resources/${shortName(typeName)}.md`,
      render: () => schemaPage("Resource", typeName, resourceSchema(typeName), importSection(typeName)),
    })),
    ...dataSourceTypes.map((typeName) => ({
      path: `docs/terraform/data-sources/${shortName(typeName)}.md`,
      render: () => schemaPage("Data Source", typeName, dataSourceSchema(typeName)),
    })),
  ];
}
