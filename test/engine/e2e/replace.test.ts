import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChanges, type DesiredResource, PlanError, planChanges } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { alertOf, appliedAccount, changed, emailContact, httpMonitor } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const url = "https://replace.example.com/";

describe("replace", () => {
  it("a type change is a create-first replace; the subscriptions follow the new monitor", async () => {
    const desired = [
      httpMonitor("site", url),
      emailContact("ops", "ops@replace.example.com"),
      alertOf("site", "ops"),
    ];
    const { ops, time, store, ids } = await appliedAccount(sb, desired);
    const retyped: DesiredResource[] = [
      { address: "monitors.site", kind: "monitor", members: { type: "sslExp", url, name: "site" } },
      ...desired.slice(1),
    ];

    const { plan } = await planChanges({ ops, store, desired: retyped, time });
    const site = plan.actions.find((a) => a.address === "monitors.site")!;
    expect(site).toMatchObject({ action: "replace", replaceOrder: "create-first", id: ids["monitors.site"] });
    expect(site.reasons).toContain("type cannot change in place");
    expect(site.changes.find((c) => c.path === "/type")).toMatchObject({ before: "http", value: "sslExp" });
    const sub = plan.actions.find((a) => a.address === "alertSubscriptions.site-ops")!;
    expect(sub).toMatchObject({ action: "replace", cascadedBy: "monitors.site" });

    const applied = await applyChanges({ ops, store, desired: retyped, time });
    expect(applied.result.failures).toEqual([]);
    expect(applied.result.cascadeMismatches).toEqual([]);
    const monitors = await ops.monitor.all();
    expect(monitors.map((m) => [m.type, m.url])).toEqual([["sslExp", url]]);
    const newId = String(monitors[0]!.id);
    expect(newId).not.toBe(ids["monitors.site"]);
    const subs = await ops.alertSubscription.list.all();
    expect(subs.map((s) => [s.monitorId, s.contactId])).toEqual([[newId, ids["contacts.ops"]]]);
    expect(Object.keys(store.saved!.resources).sort()).toEqual(retyped.map((d) => d.address).sort());
    expect(changed((await planChanges({ ops, store, desired: retyped, time })).plan)).toEqual([]);
  });

  it("a change under replaceOnChanges replaces delete-first, since the natural key stays the same", async () => {
    const lifecycle = { replaceOnChanges: ["name"] };
    const desired = [{ ...httpMonitor("site", url), lifecycle }];
    const { ops, time, store, ids } = await appliedAccount(sb, desired);
    const renamed = [{ ...httpMonitor("site", url, { name: "Renamed" }), lifecycle }];

    const { plan } = await planChanges({ ops, store, desired: renamed, time });
    expect(changed(plan)).toMatchObject([
      {
        address: "monitors.site",
        action: "replace",
        replaceOrder: "delete-first",
        reasons: ["/name is in replaceOnChanges"],
      },
    ]);
    const applied = await applyChanges({ ops, store, desired: renamed, time });
    expect(applied.result.failures).toEqual([]);
    const monitors = await ops.monitor.all();
    expect(monitors.map((m) => [m.name, m.url])).toEqual([["Renamed", url]]);
    expect(monitors[0]!.id).not.toBe(ids["monitors.site"]);
    expect(changed((await planChanges({ ops, store, desired: renamed, time })).plan)).toEqual([]);
  });

  it("protect refuses a replace and a removal", async () => {
    const desired = [{ ...httpMonitor("site", url), lifecycle: { protect: true } }];
    const { ops, time, store } = await appliedAccount(sb, desired);
    const retyped: DesiredResource[] = [
      {
        address: "monitors.site",
        kind: "monitor",
        members: { type: "sslExp", url },
        lifecycle: { protect: true },
      },
    ];
    await expect(planChanges({ ops, store, desired: retyped, time })).rejects.toThrow(PlanError);
    await expect(planChanges({ ops, store, desired: retyped, time })).rejects.toThrow(
      /monitors.site is protected.*replace/,
    );
    await expect(planChanges({ ops, store, desired: retyped, time })).rejects.toMatchObject({
      problems: [
        expect.objectContaining({
          address: "monitors.site",
          code: "protected_replace",
          data: expect.anything(),
        }),
      ],
    });
    // The state remembers the protection once the resource has left the config, even for a destroy.
    await expect(planChanges({ ops, store, desired: [], time, destroy: true })).rejects.toThrow(
      /monitors.site is protected.*delete/,
    );
    await expect(planChanges({ ops, store, desired: [], time, destroy: true })).rejects.toMatchObject({
      problems: [
        { address: "monitors.site", code: "protected_delete", data: {}, message: expect.any(String) },
      ],
    });
    await expect(applyChanges({ ops, store, desired: [], time, destroy: true })).rejects.toThrow(PlanError);
    expect((await ops.monitor.all()).length).toBe(1);
  });
});
