/**
 * The provider's handlers in process, against the sandbox: every resource type through create, refresh,
 * no-op plan, update, drift, import, replace and delete, held to Terraform core's rules on each step.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KindName } from "../../src/engine/index.ts";
import { decodeMsgpack, encodeMsgpack, fromMembers, Unknown } from "../../src/terraform/cty.ts";
import { dataSourceType } from "../../src/terraform/data-sources.ts";
import { snakeCase } from "../../src/terraform/names.ts";
import type { ProviderHandlers } from "../../src/terraform/plugin/protocol.ts";
import { createHandlers } from "../../src/terraform/provider.ts";
import { resourceType } from "../../src/terraform/resources.ts";
import { resourceTypeName } from "../../src/terraform/schema.ts";
import { kindCases } from "../helpers/kind-cases.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { attr, Core, configuredCore, type Instance } from "../helpers/terraform-core.ts";

let sb: TestSandbox;
let account: Client & { accountId: string };
let core: Core;

beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "enterprise" });
  core = await configuredCore({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
});
afterAll(async () => sb?.close());

const unique = () => Math.random().toString(36).slice(2, 10);

async function create(typeName: string, members: Record<string, unknown>): Promise<Instance> {
  const config = core.config(typeName, members);
  const plan = await core.plan(typeName, null, config);
  expect(plan.action).toBe("create");
  const created = await core.apply(typeName, null, plan, config);
  expect(created).not.toBeNull();
  // Refresh right after apply changes nothing, and the plan is then empty: no perpetual diff.
  const read = await core.read(typeName, created!);
  expect(read!.state).toEqual(created!.state);
  expect((await core.plan(typeName, read, config)).action).toBe("no-op");
  return read!;
}

describe("monitor", () => {
  it("create, no-op plan, update in place, drift, import, replace, delete", async () => {
    const url = `https://example.com/${unique()}`;
    const members = { type: "http", url, name: "Shop", interval: 60, locations: { pools: ["allworld"] } };
    let m = await create("vigil_monitor", members);
    expect(attr(m, "id")).toMatch(/./);
    expect(attr(m, "enabled")).toBe(true);

    // Update in place: one member, then the plan is empty again.
    const updated = { ...members, interval: 120, tags: ["prod"] };
    const plan = await core.plan("vigil_monitor", m, core.config("vigil_monitor", updated));
    expect(plan.action).toBe("update");
    expect(plan.requiresReplace).toEqual([]);
    m = (await core.apply("vigil_monitor", m, plan, core.config("vigil_monitor", updated)))!;
    m = (await core.read("vigil_monitor", m))!;
    expect(attr(m, "interval")).toBe(120);
    expect((await core.plan("vigil_monitor", m, core.config("vigil_monitor", updated))).action).toBe("no-op");

    // Drift: changed outside Terraform, refresh shows it, the plan restores it.
    const id = String(attr(m, "id"));
    expect((await account.patch(`/monitor/${id}`, { interval: 300 })).status).toBe(200);
    m = (await core.read("vigil_monitor", m))!;
    expect(attr(m, "interval")).toBe(300);
    const restore = await core.plan("vigil_monitor", m, core.config("vigil_monitor", updated));
    expect(restore.action).toBe("update");
    m = (await core.apply("vigil_monitor", m, restore, core.config("vigil_monitor", updated)))!;
    expect((await account.get(`/monitor/${id}`)).body.interval).toBe(120);

    // Import by id: the plan against the same config is empty.
    const imported = await core.import("vigil_monitor", id);
    expect(attr(imported, "url")).toBe(url);
    expect((await core.plan("vigil_monitor", imported, core.config("vigil_monitor", updated))).action).toBe(
      "no-op",
    );

    // A member removed from the config goes back to the service's default.
    const fewer = { type: "http", url, name: "Shop", locations: { pools: ["allworld"] }, tags: ["prod"] };
    const reset = await core.plan("vigil_monitor", m, core.config("vigil_monitor", fewer));
    expect(reset.action).toBe("update");
    m = (await core.apply("vigil_monitor", m, reset, core.config("vigil_monitor", fewer)))!;
    expect((await account.get(`/monitor/${id}`)).body.interval).toBe(180);
    expect(attr(m, "interval")).toBe(180);

    // type is immutable: a replace, which makes a new object.
    const other = { type: "sslExp", url, name: "Shop" };
    const replace = await core.plan("vigil_monitor", m, core.config("vigil_monitor", other));
    expect(replace.action).toBe("replace");
    expect(replace.requiresReplace).toEqual([{ steps: [{ attribute_name: "type" }] }]);
    const replaced = (await core.converge("vigil_monitor", m, core.config("vigil_monitor", other)))!;
    expect(attr(replaced, "id")).not.toBe(id);
    expect((await account.get(`/monitor/${id}`)).status).toBe(404);
    m = replaced;

    // Delete, and a read after finds nothing.
    const gone = await core.apply("vigil_monitor", m, await core.plan("vigil_monitor", m, null), null);
    expect(gone).toBeNull();
    expect(await core.read("vigil_monitor", m)).toBeNull();
  });
});

/** Creates what other kinds point at: a monitor, a contact and a status page, through the provider too. */
async function targets() {
  const monitor = await create("vigil_monitor", {
    type: "http",
    url: `https://example.com/${unique()}`,
    locations: { pools: ["allworld"] },
  });
  const contact = await create("vigil_contact", { type: "email", address: `${unique()}@example.com` });
  const page = await create("vigil_status_page", { slug: `cases-${unique()}`, title: "Cases" });
  return {
    monitorId: String(attr(monitor, "id")),
    contactId: String(attr(contact, "id")),
    pageId: String(attr(page, "id")),
  };
}

