import { describe, expect, it } from "vitest";
import { engineKinds } from "../../src/engine/kinds/index.ts";
import {
  type Attribute,
  attributeName,
  dataSourceTypes,
  kindOfResourceType,
  memberName,
  providerAddress,
  providerSchema,
  resourceRules,
  resourceSchema,
  type Schema,
} from "../../src/terraform/schema.ts";

const schemas = providerSchema().provider_schemas[providerAddress]!;
const attr = (schema: Schema, ...path: string[]): Attribute => {
  let attributes = schema.block.attributes;
  let found: Attribute | undefined;
  for (const name of path) {
    found = attributes[name];
    if (!found) throw new Error(`no attribute ${path.join(".")}`);
    attributes = found.nested_type?.attributes ?? {};
  }
  return found!;
};
const monitor = resourceSchema("vigil_monitor");
const flags = (a: Attribute) => ["required", "optional", "computed", "sensitive"].filter((f) => f in a);

/** Every attribute of a block, with its dotted path. */
function* everyAttribute(attributes: Record<string, Attribute>, at = ""): Generator<[string, Attribute]> {
  for (const [name, a] of Object.entries(attributes)) {
    yield [`${at}${name}`, a];
    if (a.nested_type) yield* everyAttribute(a.nested_type.attributes, `${at}${name}.`);
  }
}

const allBlocks = (): [string, Schema][] => [
  ["provider", schemas.provider],
  ...Object.entries(schemas.resource_schemas),
  ...Object.entries(schemas.data_source_schemas),
];

