import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallResult, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const anon = { token: null } as const;
/** One row of a catalogue answer (answers are untyped JSON). */
const row = (body: CallResult["body"], type: string) =>
  body.data.find((r: { type: string }) => r.type === type);

describe("GET /monitor/type", () => {
  it("answers anonymously with one row per type, discontinued types last", async () => {
    const res = await sb.client.get("/monitor/type", anon);
    expect(res.status).toBe(200);
    const types = res.body.data.map((r: { type: string }) => r.type);
    expect(types).toEqual([
      "http",
      "api",
      "waterfall",
      "cntCheck",
      "tran",
      "ping",
      "port",
      "dnsbl",
      "domainExp",
      "sslExp",
      "webRisk",
      "counter",
      "database",
      "snmp",
      "keyword",
      "rum",
    ]);
    expect(res.body.data.every((r: Record<string, unknown>) => !("accountLimits" in r))).toBe(true);
  });

  it("carries the spec's members and the catalogue's rules", async () => {
    const { body } = await sb.client.get("/monitor/type", anon);
    expect(row(body, "http")).toEqual({
      type: "http",
      label: "HTTP(S)",
      minInterval: 10,
      fixedInterval: null,
      requiresPool: true,
      locations: "required",
      fleet: "net",
      url: "httpOrDomain",
      attached: ["dnsbl", "sslExp", "domainExp", "webRisk"],
      recheck: true,
      cron: true,
      feature: null,
      aliases: [],
      discontinued: false,
    });
    expect(row(body, "waterfall")).toMatchObject({
      minInterval: 600,
      aliases: ["pageSpeed"],
      fleet: "waterfall",
      feature: "waterfall",
    });
    expect(row(body, "sslExp")).toMatchObject({
      fixedInterval: 21600,
      requiresPool: false,
      locations: "refused",
      cron: false,
      fleet: null,
    });
    expect(row(body, "webRisk").fixedInterval).toBe(43200);
    expect(row(body, "database")).toMatchObject({ requiresPool: false, locations: "none" });
    expect(row(body, "ping").attached).toEqual(["dnsbl"]);
    expect(row(body, "keyword")).toEqual({
      type: "keyword",
      label: "Keyword (use http with settings.keywords)",
      replacedBy: "http",
      discontinued: true,
    });
  });

  it("adds accountLimits with a token: the plan's floor and whether the plan includes the type", async () => {
    const business = await sb.client.get("/monitor/type");
    expect(row(business.body, "http").accountLimits).toEqual({
      minInterval: 30,
      available: true,
      cron: true,
    });
    expect(row(business.body, "waterfall").accountLimits).toEqual({
      minInterval: 600,
      available: true,
      cron: true,
    });
    expect(row(business.body, "counter").accountLimits).toEqual({
      minInterval: 60,
      available: false,
      cron: true,
    });
    expect(row(business.body, "sslExp").accountLimits).toEqual({
      minInterval: 21600,
      available: true,
      cron: false,
    });
    expect(row(business.body, "keyword").accountLimits).toBeUndefined();

    const trial = await sb.account({ plan: "trial" });
    const t = await trial.get("/monitor/type");
    expect(row(t.body, "http").accountLimits).toEqual({ minInterval: 180, available: true, cron: false });
    expect(row(t.body, "api").accountLimits.available).toBe(false);
    expect(row(t.body, "tran").accountLimits.available).toBe(false);

    const enterprise = await sb.account({ plan: "enterprise" });
    const e = await enterprise.get("/monitor/type");
    expect(row(e.body, "http").accountLimits.minInterval).toBe(10);
    expect(row(e.body, "api").accountLimits.minInterval).toBe(30);
    expect(row(e.body, "counter").accountLimits.available).toBe(true);
  });

  it("reads feature overrides of the account", async () => {
    const noTran = await sb.account({ featureOverrides: { tranCount: 0, apiTask: false } });
    const { body } = await noTran.get("/monitor/type");
    expect(row(body, "tran").accountLimits.available).toBe(false);
    expect(row(body, "api").accountLimits.available).toBe(false);
  });

  it("takes no query parameters", async () => {
    const res = await sb.client.get("/monitor/type?limit=5", anon);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unknown_parameter");
    expect(res.body.errors[0]).toMatchObject({ parameter: "limit", allowed: [] });
  });
});