/** Per resource type: a config, and a change that updates it in place or replaces it. */
const cases = Object.fromEntries(
  Object.entries(kindCases).map(([kind, make]) => [resourceTypeName(kind as KindName), make]),
);

describe.each(Object.keys(cases))("%s", (typeName) => {
  it("create, no-op plan, update in place or replace, import, delete", async () => {
    const { members, change, replaces } = cases[typeName]!(await targets());
    let r = await create(typeName, members);

    const updated = core.config(typeName, { ...members, ...change });
    const plan = await core.plan(typeName, r, updated);
    if (replaces) {
      expect(plan.action).toBe("replace");
      expect(plan.requiresReplace).toEqual(
        replaces.map((m) => ({ steps: [{ attribute_name: snakeCase(m) }] })),
      );
      r = (await core.converge(typeName, r, updated))!;
    } else {
      expect(plan.action).toBe("update");
      r = (await core.apply(typeName, r, plan, updated))!;
    }
    r = (await core.read(typeName, r))!;
    expect((await core.plan(typeName, r, updated)).action).toBe("no-op");

    const imported = await core.import(typeName, String(attr(r, "id")));
    const afterImport = await core.plan(typeName, imported, updated);
    // Credentials read back masked cannot be compared: an import takes them from the config, in the state only.
    expect(afterImport.requiresReplace).toEqual([]);
    const settled = await core.apply(typeName, imported, afterImport, updated);
    expect((await core.plan(typeName, await core.read(typeName, settled!), updated)).action).toBe("no-op");

    expect(await core.apply(typeName, r, await core.plan(typeName, r, null), null)).toBeNull();
    expect(await core.read(typeName, r)).toBeNull();
  });
});

