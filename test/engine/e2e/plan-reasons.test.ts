import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planChanges } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { alertOf, appliedAccount, changed, emailContact, httpMonitor } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("the reasons a plan gives", () => {
  it("a subscription replaced with its monitor names the monitor's replace", async () => {
    const desired = [
      httpMonitor("cert", "https://cert.reasons.example.com/"),
      emailContact("ops", "ops@reasons.example.com"),
      alertOf("cert", "ops"),
    ];
    const { ops, time, store } = await appliedAccount(sb, desired);
    const retyped = desired.map((d) =>
      d.address === "monitors.cert"
        ? { ...d, members: { ...d.members, type: "ping", url: "cert.reasons.example.com" } }
        : d,
    );
    const { plan } = await planChanges({ ops, store, desired: retyped, time });
    const sub = changed(plan).find((a) => a.address === "alertSubscriptions.cert-ops")!;
    expect(sub.action).toBe("replace");
    expect(sub.reasons).toEqual(["monitors.cert is replaced, and monitorId cannot change in place"]);
  });

  it("a destroy says it was requested, or targeted, not that the config lacks the object", async () => {
    const desired = [
      httpMonitor("a", "https://a.reasons.example.com/"),
      httpMonitor("b", "https://b.reasons.example.com/"),
    ];
    const { ops, time, store } = await appliedAccount(sb, desired);
    const all = await planChanges({ ops, store, desired: [], destroy: true, time });
    expect(changed(all.plan).map((a) => [a.address, a.reasons])).toEqual([
      ["monitors.a", ["destroy requested"]],
      ["monitors.b", ["destroy requested"]],
    ]);
    const one = await planChanges({ ops, store, desired: [], destroy: true, targets: ["monitors.a"], time });
    expect(changed(one.plan).map((a) => [a.address, a.reasons])).toEqual([
      ["monitors.a", ["targeted for destruction"]],
    ]);
    // Without destroy, an object missing from the config is still just that.
    const removed = await planChanges({ ops, store, desired: desired.slice(1), time });
    expect(changed(removed.plan).map((a) => a.reasons)).toEqual([["not in the config"]]);
  });
});
