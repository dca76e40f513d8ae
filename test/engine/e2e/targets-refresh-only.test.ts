import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyChanges,
  type DesiredResource,
  planChanges,
  RefreshOnlyPlanError,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { appliedAccount, changed, emailContact, httpMonitor } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const alert = (monitor: string, contact: string): DesiredResource => ({
  address: `monitors.${monitor}.alerts.${contact}`,
  kind: "alertSubscription",
  members: {
    monitorId: { $ref: `monitors.${monitor}` },
    contactId: { $ref: `contacts.${contact}` },
    alertTypes: ["down"],
  },
});

describe("targets", () => {
  it("plans only the targets, what they reference, and what is nested under them", async () => {
    const base = [
      emailContact("ops", "ops@targets.example.com"),
      httpMonitor("web", "https://web.targets.example.com/"),
      httpMonitor("api", "https://api.targets.example.com/"),
    ];
    const { ops, time, store } = await appliedAccount(sb, base);
    const desired = [
      ...base.map((r) => (r.kind === "monitor" ? { ...r, members: { ...r.members, interval: 300 } } : r)),
      emailContact("dev", "dev@targets.example.com"),
      alert("web", "dev"),
    ];
    const { plan } = await planChanges({ ops, store, desired, time, targets: ["monitors.web"] });
    expect(changed(plan).map((a) => [a.address, a.action])).toEqual([
      ["contacts.dev", "create"],
      ["monitors.web", "update"],
      ["monitors.web.alerts.dev", "create"],
    ]);
    const applied = await applyChanges({ ops, store, desired, time, targets: ["monitors.web"] });
    expect(applied.result.failures).toEqual([]);
    const after = await planChanges({ ops, store, desired, time });
    expect(changed(after.plan).map((a) => a.address)).toEqual(["monitors.api"]);
  });

  it("refuses a target that is neither in the config nor in the state", async () => {
    const base = [httpMonitor("solo", "https://solo.targets.example.com/")];
    const { ops, time, store } = await appliedAccount(sb, base);
    await expect(
      planChanges({ ops, store, desired: base, time, targets: ["monitors.nope"] }),
    ).rejects.toThrow(/target monitors\.nope: no such address/);
  });
});

describe("refresh-only", () => {
  it("shows drift and out-of-band deletes only, and cannot be applied", async () => {
    const desired = [
      httpMonitor("kept", "https://kept.refresh.example.com/", { tags: ["a"] }),
      httpMonitor("gone", "https://gone.refresh.example.com/"),
    ];
    const { account, ops, time, store, ids } = await appliedAccount(sb, desired);
    expect((await account.patch(`/monitor/${ids["monitors.kept"]}`, { interval: 300 })).status).toBe(200);
    expect((await account.delete(`/monitor/${ids["monitors.gone"]}`)).status).toBe(200);
    // A config change that is not drift stays out of a refresh-only plan.
    const edited = desired.map((r) => ({ ...r, members: { ...r.members, tags: ["b"] } }));
    const { plan } = await planChanges({ ops, store, desired: edited, time, refreshOnly: true });
    expect(plan.refreshOnly).toBe(true);
    expect(plan.actions.map((a) => [a.address, a.action, a.changes.map((c) => c.path)])).toEqual([
      ["monitors.gone", "forget", []],
      ["monitors.kept", "update", ["/interval"]],
    ]);
    expect(plan.actions[1]!.changes[0]).toMatchObject({ before: 300, value: 60, drift: true });
    await expect(applyChanges({ ops, store, desired, time, plan })).rejects.toBeInstanceOf(
      RefreshOnlyPlanError,
    );
  });
});