describe("provider schema", () => {
  it("holds every resource type and data source of the issue, one resource type per engine kind", () => {
    expect(Object.keys(schemas.resource_schemas).sort()).toEqual(
      [
        "vigil_alert_subscription",
        "vigil_contact",
        "vigil_contact_group",
        "vigil_maintenance",
        "vigil_monitor",
        "vigil_report_subscription",
        "vigil_status_page",
        "vigil_status_page_template",
        "vigil_webhook",
      ].sort(),
    );
    expect(Object.keys(schemas.data_source_schemas).sort()).toEqual(
      ["vigil_account", "vigil_agent_pools", "vigil_monitor", "vigil_monitor_types"].sort(),
    );
    expect(engineKinds.map((k) => kindOfResourceType(`vigil_${attributeName(k.name)}`))).toEqual(
      engineKinds.map((k) => k.name),
    );
  });

  it("has the provider block: endpoint, and token sensitive", () => {
    expect(flags(attr(schemas.provider, "endpoint"))).toEqual(["optional"]);
    expect(flags(attr(schemas.provider, "token"))).toEqual(["optional", "sensitive"]);
    expect(attr(schemas.provider, "token").description).toContain("VIGIL_TOKEN");
  });

  it("derives the monitor's flags from the kind's traits", () => {
    expect(flags(attr(monitor, "id"))).toEqual(["computed"]);
    expect(flags(attr(monitor, "type"))).toEqual(["required"]);
    expect(attr(monitor, "type").description).toContain("replaces the resource");
    expect(flags(attr(monitor, "interval"))).toEqual(["optional", "computed"]);
    expect(attr(monitor, "interval").description).toContain("Default: 180");
    expect(flags(attr(monitor, "url"))).toEqual(["optional"]);
    expect(flags(attr(monitor, "effective_url"))).toEqual(["computed"]);
    expect(attr(monitor, "cron_schedule").type).toBe("string");
    expect(attr(monitor, "tags").type).toEqual(["set", "string"]);
    // Inline contacts and subscriptions are resources of their own, as in the GitOps format.
    expect(monitor.block.attributes.contacts).toBeUndefined();
    expect(monitor.block.attributes.alert_subscriptions).toBeUndefined();
    expect(monitor.block.attributes.add_tags).toBeUndefined();
  });

  it("gives the monitor one settings attribute holding every type's members, credentials sensitive", () => {
    const settings = attr(monitor, "settings");
    expect(settings.nested_type?.nesting_mode).toBe("single");
    expect(flags(settings)).toEqual(["optional", "computed"]);
    expect(flags(attr(monitor, "settings", "password"))).toEqual(["optional", "sensitive"]);
    expect(attr(monitor, "settings", "password").description).toContain("Types: http, api, database");
    expect(flags(attr(monitor, "settings", "connection_string"))).toEqual(["optional", "sensitive"]);
    expect(attr(monitor, "settings", "steps").nested_type?.nesting_mode).toBe("list");
    expect(flags(attr(monitor, "settings", "steps", "action"))).toEqual(["required"]);
    expect(attr(monitor, "settings", "timeout").description).toMatch(/waterfall: .*Default: 0/);
    expect(attr(monitor, "settings", "method").description).toContain('One of: "H", "G"');
    expect(resourceRules("vigil_monitor").sensitive).toContainEqual(["settings", "password"]);
  });

  it("marks the webhook's secret and header values sensitive, and keeps enabled as read back", () => {
    const webhook = resourceSchema("vigil_webhook");
    expect(flags(attr(webhook, "secret"))).toEqual(["optional", "sensitive"]);
    expect(flags(attr(webhook, "headers", "value"))).toEqual(["required", "sensitive"]);
    expect(flags(attr(webhook, "scope"))).toEqual(["required"]);
    expect(Object.keys(attr(webhook, "scope").nested_type!.attributes)).toEqual([
      "all",
      "monitor_ids",
      "tags",
    ]);
    expect(flags(attr(webhook, "enabled"))).toEqual(["computed"]);
    expect(resourceRules("vigil_webhook").sensitive).toEqual([["headers", "*", "value"], ["secret"]]);
  });

  it("types sets, lists and nested objects as the kinds declare them", () => {
    const alert = resourceSchema("vigil_alert_subscription");
    expect(attr(alert, "alert_types").type).toEqual(["set", "string"]);
    expect(flags(attr(alert, "alert_types"))).toEqual(["required"]);
    expect(resourceRules("vigil_alert_subscription").replaceOn).toEqual([["monitor_id"], ["contact_id"]]);
    const page = resourceSchema("vigil_status_page");
    const components = attr(page, "components");
    expect(components.nested_type?.nesting_mode).toBe("list");
    expect(flags(attr(page, "components", "name"))).toEqual(["required"]);
    expect(flags(attr(page, "components", "monitor_id"))).toEqual(["optional"]);
    expect(flags(attr(page, "components", "manual_state"))).toEqual(["optional"]);
    expect(flags(attr(page, "public_url"))).toEqual(["computed"]);
    expect(resourceRules("vigil_status_page").replaceOn).toEqual([["slug"]]);
    const maintenance = resourceSchema("vigil_maintenance");
    expect(attr(maintenance, "monitor_ids").type).toEqual(["set", "string"]);
    expect(flags(attr(maintenance, "from"))).toEqual(["required"]);
    expect(attr(resourceSchema("vigil_contact_group"), "members").nested_type?.nesting_mode).toBe("set");
  });

  it("looks a monitor up by id, or by url and type, with every other member computed", () => {
    const data = schemas.data_source_schemas.vigil_monitor!;
    for (const lookup of ["id", "url", "type"])
      expect(flags(attr(data, lookup))).toEqual(["optional", "computed"]);
    expect(flags(attr(data, "interval"))).toEqual(["computed"]);
    expect(flags(attr(data, "settings", "password"))).toEqual(["computed", "sensitive"]);
    // Input-only members are never read back, so a lookup cannot show them.
    expect(data.block.attributes.on_overlimit).toBeUndefined();
    expect(attr(data, "settings").nested_type!.attributes.asserts_source).toBeUndefined();
  });

  it("reads the catalogue, the pools and the account in data sources", () => {
    const types = schemas.data_source_schemas.vigil_monitor_types!;
    expect(attr(types, "types").nested_type?.nesting_mode).toBe("list");
    expect(attr(types, "types", "min_interval").type).toBe("number");
    expect(attr(schemas.data_source_schemas.vigil_agent_pools!, "pools", "agents", "net").type).toBe(
      "number",
    );
    expect(attr(schemas.data_source_schemas.vigil_account!, "usage").nested_type?.nesting_mode).toBe("map");
    expect(dataSourceTypes).toHaveLength(4);
  });

  it("is valid as terraform providers schema -json output", () => {
    const keys = [
      "type",
      "nested_type",
      "description",
      "description_kind",
      "required",
      "optional",
      "computed",
      "sensitive",
    ];
    const cty = (t: unknown): boolean =>
      t === "string" ||
      t === "number" ||
      t === "bool" ||
      t === "dynamic" ||
      (Array.isArray(t) && t.length === 2 && ["list", "set", "map"].includes(t[0]) && cty(t[1])) ||
      (Array.isArray(t) && t[0] === "object" && Object.values(t[1] as object).every(cty));
    expect(providerSchema().format_version).toBe("1.0");
    for (const [block, schema] of allBlocks()) {
      expect(Object.keys(schema), block).toEqual(["version", "block"]);
      expect(schema.block.description_kind).toBe("plain");
      for (const [path, a] of everyAttribute(schema.block.attributes)) {
        const where = `${block}.${path}`;
        expect(
          Object.keys(a).every((k) => keys.includes(k)),
          where,
        ).toBe(true);
        // Exactly one of a type and nested attributes; required excludes optional and computed.
        expect("type" in a !== "nested_type" in a, where).toBe(true);
        if (a.type !== undefined) expect(cty(a.type), where).toBe(true);
        if (a.nested_type) expect(["single", "list", "set", "map"]).toContain(a.nested_type.nesting_mode);
        expect(Boolean(a.required || a.optional || a.computed), where).toBe(true);
        if (a.required) expect(Boolean(a.optional || a.computed), where).toBe(false);
        expect(a.description.length, where).toBeGreaterThan(1);
        expect(a.description_kind).toBe("plain");
        const name = path.split(".").at(-1)!;
        expect(name, where).toMatch(/^[a-z][a-z0-9_]*$/);
        expect(attributeName(memberName(name)), where).toBe(name);
      }
      // Terraform prints attributes in name order.
      const names = Object.keys(schema.block.attributes);
      expect(names).toEqual([...names].sort());
    }
  });

  it("uses no name Terraform reserves in a resource block", () => {
    const reserved = [
      "count",
      "for_each",
      "depends_on",
      "lifecycle",
      "provider",
      "provisioner",
      "connection",
    ];
    for (const [, schema] of allBlocks())
      expect(Object.keys(schema.block.attributes).filter((n) => reserved.includes(n))).toEqual([]);
  });

  it("converts names both ways", () => {
    expect(attributeName("cronSchedule")).toBe("cron_schedule");
    expect(attributeName("monitorIds")).toBe("monitor_ids");
    expect(memberName("on_console_error")).toBe("onConsoleError");
  });
});