describe("data sources", () => {
  it("vigil_monitor_types, vigil_agent_pools and vigil_account read the catalogue and the account", async () => {
    const types = await core.dataSource("vigil_monitor_types", {});
    const http = (types.types as Record<string, unknown>[]).find((t) => t.type === "http")!;
    expect(http.locations).toBe("required");
    const pools = await core.dataSource("vigil_agent_pools", {});
    expect((pools.pools as Record<string, unknown>[]).map((p) => p.id)).toContain("allworld");
    expect(pools.defaults).toEqual(["allworld"]);
    const acct = await core.dataSource("vigil_account", {});
    expect(acct.id).toBe(account.accountId);
    expect(acct.plan).toBe("enterprise");
    expect(typeof (acct.features as Record<string, unknown>).monitors).toBe("string");
  });

  it("vigil_monitor looks a monitor up by id, or by url and type", async () => {
    const url = `https://example.com/${unique()}`;
    const m = await create("vigil_monitor", {
      type: "http",
      url,
      name: "Lookup",
      locations: { pools: ["allworld"] },
    });
    const byId = await core.dataSource("vigil_monitor", { id: attr(m, "id") });
    expect(byId.name).toBe("Lookup");
    const byUrl = await core.dataSource("vigil_monitor", { url, type: "http" });
    expect(byUrl.id).toBe(attr(m, "id"));
    const missing = await core.readData("vigil_monitor", {
      url: "https://nowhere.example.com/",
      type: "http",
    });
    expect(missing.diagnostics[0].summary).toMatch(/No http monitor has the url https:\/\/nowhere/);
  });
});

