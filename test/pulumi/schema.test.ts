import { describe, expect, it } from "vitest";
import { engineKinds } from "../../src/engine/kinds/index.ts";
import { accountResult, agentPoolsResult, monitorTypeRow } from "../../src/kinds/data-sources.ts";
import { monitorTypeInput, monitorTypeNames } from "../../src/kinds/index.ts";
import {
  className,
  isEnumType,
  type PackageSpec,
  type PropertySpec,
  pulumiSchema,
  referencedType,
  replaceOnChangesPaths,
  singular,
} from "../../src/pulumi/schema.ts";
import { functionTokens, resourceClassNames, resourceToken } from "../../src/pulumi/tokens.ts";
import {
  attributeName,
  memberName,
  resourceRules,
  resourceSchema,
  resourceTypeName,
} from "../../src/terraform/schema.ts";

const schema: PackageSpec = pulumiSchema();
const resource = (name: string) => schema.resources[`vigil:index:${name}`]!;
/** A named object type. */
const type = (name: string) => {
  const found = schema.types[`vigil:index:${name}`]!;
  if (isEnumType(found)) throw new Error(`${name} is an enum`);
  return found;
};
/** The values of a named enum type. */
const enumOf = (name: string) => {
  const found = schema.types[`vigil:index:${name}`]!;
  if (!isEnumType(found)) throw new Error(`${name} is not an enum`);
  return found.enum.map((e) => e.value);
};