describe("GET /monitor/type/{type}", () => {
  it("answers the row and the settings JSON Schema derived from the kinds", async () => {
    const res = await sb.client.get("/monitor/type/http", anon);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: "http", minInterval: 10, requiresPool: true });
    const schema = res.body.settingsSchema;
    expect(schema.type).toBe("object");
    expect(schema.additionalProperties).toBe(false);
    expect(schema.$schema).toBeUndefined();
    const p = schema.properties;
    expect(p.method).toMatchObject({ enum: ["H", "G", "P", "U", "D", "A"], default: "G" });
    expect(p.timeout).toMatchObject({ type: "integer", minimum: 50, maximum: 100000, default: 40000 });
    expect(p.password).toMatchObject({ writeOnly: true, "x-credential": true });
    expect(p.assertsSource).toMatchObject({ writeOnly: true });
    expect(p.assertsSource["x-credential"]).toBeUndefined();
    expect(p.assertsText).toMatchObject({ readOnly: true });
    expect(p.maxSize).toMatchObject({ default: 1048576, "x-storedCap": 10485760 });
    expect(p.ignoredStatuses).toMatchObject({ maxItems: 20, "x-collection": "set" });
    expect(p.keywordMode.default).toBe("PresentAny");
    expect(p.attached.properties).toHaveProperty("dnsbl");
  });

  it("derives every location-based type's schema, with its own members", async () => {
    const api = await sb.client.get("/monitor/type/api", anon);
    expect(api.body.settingsSchema.properties.contentType.enum).toEqual([
      "application/json",
      "text/xml",
      "text/plain",
    ]);
    expect(api.body.settingsSchema.properties.keywords).toBeUndefined();
    const tran = await sb.client.get("/monitor/type/tran", anon);
    expect(tran.body.settingsSchema.properties.steps.items.properties.synthesized.readOnly).toBe(true);
    expect(tran.body.settingsSchema.properties.timeout).toMatchObject({ maximum: 40000, default: 40000 });
    const waterfall = await sb.client.get("/monitor/type/waterfall", anon);
    expect(waterfall.body.settingsSchema.properties.deviceEmulation.default).toBe("Desktop");
    const port = await sb.client.get("/monitor/type/port", anon);
    expect(port.body.settingsSchema.properties.ssl.default).toBe(false);
  });

  it("leaves types whose settings the spec does not show open", async () => {
    const res = await sb.client.get("/monitor/type/dnsbl", anon);
    expect(res.body.settingsSchema).toMatchObject({ type: "object", properties: {} });
    expect(res.body.settingsSchema.additionalProperties).toEqual({});
    const counter = await sb.client.get("/monitor/type/counter", anon);
    expect(counter.body.settingsSchema.properties.probeUrl.type).toBe("string");
  });

  it("answers an alias with its canonical type", async () => {
    const res = await sb.client.get("/monitor/type/pageSpeed", anon);
    expect(res.status).toBe(200);
    expect(res.body.type).toBe("waterfall");
    expect(res.body.aliases).toEqual(["pageSpeed"]);
  });

  it("answers a discontinued type's row without a schema", async () => {
    const res = await sb.client.get("/monitor/type/rum", anon);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      type: "rum",
      label: "Real user monitoring",
      replacedBy: null,
      discontinued: true,
    });
  });

  it("adds accountLimits with a token", async () => {
    const res = await sb.client.get("/monitor/type/api");
    expect(res.body.accountLimits).toEqual({ minInterval: 30, available: true, cron: true });
  });

  it("answers 404 for an unknown type, with the known ones and a hint", async () => {
    const res = await sb.client.get("/monitor/type/htp", anon);
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/application\/problem\+json/);
    expect(res.body.code).toBe("not_found");
    expect(res.body.errors[0]).toMatchObject({ parameter: "type", value: "htp", didYouMean: "http" });
    expect(res.body.errors[0].allowed).toContain("pageSpeed");
    // Type names are case-sensitive, as on monitor writes.
    expect((await sb.client.get("/monitor/type/HTTP", anon)).status).toBe(404);
  });

  it("takes no query parameters", async () => {
    const res = await sb.client.get("/monitor/type/http?expand=settings", anon);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unknown_parameter");
  });
});

describe("GET /monitor/type/schema", () => {
  it("is one JSON Schema for a monitor of any type, settings branching on type", async () => {
    const res = await sb.client.get("/monitor/type/schema", anon);
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(s.$id).toBe(`${sb.url}/monitor/type/schema`);
    expect(s.type).toBe("object");
    expect(s.properties.type.enum).toEqual(expect.arrayContaining(["http", "pageSpeed", "snmp"]));
    expect(s.properties.type["x-immutable"]).toBe(true);
    expect(s.properties.interval.default).toBe(180);
    expect(s.properties.id.readOnly).toBe(true);
    expect(s.properties.contacts["x-createOnly"]).toBe(true);
    expect(s.properties.addTags["x-updateOnly"]).toBe(true);
    expect(s.properties.name["x-defaultFrom"]).toBe("url");
    expect(Object.keys(s.$defs)).toHaveLength(14);
    expect(s.$defs.httpSettings.properties.method.default).toBe("G");
    const waterfall = s.allOf.find(
      (b: { then: { properties: { settings: { $ref: string } } } }) =>
        b.then.properties.settings.$ref === "#/$defs/waterfallSettings",
    );
    expect(waterfall.if).toEqual({
      properties: { type: { enum: ["waterfall", "pageSpeed"] } },
      required: ["type"],
    });
  });

  it("is the same schema /monitor/type/{type} embeds", async () => {
    const all = await sb.client.get("/monitor/type/schema", anon);
    const one = await sb.client.get("/monitor/type/cntCheck", anon);
    const { title: _, ...embedded } = all.body.$defs.cntCheckSettings;
    expect(embedded).toEqual(one.body.settingsSchema);
  });
});
