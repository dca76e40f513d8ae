import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChanges, planChanges } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { alertOf, appliedAccount, changed, emailContact, httpMonitor } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const desired = [
  httpMonitor("shop", "https://shop.gone.example.com/"),
  httpMonitor("blog", "https://blog.gone.example.com/"),
  emailContact("ops", "ops@gone.example.com"),
  alertOf("shop", "ops"),
];

describe("an object deleted outside vigil", () => {
  it("is planned as a create (with what depended on it), created again, and then the plan is empty", async () => {
    const { account, ops, time, store, ids } = await appliedAccount(sb, desired);
    expect((await account.delete(`/monitor/${ids["monitors.shop"]}`)).status).toBe(200);

    const { plan } = await planChanges({ ops, store, desired, time });
    const shop = plan.actions.find((a) => a.address === "monitors.shop")!;
    expect(shop).toMatchObject({ action: "create", reasons: ["deleted outside vigil"] });
    // The API deleted the subscription with its monitor.
    const sub = plan.actions.find((a) => a.address === "alertSubscriptions.shop-ops")!;
    expect(sub.action).toBe("create");
    expect(
      changed(plan)
        .map((a) => a.address)
        .sort(),
    ).toEqual(["alertSubscriptions.shop-ops", "monitors.shop"]);

    const applied = await applyChanges({ ops, store, desired, time });
    expect(applied.result.failures).toEqual([]);
    const newId = store.saved!.resources["monitors.shop"]!.id!;
    expect(newId).not.toBe(ids["monitors.shop"]);
    const live = await ops.monitor.all();
    expect(live.filter((m) => m.url === "https://shop.gone.example.com/").map((m) => m.id)).toEqual([newId]);
    const subs = await ops.alertSubscription.list.all();
    expect(subs.map((s) => [s.monitorId, s.contactId])).toEqual([[newId, ids["contacts.ops"]]]);
    expect(changed((await planChanges({ ops, store, desired, time })).plan)).toEqual([]);
  });
});