describe("validation", () => {
  it("reports the engine's problems at their attribute, and leaves values unknown until apply alone", async () => {
    const bad = core.config("vigil_monitor", {
      type: "http",
      url: "https://example.com/",
      interval: 7,
      locations: { pools: ["allworld"] },
      settings: { timeout: -1 },
    });
    const diagnostics = await core.validate("vigil_monitor", bad);
    const paths = diagnostics.map((d) =>
      d.attribute?.steps.map((s: { attribute_name?: string }) => s.attribute_name).join("."),
    );
    expect(paths).toContain("settings.timeout");
    expect(diagnostics.every((d) => d.severity === "ERROR" && d.detail)).toBe(true);

    // A subscription whose monitor is still to be created: nothing to say yet.
    const pending = {
      ...core.config("vigil_alert_subscription", { alertTypes: ["down"] }),
      monitor_id: new Unknown(),
      contact_id: new Unknown(),
    };
    expect(await core.validate("vigil_alert_subscription", pending)).toEqual([]);

    // vigil_monitor (data source) needs id, or url and type.
    const type = dataSourceType("vigil_monitor");
    const response = await core.call("ValidateDataResourceConfig", {
      type_name: "vigil_monitor",
      config: {
        msgpack: Buffer.from(encodeMsgpack(fromMembers({ url: "https://x.example.com/" }, type), type)),
        json: Buffer.alloc(0),
      },
    });
    expect(response.diagnostics[0].detail).toMatch(/both url and type/);
  });

  it("ValidateProviderConfig judges the endpoint written in the block; the environment waits for configure", async () => {
    const handlers = createHandlers({});
    const type = {
      kind: "object" as const,
      attributes: { endpoint: "string" as const, token: "string" as const },
    };
    const validate = async (endpoint: string | null) =>
      (
        await handlers.ValidateProviderConfig({
          config: {
            msgpack: Buffer.from(encodeMsgpack({ endpoint, token: null }, type)),
            json: Buffer.alloc(0),
          },
        })
      ).diagnostics ?? [];
    expect(await validate(null)).toEqual([]);
    expect(await validate("https://api.example.com/v2")).toEqual([]);
    const [bad] = await validate("ftp://api.example.com");
    expect(bad).toMatchObject({
      summary: "Invalid endpoint",
      attribute: { steps: [{ attribute_name: "endpoint" }] },
    });
  });

  it("after StopProvider no change starts", async () => {
    const handlers = createHandlers({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
    const stopped = new Core(async (rpc, request) =>
      handlers[rpc as keyof ProviderHandlers](request as never),
    );
    await stopped.configure();
    const config = stopped.config("vigil_contact", { type: "email", address: `${unique()}@example.com` });
    const plan = await stopped.plan("vigil_contact", null, config);
    expect(await handlers.StopProvider({})).toEqual({});
    await expect(stopped.apply("vigil_contact", null, plan, config)).rejects.toThrow(
      /asked the vigil provider to stop/,
    );
  });

  it("the provider block: an endpoint that is no URL, and no token anywhere, are errors", async () => {
    const handlers = createHandlers({});
    const bare = new Core(async (rpc, request) => handlers[rpc as keyof ProviderHandlers](request as never));
    await expect(bare.configure()).rejects.toThrow(/No API endpoint[\s\S]*No API token/);
    await expect(bare.configure({ endpoint: "api.example.com", token: "t" })).rejects.toThrow(
      /Invalid endpoint/,
    );
  });
});

describe("state", () => {
  it("UpgradeResourceState reads the JSON state of schema version 0, dropping attributes that no longer exist", async () => {
    const m = await create("vigil_monitor", {
      type: "http",
      url: `https://example.com/${unique()}`,
      locations: { pools: ["allworld"] },
    });
    // Terraform's JSON state of an object is its plain JSON.
    const json = JSON.stringify({ ...m.state, retired_attribute: "x" });
    const response = await core.ok("UpgradeResourceState", {
      type_name: "vigil_monitor",
      version: 0,
      raw_state: { json: Buffer.from(json), flatmap: {} },
    });
    expect(decodeMsgpack(response.upgraded_state.msgpack, resourceType("vigil_monitor").type)).toEqual(
      m.state,
    );
    const newer = await core.call("UpgradeResourceState", {
      type_name: "vigil_monitor",
      version: 3,
      raw_state: { json: Buffer.from(json), flatmap: {} },
    });
    expect(newer.diagnostics[0].summary).toMatch(/newer vigil provider/);
  });
});

describe("idempotency", () => {
  it("a planned create applied again, by a new provider process, answers the object the first one made", async () => {
    const url = `https://example.com/${unique()}`;
    const config = core.config("vigil_monitor", { type: "http", url, locations: { pools: ["allworld"] } });
    const plan = await core.plan("vigil_monitor", null, config);
    expect(JSON.parse(plan.plannedPrivate.toString()).write).toMatch(/^[0-9a-f]{32}$/);
    const first = await core.apply("vigil_monitor", null, plan, config);
    // The state holds no nonce: it belongs to the planned change alone.
    expect(JSON.parse(first!.private.toString()).write).toBeUndefined();
    const handlers = createHandlers({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
    const again = new Core(async (rpc, request) => handlers[rpc as keyof ProviderHandlers](request as never));
    await again.configure();
    const second = await again.apply("vigil_monitor", null, plan, config);
    expect(attr(second, "id")).toBe(attr(first, "id"));
    const listed = (await account.get(`/monitor?url=${encodeURIComponent(url)}`)).body.data;
    expect(listed).toHaveLength(1);

    // Deleted, then the same planned change applied again: its key's answer is stale, so a new object is made.
    await core.apply("vigil_monitor", first, await core.plan("vigil_monitor", first, null), null);
    const third = await again.apply("vigil_monitor", null, plan, config);
    expect(attr(third, "id")).not.toBe(attr(first, "id"));
    expect((await account.get(`/monitor/${attr(third, "id")}`)).status).toBe(200);
  });

  it("another plan of the same config (the next run, or another state) is another write: never the first one's object", async () => {
    const members = { name: `Deploy ${unique()}`, from: 1798941600, to: 1798945200 };
    const config = core.config("vigil_maintenance", members);
    const plans = [
      await core.plan("vigil_maintenance", null, config),
      await core.plan("vigil_maintenance", null, config),
    ];
    expect(plans[0]!.plannedPrivate.equals(plans[1]!.plannedPrivate)).toBe(false);
    const handlers = createHandlers({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
    const other = new Core(async (rpc, request) => handlers[rpc as keyof ProviderHandlers](request as never));
    await other.configure();
    const ours = await core.apply("vigil_maintenance", null, plans[0]!, config);
    const theirs = await other.apply("vigil_maintenance", null, plans[1]!, config);
    expect(attr(theirs, "id")).not.toBe(attr(ours, "id"));
    // An update plans its own nonce too; a plan without changes carries none.
    const renamed = core.config("vigil_maintenance", { ...members, name: `${members.name} (renamed)` });
    const update = await core.plan("vigil_maintenance", ours, renamed);
    expect(update.action).toBe("update");
    expect(JSON.parse(update.plannedPrivate.toString()).write).toMatch(/^[0-9a-f]{32}$/);
    expect(
      JSON.parse((await core.plan("vigil_maintenance", ours, config)).plannedPrivate.toString()).write,
    ).toBeUndefined();
    // The other state's delete takes its own object only.
    await other.apply("vigil_maintenance", theirs, await other.plan("vigil_maintenance", theirs, null), null);
    expect((await account.get(`/maintenance/${attr(ours, "id")}`)).status).toBe(200);
    expect((await account.get(`/maintenance/${attr(theirs, "id")}`)).status).toBe(404);
  });

  it("two resources of one configuration never share an object", async () => {
    const config = core.config("vigil_contact", { type: "email", address: `${unique()}@example.com` });
    await core.apply("vigil_contact", null, await core.plan("vigil_contact", null, config), config);
    await expect(
      core.apply("vigil_contact", null, await core.plan("vigil_contact", null, config), config),
    ).rejects.toThrow(/same object|already exists/);
  });
});

describe("partial creates", () => {
  it("an object created whose later writes fail comes back as state beside the errors, for Terraform to keep", async () => {
    const typeName = "vigil_status_page";
    const rt = resourceType(typeName);
    const slug = `partial-${unique()}`;
    // The page is created; its components (a call of their own) name a monitor that does not exist.
    const config = core.config(typeName, {
      slug,
      title: "Partial",
      components: [{ name: "Shop", monitorId: "00000000-0000-4000-8000-000000000000" }],
    });
    const plan = await core.plan(typeName, null, config);
    const response = await core.call("ApplyResourceChange", {
      type_name: typeName,
      prior_state: { msgpack: encodeMsgpack(null, rt.type), json: new Uint8Array() },
      planned_state: { msgpack: encodeMsgpack(plan.planned, rt.type), json: new Uint8Array() },
      config: { msgpack: encodeMsgpack(config, rt.type), json: new Uint8Array() },
      planned_private: plan.plannedPrivate,
      provider_meta: null,
    });
    expect(response.diagnostics.map((d: { severity: string }) => d.severity)).toContain("ERROR");
    const state = decodeMsgpack(response.new_state.msgpack, rt.type) as Record<string, unknown>;
    expect(state.slug).toBe(slug);
    expect((await account.get(`/statuspage/${state.id}`)).status).toBe(200);

    // Terraform keeps it tainted: the next apply replaces it, and the old page goes.
    const kept: Instance = { state: state as never, private: response.private };
    await core.apply(typeName, kept, await core.plan(typeName, kept, null), null);
    expect((await account.get(`/statuspage/${state.id}`)).status).toBe(404);
  });
});

describe("values known only at apply", () => {
  it("a subscription whose contact is being replaced plans a replace, the new id unknown", async () => {
    const t = await targets();
    const members = { ...t, alertTypes: ["down"] };
    const s = await create("vigil_alert_subscription", members);
    const config = { ...core.config("vigil_alert_subscription", members), contact_id: new Unknown() };
    const plan = await core.plan("vigil_alert_subscription", s, config);
    expect(plan.action).toBe("replace");
    expect(plan.requiresReplace).toEqual([{ steps: [{ attribute_name: "contact_id" }] }]);
    expect((plan.planned as Record<string, unknown>).contact_id).toBeInstanceOf(Unknown);
    expect((plan.planned as Record<string, unknown>).monitor_id).toBe(t.monitorId);
  });
});