/** Every `$ref` anywhere in a value. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref") out.push(v as string);
      else refs(v, out);
    }
  return out;
}

describe("the Pulumi package schema", () => {
  it("names the package and its metadata", () => {
    expect(schema.name).toBe("vigil");
    expect(schema.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(schema.meta.moduleFormat).toBe("(.*)");
    expect(schema.language.nodejs.packageName).toBe("vigil");
    expect(schema.language.nodejs.dependencies["@pulumi/pulumi"]).toMatch(/^\^3\./);
    expect(schema.license).toBe("Apache-2.0");
  });

  it("has every kind as a resource, under its token, with the SDK's class names", () => {
    expect(Object.keys(schema.resources)).toEqual(engineKinds.map((k) => resourceToken(k.name)));
    expect(Object.keys(schema.resources)).toHaveLength(9);
    for (const k of engineKinds) expect(className(k.name)).toBe(resourceClassNames[k.name]);
    expect(schema.resources["vigil:index:MaintenanceWindow"]).toBeDefined();
  });

  it("has the Terraform attributes of each kind, by member name, but id", () => {
    for (const k of engineKinds) {
      const attributes = Object.keys(resourceSchema(resourceTypeName(k.name)).block.attributes);
      const spec = schema.resources[resourceToken(k.name)]!;
      expect(Object.keys(spec.properties).sort()).toEqual(
        attributes
          .filter((a) => a !== "id")
          .map(memberName)
          .sort(),
      );
      for (const name of Object.keys(spec.properties)) expect(memberName(attributeName(name))).toBe(name);
    }
    expect(resource("Monitor").properties.cronSchedule).toBeDefined();
    expect(resource("Monitor").properties.id).toBeUndefined();
  });

  it("takes as inputs what a config sets, never what only the service sets", () => {
    const monitor = resource("Monitor");
    expect(monitor.requiredInputs).toEqual(["type"]);
    for (const name of ["type", "url", "name", "interval", "settings", "locations", "tags", "onOverlimit"])
      expect(monitor.inputProperties[name], name).toBeDefined();
    for (const name of ["state", "since", "created", "updated", "effectiveUrl", "expirationDate"]) {
      expect(monitor.inputProperties[name], name).toBeUndefined();
      expect(monitor.properties[name], name).toBeDefined();
    }
    expect(resource("Webhook").requiredInputs).toEqual(["events", "scope", "url"]);
    expect(resource("AlertSubscription").requiredInputs).toEqual(["alertTypes", "contactId", "monitorId"]);
    expect(resource("MaintenanceWindow").requiredInputs).toEqual(["from", "name", "to"]);
    expect(resource("StatusPage").requiredInputs).toEqual(["slug", "title"]);
    for (const spec of Object.values(schema.resources)) {
      for (const name of spec.requiredInputs ?? []) expect(spec.inputProperties[name]).toBeDefined();
      for (const name of spec.required ?? []) expect(spec.properties[name]).toBeDefined();
      for (const [name, p] of Object.entries(spec.inputProperties)) expect(spec.properties[name]).toBe(p);
    }
  });

  it("requires as outputs what is always present: set by the config, or filled and never null", () => {
    const monitor = resource("Monitor");
    for (const name of ["type", "state", "created", "updated", "settings", "interval"])
      expect(monitor.required, name).toContain(name);
    // Nullable, or never read back.
    for (const name of [
      "name",
      "url",
      "cronSchedule",
      "slaTarget",
      "expirationDate",
      "onOverlimit",
      "attached",
    ])
      expect(monitor.required, name).not.toContain(name);
    expect(resource("Webhook").required).not.toContain("disabledReason");
    expect(resource("Webhook").required).not.toContain("secret");
    expect(type("MaintenanceWindowOccurrence").required).toEqual(["from", "to"]);
    // A computed member of a type a config also writes is not required (it is an input too).
    expect(type("MonitorSettingsStep").required).toEqual(["action"]);
  });

  it("flags credentials secret, nested ones too, and the provider's token", () => {
    const settings = type("MonitorSettings").properties;
    for (const name of ["password", "authKey", "privKey", "community", "connectionString"])
      expect(settings[name]?.secret, name).toBe(true);
    expect(settings.username?.secret).toBeUndefined();
    expect(resource("Webhook").properties.secret?.secret).toBe(true);
    expect(resource("Webhook").inputProperties.secret?.secret).toBe(true);
    expect(type("WebhookHeader").properties.value?.secret).toBe(true);
    expect(type("WebhookHeader").properties.header?.secret).toBeUndefined();
    expect(schema.config.variables.token?.secret).toBe(true);
    expect(schema.config.variables.endpoint?.secret).toBeUndefined();
    expect(schema.provider.inputProperties.token?.secret).toBe(true);
    // Exactly the paths the Terraform schema marks sensitive.
    for (const k of engineKinds) {
      const secrets: string[] = [];
      const visit = (p: PropertySpec, path: string) => {
        if (p.secret) secrets.push(path);
        const element = p.items ?? p.additionalProperties;
        if (element) return visit(element, `${path}/*`);
        for (const [n, c] of Object.entries(referencedType(schema, p)?.properties ?? {}))
          visit(c, `${path}/${attributeName(n)}`);
      };
      for (const [n, p] of Object.entries(schema.resources[resourceToken(k.name)]!.properties))
        visit(p, attributeName(n));
      const rules = resourceRules(resourceTypeName(k.name));
      // And the computed attributes holding what the service generated (a webhook's generated_secret).
      const sensitive = [
        ...rules.sensitive.map((p) => p.join("/")),
        ...rules.generated.map((g) => g.attribute),
      ];
      expect(secrets.sort(), k.name).toEqual(sensitive.sort());
    }
  });

  it("marks replacements, in Pulumi's property paths", () => {
    const paths = (name: string) => replaceOnChangesPaths(schema, `vigil:index:${name}`).sort();
    expect(paths("Monitor")).toEqual(["type"]);
    expect(paths("Contact")).toEqual(["type"]);
    expect(paths("StatusPage")).toEqual(["slug"]);
    expect(paths("AlertSubscription")).toEqual(["contactId", "monitorId"]);
    expect(paths("ReportSubscription")).toEqual(["contactId", "monitorId"]);
    expect(paths("Webhook")).toEqual([]);
    for (const k of engineKinds) {
      const expected = resourceRules(resourceTypeName(k.name)).replaceOn.map((p) =>
        p.map((s) => (s === "*" ? "[*]" : `.${memberName(s)}`)).join(""),
      );
      expect(replaceOnChangesPaths(schema, resourceToken(k.name)).sort()).toEqual(
        expected.map((p) => p.replace(/^\./, "")).sort(),
      );
    }
    expect(resource("Monitor").inputProperties.type?.replaceOnChanges).toBe(true);
  });

  it("resolves every $ref to a type of the package, and uses every type", () => {
    const all = refs(schema);
    expect(all.length).toBeGreaterThan(20);
    for (const ref of all) {
      expect(ref).toMatch(/^#\/types\/vigil:index:[A-Z]\w+$/);
      expect(schema.types[ref.slice("#/types/".length)], ref).toBeDefined();
    }
    expect(new Set(all.map((r) => r.slice("#/types/".length)))).toEqual(new Set(Object.keys(schema.types)));
    for (const spec of Object.values(schema.types))
      expect(spec.type).toBe(isEnumType(spec) ? "string" : "object");
  });

  it("types a string of a few values as an enum of exactly the kinds' values", () => {
    expect(resource("Monitor").inputProperties.type?.$ref).toBe("#/types/vigil:index:MonitorType");
    // Every name a configuration writes for `type`: the catalogue's and its aliases (test/kinds/monitor-type-vocabulary.test.ts).
    expect(new Set(enumOf("MonitorType"))).toEqual(new Set(monitorTypeInput.options));
    expect(enumOf("MonitorType")).toEqual(expect.arrayContaining([...monitorTypeNames]));
    expect(enumOf("StatusPageTheme")).toEqual(["light", "dark", "auto"]);
    // Items of a list: one enum for the item.
    expect(resource("AlertSubscription").inputProperties.alertTypes?.items?.$ref).toBe(
      "#/types/vigil:index:AlertSubscriptionAlertType",
    );
    expect(enumOf("AlertSubscriptionAlertType")).toEqual(["down", "up", "repeatedlyDown"]);
    // Settings of several monitor types: the values of every type that takes the member.
    expect(enumOf("MonitorSettingsMethod")).toEqual(expect.arrayContaining(["G", "H", "P"]));
    // A string any value of which is fine stays a string.
    expect(resource("Monitor").inputProperties.url?.type).toBe("string");
    expect(type("MonitorSettings").properties.username?.type).toBe("string");
  });

  it("names nested types from their path, items in the singular", () => {
    expect(resource("Monitor").properties.settings?.$ref).toBe("#/types/vigil:index:MonitorSettings");
    expect(resource("Monitor").properties.locations?.$ref).toBe("#/types/vigil:index:MonitorLocations");
    expect(type("MonitorSettings").properties.steps).toMatchObject({
      type: "array",
      items: { $ref: "#/types/vigil:index:MonitorSettingsStep" },
    });
    expect(resource("Webhook").properties.headers?.items?.$ref).toBe("#/types/vigil:index:WebhookHeader");
    expect(resource("ContactGroup").properties.members?.items?.$ref).toBe(
      "#/types/vigil:index:ContactGroupMember",
    );
    expect(["headers", "entries", "status", "usage", "pools"].map(singular)).toEqual([
      "header",
      "entry",
      "status",
      "usage",
      "pool",
    ]);
  });

  it("types members as arrays, maps and integers", () => {
    expect(resource("Monitor").properties.tags).toMatchObject({ type: "array", items: { type: "string" } });
    expect(resource("Monitor").properties.created?.type).toBe("integer");
    expect(resource("Monitor").properties.enabled?.type).toBe("boolean");
    expect(resource("Monitor").properties.slaTarget?.type).toBe("number");
    expect(schema.functions["vigil:index:getAgentPools"]!.outputs.properties.minIntervals).toMatchObject({
      type: "object",
      additionalProperties: { type: "number" },
    });
  });

  it("has the three data sources as functions, without inputs, their outputs from the result shapes", () => {
    expect(Object.keys(schema.functions)).toEqual(Object.values(functionTokens));
    const outputs = (name: keyof typeof functionTokens) => schema.functions[functionTokens[name]]!.outputs;
    expect(Object.keys(outputs("getMonitorTypes").properties)).toEqual(["types"]);
    expect(Object.keys(type("GetMonitorTypesType").properties).sort()).toEqual(
      Object.keys(monitorTypeRow.shape).sort(),
    );
    expect(type("GetMonitorTypesType").required).not.toContain("replacedBy");
    expect(type("GetMonitorTypesType").required).toContain("accountLimits");
    expect(Object.keys(outputs("getAgentPools").properties).sort()).toEqual(
      Object.keys(agentPoolsResult.shape).sort(),
    );
    expect(Object.keys(type("GetAgentPoolsPool").properties)).toContain("agents");
    const account = outputs("getAccount");
    expect(Object.keys(account.properties).sort()).toEqual(Object.keys(accountResult.shape).sort());
    expect(account.properties.features).toMatchObject({
      type: "object",
      additionalProperties: { type: "string" },
    });
    expect(account.properties.usage?.additionalProperties?.$ref).toBe("#/types/vigil:index:GetAccountUsage");
    expect(account.required).toContain("id");
    expect(account.required).not.toContain("company");
    for (const fn of Object.values(schema.functions)) expect(fn).not.toHaveProperty("inputs");
  });

  it("configures the provider from the environment by default", () => {
    expect(schema.config.variables.endpoint?.defaultInfo).toEqual({ environment: ["VIGIL_ENDPOINT"] });
    expect(schema.config.variables.token?.defaultInfo).toEqual({ environment: ["VIGIL_TOKEN"] });
    expect(Object.keys(schema.provider.inputProperties)).toEqual(["endpoint", "token"]);
  });

  it("uses only the format's keys (Pulumi's metaschema is not available offline to validate against)", () => {
    const propertyKeys = new Set(["type", "$ref", "items", "additionalProperties", "description", "secret"]);
    propertyKeys.add("replaceOnChanges").add("defaultInfo");
    const checkProperty = (p: PropertySpec, at: string) => {
      for (const key of Object.keys(p)) expect(propertyKeys.has(key), `${at}: ${key}`).toBe(true);
      expect(Boolean(p.type) !== Boolean(p.$ref), `${at}: type or $ref`).toBe(true);
      if (p.type === "array") expect(p.items, at).toBeDefined();
      if (p.items) checkProperty(p.items, `${at}[*]`);
      if (p.additionalProperties) checkProperty(p.additionalProperties, `${at}.*`);
    };
    const checkObject = (
      o: { properties: Record<string, PropertySpec>; required?: string[] },
      at: string,
    ) => {
      for (const [name, p] of Object.entries(o.properties)) checkProperty(p, `${at}.${name}`);
      for (const name of o.required ?? []) expect(o.properties[name], `${at} requires ${name}`).toBeDefined();
    };
    expect(Object.keys(schema).sort()).toEqual(
      [
        "config",
        "description",
        "displayName",
        "functions",
        "keywords",
        "language",
        "license",
        "meta",
        "name",
        "provider",
        "resources",
        "types",
        "version",
      ].sort(),
    );
    for (const [token, spec] of Object.entries(schema.resources)) {
      expect(
        Object.keys(spec).every((k) =>
          ["type", "description", "properties", "inputProperties", "required", "requiredInputs"].includes(k),
        ),
      ).toBe(true);
      checkObject(spec, token);
      checkObject({ properties: spec.inputProperties, required: spec.requiredInputs }, `${token} inputs`);
    }
    for (const [token, spec] of Object.entries(schema.types)) {
      if (!isEnumType(spec)) {
        checkObject(spec, token);
        continue;
      }
      expect(Object.keys(spec).sort(), token).toEqual(["enum", "type"]);
      expect(spec.enum.length, token).toBeGreaterThan(0);
      for (const e of spec.enum) expect(Object.keys(e), token).toEqual(["value"]);
    }
    for (const [token, fn] of Object.entries(schema.functions)) checkObject(fn.outputs, token);
    checkObject(schema.provider, "provider");
    for (const token of [
      ...Object.keys(schema.types),
      ...Object.keys(schema.resources),
      ...Object.keys(schema.functions),
    ])
      expect(token).toMatch(/^vigil:index:[A-Za-z]\w*$/);
  });

  it("speaks of Pulumi things in descriptions", () => {
    const text = JSON.stringify(schema);
    expect(text).not.toMatch(/vigil_[a-z]/);
    expect(resource("AlertSubscription").properties.monitorId?.description).toContain("The id of a Monitor");
  });
});
