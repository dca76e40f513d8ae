import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChanges, planChanges } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { alertOf, appliedAccount, changed, emailContact, httpMonitor, writesSince } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("removing resources from the config", () => {
  it("deletes a monitor; its subscriptions are cascaded by the API, with no call of their own", async () => {
    const desired = [
      httpMonitor("shop", "https://shop.rm.example.com/"),
      httpMonitor("blog", "https://blog.rm.example.com/"),
      emailContact("ops", "ops@rm.example.com"),
      emailContact("dev", "dev@rm.example.com"),
      alertOf("shop", "ops"),
      alertOf("shop", "dev"),
      alertOf("blog", "ops"),
    ];
    const { client, ops, time, store, ids } = await appliedAccount(sb, desired);
    const smaller = desired.filter((d) => !d.address.includes("shop"));

    const { plan } = await planChanges({ ops, store, desired: smaller, time });
    expect(changed(plan).map((a) => [a.address, a.action, a.cascadedBy])).toEqual([
      ["alertSubscriptions.shop-dev", "delete", "monitors.shop"],
      ["alertSubscriptions.shop-ops", "delete", "monitors.shop"],
      ["monitors.shop", "delete", undefined],
    ]);

    const before = client.metrics.snapshot().byRoute;
    const applied = await applyChanges({ ops, store, desired: smaller, time });
    expect(applied.result.failures).toEqual([]);
    expect(applied.result.cascadeMismatches).toEqual([]);
    expect(writesSince(before, client.metrics.snapshot().byRoute)).toEqual({ "DELETE /monitor/{id}": 1 });
    expect(Object.keys(store.saved!.resources).sort()).toEqual(smaller.map((d) => d.address).sort());
    expect((await ops.monitor.all()).map((m) => m.id)).toEqual([ids["monitors.blog"]]);
    const subs = await ops.alertSubscription.list.all();
    expect(subs.map((s) => s.monitorId)).toEqual([ids["monitors.blog"]]);
    expect(changed((await planChanges({ ops, store, desired: smaller, time })).plan)).toEqual([]);
  });

  it("deletes a contact; its subscriptions are cascaded too", async () => {
    const desired = [
      httpMonitor("shop", "https://shop.rmc.example.com/"),
      httpMonitor("blog", "https://blog.rmc.example.com/"),
      emailContact("ops", "ops@rmc.example.com"),
      emailContact("dev", "dev@rmc.example.com"),
      alertOf("shop", "dev"),
      alertOf("blog", "dev"),
      alertOf("blog", "ops"),
    ];
    const { client, ops, time, store, ids } = await appliedAccount(sb, desired);
    const smaller = desired.filter((d) => !d.address.includes("dev"));

    const { plan } = await planChanges({ ops, store, desired: smaller, time });
    expect(changed(plan).map((a) => [a.address, a.action, a.cascadedBy])).toEqual([
      ["alertSubscriptions.blog-dev", "delete", "contacts.dev"],
      ["alertSubscriptions.shop-dev", "delete", "contacts.dev"],
      ["contacts.dev", "delete", undefined],
    ]);
    const before = client.metrics.snapshot().byRoute;
    const applied = await applyChanges({ ops, store, desired: smaller, time });
    expect(applied.result.failures).toEqual([]);
    expect(applied.result.cascadeMismatches).toEqual([]);
    expect(writesSince(before, client.metrics.snapshot().byRoute)).toEqual({ "DELETE /contact/{id}": 1 });
    expect(Object.keys(store.saved!.resources).sort()).toEqual(smaller.map((d) => d.address).sort());
    const subs = await ops.alertSubscription.list.all();
    expect(subs.map((s) => s.contactId)).toEqual([ids["contacts.ops"]]);
    expect((await ops.contact.all()).map((c) => c.id)).toEqual([ids["contacts.ops"]]);
  });

  it("deletes several monitors with the two-phase bulk delete, never an unmanaged one with a similar address", async () => {
    const desired = ["a", "b", "c", "d"].map((n) => httpMonitor(n, `https://bulk.rm.example.com/${n}`));
    const { account, client, ops, time, store, ids } = await appliedAccount(sb, desired);
    // Unmanaged: the same address under another type, and a longer address.
    const sameUrl = await account.post("/monitor", { type: "sslExp", url: "https://bulk.rm.example.com/a" });
    const longer = await account.post("/monitor", {
      type: "http",
      url: "https://bulk.rm.example.com/a/b",
      locations: { pools: ["allworld"] },
    });
    expect([sameUrl.status, longer.status]).toEqual([201, 201]);
    const kept = desired.filter((d) => d.address === "monitors.d");

    const before = client.metrics.snapshot().byRoute;
    const applied = await applyChanges({ ops, store, desired: kept, time });
    expect(applied.result.failures).toEqual([]);
    expect(applied.plan.summary.delete).toBe(3);
    expect(writesSince(before, client.metrics.snapshot().byRoute)).toEqual({
      "POST /monitor/bulk-delete-validate": 1,
      "POST /monitor/bulk-delete": 1,
    });
    const left = (await ops.monitor.all()).map((m) => m.id).sort();
    expect(left).toEqual([ids["monitors.d"], sameUrl.body.id, longer.body.id].sort());
    expect(Object.keys(store.saved!.resources)).toEqual(["monitors.d"]);
    expect(changed((await planChanges({ ops, store, desired: kept, time })).plan)).toEqual([]);
  });
});
