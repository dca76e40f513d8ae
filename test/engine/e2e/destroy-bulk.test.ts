import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChanges, type DesiredResource, MemoryStateStore } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { emailContact, httpMonitor, opsFor, writesSince } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("destroy of more objects of one kind than one bulk delete takes", () => {
  it("deletes them in two-phase bulk chunks of maxBulkItems, never one by one", async () => {
    // Trial: maxBulkItems 100, so 250 monitors take three chunks (100, 100, 50) and 230 contacts three too.
    const account = await sb.account({ plan: "trial", featureOverrides: { monitors: 300 } });
    const { client, ops, time } = opsFor(sb, account.token);
    const desired: DesiredResource[] = [
      ...Array.from({ length: 250 }, (_, i) =>
        httpMonitor(`m${i}`, `https://m${i}.destroy.example.com/`, { interval: 300 }),
      ),
      ...Array.from({ length: 230 }, (_, i) => emailContact(`c${i}`, `c${i}@destroy.example.com`)),
    ];
    const store = new MemoryStateStore();
    const created = await applyChanges({ ops, store, desired, time });
    expect(created.result.failures).toEqual([]);

    const before = client.metrics.snapshot().byRoute;
    const destroyed = await applyChanges({ ops, store, desired: [], destroy: true, time });
    expect(destroyed.result.failures).toEqual([]);
    expect(destroyed.result.done.filter((d) => d.action === "delete")).toHaveLength(480);
    expect(writesSince(before, client.metrics.snapshot().byRoute)).toEqual({
      "POST /monitor/bulk-delete-validate": 3,
      "POST /monitor/bulk-delete": 3,
      "POST /contact/bulk-delete-validate": 3,
      "POST /contact/bulk-delete": 3,
    });
    expect(await ops.monitor.all()).toEqual([]);
    expect(await ops.contact.all()).toEqual([]);
    expect(store.saved!.resources).toEqual({});
  }, 120_000);
});
