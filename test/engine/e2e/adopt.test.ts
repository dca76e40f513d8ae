import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyActions,
  applyChanges,
  ConfigError,
  type DesiredResource,
  MemoryStateStore,
  newState,
  PlanError,
  planChanges,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { alertOf, appliedAccount, changed, emailContact, engineAccount, httpMonitor } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("adopting live objects", () => {
  it("with the state lost, every resource is imported by its natural key, never created", async () => {
    const desired: DesiredResource[] = [
      httpMonitor("shop", "https://shop.adopt.example.com/", { settings: { timeout: 12000 } }),
      httpMonitor("blog", "https://blog.adopt.example.com/"),
      emailContact("ops", "ops@adopt.example.com"),
      alertOf("shop", "ops"),
      {
        address: "webhooks.events",
        kind: "webhook",
        members: { url: "https://hooks.adopt.example.net/", events: ["monitor.down"], scope: { all: true } },
      },
    ];
    const { ops, time, ids } = await appliedAccount(sb, desired);
    const store = new MemoryStateStore();

    const { plan } = await planChanges({ ops, store, desired, time });
    expect(plan.actions.map((a) => [a.address, a.action, a.id])).toEqual([
      ["contacts.ops", "import", ids["contacts.ops"]],
      ["monitors.blog", "import", ids["monitors.blog"]],
      ["monitors.shop", "import", ids["monitors.shop"]],
      ["alertSubscriptions.shop-ops", "import", ids["alertSubscriptions.shop-ops"]],
      ["webhooks.events", "import", ids["webhooks.events"]],
    ]);
    for (const a of plan.actions) expect(a.reasons).toEqual(["adopted by natural key (no state)"]);
    expect(plan.warnings.join(" ")).toMatch(/No state/);

    const applied = await applyChanges({ ops, store, desired, time });
    expect(applied.result.failures).toEqual([]);
    expect(store.saved!.resources["monitors.shop"]!.id).toBe(ids["monitors.shop"]);
    expect(changed((await planChanges({ ops, store, desired, time })).plan)).toEqual([]);
    expect((await ops.monitor.all()).length).toBe(2);
    expect((await ops.contact.all()).length).toBe(1);
    expect((await ops.alertSubscription.list.all()).length).toBe(1);
    expect((await ops.webhook.all()).length).toBe(1);
  });

  it("a create answered 409 duplicate adopts the object when nothing manages it", async () => {
    const { account, client, ops, time } = await engineAccount(sb);
    const desired = [httpMonitor("shop", "https://shop.dup.example.com/", { interval: 120 })];
    const store = new MemoryStateStore();
    const { plan, inventory } = await planChanges({ ops, store, desired, time });
    expect(changed(plan).map((a) => a.action)).toEqual(["create"]);
    // Created between the plan and the apply, by someone else.
    const rogue = await account.post("/monitor", {
      type: "http",
      url: "https://shop.dup.example.com/",
      locations: { pools: ["allworld"] },
    });
    expect(rogue.status).toBe(201);

    const lock = await store.lock();
    const state = newState();
    const result = await applyActions({
      ops,
      lock,
      state,
      actions: plan.actions,
      desired,
      live: inventory.byId,
      complete: inventory.complete,
      maxBulkItems: inventory.maxBulkItems,
      time,
    });
    await lock.release();
    expect(result.failures).toEqual([]);
    expect(client.metrics.snapshot().byStatus["409"]).toBe(1);
    expect(store.saved!.resources["monitors.shop"]!.id).toBe(rogue.body.id);
    const monitors = await ops.monitor.all();
    expect(monitors.map((m) => [m.id, m.interval])).toEqual([[rogue.body.id, 120]]);
  });

  it("a second address with a managed object's natural key is refused by the plan, before any write", async () => {
    const desired = [httpMonitor("shop", "https://shop.dup2.example.com/")];
    const { ops, time, store } = await appliedAccount(sb, desired);
    // The same address as the service compares it: the API would answer 409 duplicate_monitor.
    const twice = [...desired, httpMonitor("shop-again", "https://SHOP.dup2.example.com/")];
    for (const run of [planChanges, applyChanges]) {
      const refused = await run({ ops, store, desired: twice, time }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ConfigError);
      expect((refused as ConfigError).diagnostics).toMatchObject([
        { address: "monitors.shop-again", pointer: "/url", code: "duplicate_monitor" },
      ]);
    }
    expect(store.saved!.resources["monitors.shop-again"]).toBeUndefined();
    expect((await ops.monitor.all()).length).toBe(1);
  });

  it("an explicit import brings an object under an address; an id already managed elsewhere is refused", async () => {
    const desired = [httpMonitor("shop", "https://shop.imp.example.com/")];
    const { account, ops, time, store, ids } = await appliedAccount(sb, desired);
    const legacy = await account.post("/monitor", {
      type: "http",
      url: "https://legacy.imp.example.com/",
      interval: 300,
      locations: { pools: ["allworld"] },
    });
    expect(legacy.status).toBe(201);
    const withLegacy = [...desired, httpMonitor("legacy", "https://legacy.imp.example.com/")];
    const imports = [{ address: "monitors.legacy", id: legacy.body.id as string }];

    const { plan } = await planChanges({ ops, store, desired: withLegacy, time, imports });
    expect(changed(plan)).toMatchObject([
      {
        address: "monitors.legacy",
        action: "import",
        id: legacy.body.id,
        reasons: [`import of ${legacy.body.id}`],
      },
    ]);
    const legacyAction = changed(plan)[0]!;
    expect(legacyAction.changes.map((c) => [c.path, c.before, c.value])).toEqual(
      expect.arrayContaining([
        ["/interval", 300, 60],
        ["/name", "https://legacy.imp.example.com/", "legacy"],
      ]),
    );
    const applied = await applyChanges({ ops, store, desired: withLegacy, time, imports });
    expect(applied.result.failures).toEqual([]);
    expect(store.saved!.resources["monitors.legacy"]!.id).toBe(legacy.body.id);
    expect(changed((await planChanges({ ops, store, desired: withLegacy, time })).plan)).toEqual([]);
    // The import kept in the configuration (an exported imports.yaml) is done: nothing to import again.
    expect(changed((await planChanges({ ops, store, desired: withLegacy, time, imports })).plan)).toEqual([]);
    expect((await ops.monitor.all()).length).toBe(2);

    // Another address (and url) importing an id that is managed already.
    const stolen = [...withLegacy, httpMonitor("copy", "https://copy.imp.example.com/")];
    await expect(
      planChanges({
        ops,
        store,
        desired: stolen,
        time,
        imports: [{ address: "monitors.copy", id: ids["monitors.shop"]! }],
      }),
    ).rejects.toThrow(PlanError);
    await expect(
      planChanges({
        ops,
        store,
        desired: stolen,
        time,
        imports: [{ address: "monitors.copy", id: ids["monitors.shop"]! }],
      }),
    ).rejects.toThrow(`already managed as monitors.shop`);
  });
});
