import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyChanges,
  type DesiredResource,
  MemoryStateStore,
  planChanges,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { engineAccount } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const desired: DesiredResource[] = [
  {
    address: "monitors.site",
    kind: "monitor",
    members: {
      type: "http",
      url: "https://drift.example.com/",
      name: "Site",
      interval: 60,
      tags: ["web", "prod"],
      locations: { pools: ["allworld"] },
      settings: { timeout: 15000, userAgent: "vigil-drift/1" },
    },
  },
  {
    address: "contacts.ops",
    kind: "contact",
    members: { type: "email", address: "ops@drift.example.com", name: "Ops" },
  },
  {
    address: "webhooks.events",
    kind: "webhook",
    members: {
      url: "https://hooks.drift.example.net/vigil",
      name: "Events",
      events: ["monitor.up", "monitor.down"],
      scope: { all: true },
      headers: [{ header: "Authorization", value: "Bearer drift-1" }],
    },
  },
];

async function setUp() {
  const env = await engineAccount(sb);
  const store = new MemoryStateStore();
  const first = await applyChanges({ ops: env.ops, store, desired, time: env.time });
  expect(first.result.failures).toEqual([]);
  const ids = Object.fromEntries(Object.entries(store.saved!.resources).map(([a, r]) => [a, r.id!]));
  return { ...env, store, ids };
}

describe("out-of-band changes", () => {
  it("a managed member changed outside vigil is drift: planned as an update, restored, then the plan is empty", async () => {
    const { account, ops, time, store, ids } = await setUp();
    const patched = await account.patch(`/monitor/${ids["monitors.site"]}`, {
      interval: 300,
      tags: ["web"],
      settings: { timeout: 5000 },
    });
    expect(patched.status).toBe(200);

    const { plan } = await planChanges({ ops, store, desired, time });
    const site = plan.actions.find((a) => a.address === "monitors.site")!;
    expect(site.action).toBe("update");
    expect(site.reasons.join(" ")).toMatch(/drift/);
    const byPath = Object.fromEntries(site.changes.map((c) => [c.path, c]));
    expect(Object.keys(byPath).sort()).toEqual(["/interval", "/settings/timeout", "/tags"]);
    expect(byPath["/interval"]).toMatchObject({ op: "replace", before: 300, value: 60, drift: true });
    expect(byPath["/settings/timeout"]).toMatchObject({
      op: "replace",
      before: 5000,
      value: 15000,
      drift: true,
    });
    expect(byPath["/tags"]).toMatchObject({ op: "replace", before: ["web"], drift: true });
    expect(plan.actions.filter((a) => a.action !== "no-op").map((a) => a.address)).toEqual(["monitors.site"]);

    const applied = await applyChanges({ ops, store, desired, time });
    expect(applied.result.failures).toEqual([]);
    const live = await ops.monitor.get(ids["monitors.site"]!, { expand: ["settings"] });
    expect(live).toMatchObject({ interval: 60, settings: { timeout: 15000 } });
    expect([...(live.tags as string[])].sort()).toEqual(["prod", "web"]);
    const after = await planChanges({ ops, store, desired, time });
    expect(after.plan.actions.filter((a) => a.action !== "no-op")).toEqual([]);
  });

  it("members the config never set are left alone when they change outside vigil", async () => {
    const { account, ops, time, store, ids } = await setUp();
    const id = ids["monitors.site"]!;
    expect(
      (await account.patch(`/monitor/${id}`, { slaTarget: 95, settings: { accept: "text/html" } })).status,
    ).toBe(200);

    const { plan } = await planChanges({ ops, store, desired, time });
    expect(plan.actions.filter((a) => a.action !== "no-op")).toEqual([]);
    await applyChanges({ ops, store, desired, time });
    const live = await ops.monitor.get(id, { expand: ["settings"] });
    expect(live).toMatchObject({ slaTarget: 95, settings: { accept: "text/html", timeout: 15000 } });
  });

  it("a contact's managed member changed outside vigil is restored", async () => {
    const { account, ops, time, store, ids } = await setUp();
    expect((await account.patch(`/contact/${ids["contacts.ops"]}`, { name: "Someone else" })).status).toBe(
      200,
    );
    const { plan } = await planChanges({ ops, store, desired, time });
    const ops_ = plan.actions.find((a) => a.address === "contacts.ops")!;
    expect(ops_).toMatchObject({
      action: "update",
      changes: [{ path: "/name", before: "Someone else", value: "Ops", drift: true }],
    });
    await applyChanges({ ops, store, desired, time });
    expect((await ops.contact.get(ids["contacts.ops"]!)).name).toBe("Ops");
    expect((await planChanges({ ops, store, desired, time })).plan.summary.update).toBe(0);
  });

  it("a webhook's events changed outside vigil are drift; a header value is masked, so its change cannot be seen", async () => {
    const { account, ops, time, store, ids } = await setUp();
    const id = ids["webhooks.events"]!;
    expect((await account.patch(`/webhook/${id}`, { events: ["monitor.down"] })).status).toBe(200);
    const { plan } = await planChanges({ ops, store, desired, time });
    const hook = plan.actions.find((a) => a.address === "webhooks.events")!;
    expect(hook.action).toBe("update");
    expect(hook.changes).toEqual([
      {
        op: "replace",
        path: "/events",
        before: ["monitor.down"],
        value: ["monitor.down", "monitor.up"],
        drift: true,
      },
    ]);
    await applyChanges({ ops, store, desired, time });
    expect((await planChanges({ ops, store, desired, time })).plan.summary.update).toBe(0);

    // The value reads back `{set: true}`: the diff compares the hash of what vigil applied, and has nothing live to hash.
    const header = await account.patch(`/webhook/${id}`, {
      headers: [{ header: "Authorization", value: "Bearer changed" }],
    });
    expect(header.status).toBe(200);
    const masked = await planChanges({ ops, store, desired, time });
    expect(masked.plan.summary.update).toBe(0);
  });
});
