import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyChanges,
  DeletionGuardError,
  MemoryStateStore,
  planChanges,
  RefreshError,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { alertOf, appliedAccount, emailContact, engineAccount, httpMonitor, opsFor } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const desired = [
  httpMonitor("shop", "https://shop.sus.example.com/"),
  emailContact("ops", "ops@sus.example.com"),
  alertOf("shop", "ops"),
];

async function minted(accountId: string, scopes: string[]): Promise<string> {
  const res = await sb.mint({ accountId, scopes });
  expect(res.status).toBe(201);
  return res.body.token;
}

describe("suspicious answers are errors, never 'everything was deleted'", () => {
  it("a token refused (401, or 403 for a missing scope) fails the plan and leaves the state untouched", async () => {
    const { account, store } = await appliedAccount(sb, desired);
    const before = store.saved;
    for (const scopes of [["account"], ["account", "contact", "subs"], ["monitor", "contact", "subs"]]) {
      const { ops, time } = opsFor(sb, await minted(account.accountId, scopes));
      const error = await planChanges({ ops, store, desired, time }).catch((e: unknown) => e);
      expect(error, scopes.join(",")).toBeInstanceOf(RefreshError);
      expect((error as Error).message).toMatch(/403/);
      await expect(applyChanges({ ops, store, desired, time })).rejects.toThrow(RefreshError);
    }
    const { ops, time } = opsFor(sb, "not-a-token");
    await expect(planChanges({ ops, store, desired, time })).rejects.toThrow(/401/);
    expect(store.saved).toEqual(before);
  });

  it("the state of one account with the token of another is refused", async () => {
    const { store } = await appliedAccount(sb, desired);
    const before = store.saved;
    const other = await engineAccount(sb);
    const error = await planChanges({ ops: other.ops, store, desired, time: other.time }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RefreshError);
    expect((error as Error).message).toMatch(/belongs to account/);
    expect(store.saved).toEqual(before);
    expect(await other.ops.monitor.all()).toEqual([]);
  });

  it("an account emptied outside vigil is refused unless allowEmpty says it really was", async () => {
    const { account, ops, time, store, ids } = await appliedAccount(sb, desired);
    expect((await account.delete(`/monitor/${ids["monitors.shop"]}`)).status).toBe(200);
    expect((await account.delete(`/contact/${ids["contacts.ops"]}`)).status).toBe(200);
    const before = store.saved;
    await expect(planChanges({ ops, store, desired, time })).rejects.toThrow(RefreshError);
    await expect(applyChanges({ ops, store, desired, time })).rejects.toThrow(/answered no objects/);
    expect(store.saved).toEqual(before);

    const { plan } = await planChanges({ ops, store, desired, time, allowEmpty: true });
    expect(plan.actions.map((a) => [a.address, a.action])).toEqual([
      ["contacts.ops", "create"],
      ["monitors.shop", "create"],
      ["alertSubscriptions.shop-ops", "create"],
    ]);
    expect(plan.actions.every((a) => a.reasons.includes("deleted outside vigil"))).toBe(true);
    // A fresh state with an empty account is not suspicious: nothing is held.
    const fresh = await planChanges({ ops, store: new MemoryStateStore(), desired, time });
    expect(fresh.plan.summary.create).toBe(3);
  });

  it("an empty desired state is refused before any call; a kind left out needs allowMassDelete; destroy deletes", async () => {
    const { ops, time, store, client } = await appliedAccount(sb, desired);
    const before = store.saved;
    const calls = client.metrics.snapshot().attempts;
    await expect(planChanges({ ops, store, desired: [], time })).rejects.toMatchObject({
      name: "DeletionGuardError",
      code: "empty_configuration",
      data: { managed: 3 },
    });
    await expect(applyChanges({ ops, store, desired: [], time, allowMassDelete: true })).rejects.toThrow(
      /declares no resources, yet the state manages 3 objects.*vigil destroy/,
    );
    expect(client.metrics.snapshot().attempts).toBe(calls);
    expect(store.saved).toEqual(before);

    // Two contacts, and a config that declares monitors only: every contact would go.
    const two = [...desired, emailContact("audit", "audit@sus.example.com")];
    await applyChanges({ ops, store, desired: two, time });
    const monitorsOnly = two.filter((d) => d.kind === "monitor");
    const refused = await planChanges({ ops, store, desired: monitorsOnly, time }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DeletionGuardError);
    expect(refused).toMatchObject({ code: "mass_delete", data: { deletes: 3, vanishedKinds: ["contact"] } });
    expect((refused as DeletionGuardError).addresses.sort()).toEqual([
      "alertSubscriptions.shop-ops",
      "contacts.audit",
      "contacts.ops",
    ]);
    const { plan } = await planChanges({ ops, store, desired: monitorsOnly, time, allowMassDelete: true });
    expect(plan.summary.delete).toBe(3);

    // A monitor's last alerts removed is an edit of the monitor, not a kind left out.
    const alerted = [...two, alertOf("shop", "audit")];
    await applyChanges({ ops, store, desired: alerted, time });
    const unalerted = alerted.filter((d) => d.kind !== "alertSubscription");
    expect((await planChanges({ ops, store, desired: unalerted, time })).plan.summary.delete).toBe(2);

    const destroyed = await applyChanges({ ops, store, desired: [], time, destroy: true });
    expect(destroyed.result.failures).toEqual([]);
    expect(destroyed.plan.summary.delete).toBe(5);
    expect(await ops.monitor.all()).toEqual([]);
  });
});
