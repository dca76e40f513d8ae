/**
 * The provider's handlers in process, against the sandbox: every resource type through create, refresh,
 * no-op plan, update, drift, import, replace and delete, held to Terraform core's rules on each step.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProviderHandlers } from "../../src/terraform/plugin/protocol.ts";
import { createHandlers } from "../../src/terraform/provider.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { attr, Core, type Instance } from "../helpers/terraform-core.ts";

let sb: TestSandbox;
let account: Client & { accountId: string };
let core: Core;

beforeAll(async () => {
  sb = await startTestSandbox();
  account = await sb.account({ plan: "enterprise" });
  const handlers = createHandlers({ VIGIL_ENDPOINT: sb.url, VIGIL_TOKEN: account.token });
  core = new Core(async (rpc, request) => handlers[rpc as keyof ProviderHandlers](request as never));
  await core.configure();
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

/** Creates what other kinds point at: a monitor and a contact, through the provider too. */
async function targets() {
  const monitor = await create("vigil_monitor", {
    type: "http",
    url: `https://example.com/${unique()}`,
    locations: { pools: ["allworld"] },
  });
  const contact = await create("vigil_contact", { type: "email", address: `${unique()}@example.com` });
  return { monitorId: String(attr(monitor, "id")), contactId: String(attr(contact, "id")) };
}

const day = 86_400;
const future = () => Math.floor(Date.now() / 1000) + 30 * day;

/** Per resource type: a config, and a change that updates it in place. */
const cases: Record<
  string,
  (t: { monitorId: string; contactId: string }) => {
    members: Record<string, unknown>;
    change: Record<string, unknown>;
  }
> = {
  vigil_contact: () => ({
    members: {
      type: "http",
      address: `https://hooks.example.com/${unique()}`,
      name: "Pager",
      httpHeaders: [{ header: "Authorization", value: "Bearer secret-token" }],
    },
    change: { name: "Pager (night)" },
  }),
  vigil_contact_group: ({ contactId }) => ({
    members: { name: `SRE ${unique()}`, members: [{ contactId, events: ["down", "up"] }] },
    change: { members: [{ contactId, events: ["down"] }] },
  }),
  vigil_alert_subscription: ({ monitorId, contactId }) => ({
    members: { monitorId, contactId, alertTypes: ["down", "up"] },
    change: { alertTypes: ["down"] },
  }),
  vigil_report_subscription: ({ monitorId, contactId }) => ({
    members: { monitorId, contactId, frequencies: ["weekly"] },
    change: { frequencies: ["weekly", "monthly"] },
  }),
  vigil_maintenance: ({ monitorId }) => ({
    members: { name: "Deploy", from: future(), to: future() + 3600, monitorIds: [monitorId] },
    change: { name: "Deploy window", repeat: "weekly" },
  }),
  vigil_status_page: ({ monitorId }) => ({
    members: {
      slug: `status-${unique()}`,
      title: "Status",
      components: [{ name: "Shop", monitorId }, { name: "Support", manualState: "operational" }],
    },
    change: { title: "Shop status", components: [{ name: "Shop", monitorId }] },
  }),
  vigil_webhook: ({ monitorId }) => ({
    members: {
      url: `https://hooks.example.com/${unique()}`,
      events: ["monitor.down", "monitor.up"],
      scope: { monitorIds: [monitorId] },
      secret: "sandbox-webhook-secret-0123456789",
    },
    change: { events: ["monitor.down"], secret: "another-webhook-secret-0123456789" },
  }),
};

describe.each(Object.keys(cases))("%s", (typeName) => {
  it("create, no-op plan, update in place, import, delete", async () => {
    const { members, change } = cases[typeName]!(await targets());
    let r = await create(typeName, members);
    const id = String(attr(r, "id"));

    const updated = core.config(typeName, { ...members, ...change });
    const plan = await core.plan(typeName, r, updated);
    expect(plan.action).toBe("update");
    r = (await core.apply(typeName, r, plan, updated))!;
    r = (await core.read(typeName, r))!;
    expect((await core.plan(typeName, r, updated)).action).toBe("no-op");

    const imported = await core.import(typeName, id);
    const afterImport = await core.plan(typeName, imported, updated);
    // Credentials read back masked cannot be compared: an import takes them from the config, in the state only.
    expect(afterImport.requiresReplace).toEqual([]);
    const settled = await core.apply(typeName, imported, afterImport, updated);
    expect((await core.plan(typeName, await core.read(typeName, settled!), updated)).action).toBe("no-op");

    expect(await core.apply(typeName, r, await core.plan(typeName, r, null), null)).toBeNull();
    expect(await core.read(typeName, r)).toBeNull();
  });
});
