/**
 * `makePlan` as a whole, on an account written out by hand (`plan/account.ts`): no sandbox. Its phases have
 * their own tests beside this file (`plan/*.test.ts`); the plans of a real account are the e2e suites'.
 */
import { describe, expect, it } from "vitest";
import { makePlan, PlanError, summarize } from "../../src/engine/plan.ts";
import { newState } from "../../src/engine/state/index.ts";
import { shopAccount } from "./plan/account.ts";

const brief = (plan: ReturnType<typeof makePlan>) =>
  plan.actions.map((a) => [a.address, a.action, ...(a.cascadedBy ? [`by ${a.cascadedBy}`] : [])]);

describe("makePlan without a sandbox", () => {
  it("plans no-ops for an account that matches, in dependency order, recording what it saw", () => {
    const a = shopAccount();
    const plan = makePlan({ desired: a.desired, state: a.state, inventory: a.inventory, now: 1700000000 });
    expect(brief(plan)).toEqual([
      ["contacts.ops", "no-op"],
      ["monitors.shop", "no-op"],
      ["alertSubscriptions.shop-ops", "no-op"],
    ]);
    expect(plan.actions.map((a) => a.observed?.updated)).toEqual([1795897875, 1795897875, 1795897875]);
    expect(plan).toMatchObject({
      created: 1700000000,
      lineage: a.state.lineage,
      accountId: "acc-1",
      liveCounts: { monitor: 1, contact: 1, alertSubscription: 1 },
      summary: { ...summarize([]), "no-op": 3 },
      warnings: [],
    });
    expect(plan.notes).toBeUndefined();
    expect(plan.refreshOnly).toBeUndefined();
  });

  it("replaces a contact whose type changes, and its subscription with it, cascaded", () => {
    const a = shopAccount();
    const desired = a.desired.map((r) =>
      r === a.ops ? { ...r, members: { ...r.members, type: "sms", address: "+15551234567" } } : r,
    );
    const plan = makePlan({ desired, state: a.state, inventory: a.inventory });
    expect(brief(plan)).toEqual([
      ["monitors.shop", "no-op"],
      ["contacts.ops", "replace"],
      ["alertSubscriptions.shop-ops", "replace", "by contacts.ops"],
    ]);
    expect(plan.actions[2]).toMatchObject({
      reasons: ["contacts.ops is replaced, and contactId cannot change in place"],
      replaceOrder: "create-first",
    });
  });

  it("deletes what leaves the config in reverse dependency order, the API's own cascades marked", () => {
    const a = shopAccount();
    const plan = makePlan({ desired: [a.ops], state: a.state, inventory: a.inventory });
    expect(brief(plan)).toEqual([
      ["contacts.ops", "no-op"],
      ["alertSubscriptions.shop-ops", "delete", "by monitors.shop"],
      ["monitors.shop", "delete"],
    ]);
    expect(plan.actions[2]!.reasons).toEqual(["not in the config"]);
  });

  it("updates what the config changes, says what drifted, and notes drift it leaves alone", () => {
    const a = shopAccount();
    a.rows.shop.name = "renamed by hand";
    a.rows.shop.enabled = false;
    const desired = a.desired.map((r) =>
      r === a.shop ? { ...r, members: { ...r.members, interval: 120 } } : r,
    );
    const plan = makePlan({ desired, state: a.state, inventory: a.inventory });
    const shop = plan.actions.find((x) => x.address === "monitors.shop")!;
    expect(shop.action).toBe("update");
    expect(shop.reasons).toEqual(["drift: changed outside vigil"]);
    expect(shop.changes.map((c) => [c.path, c.value, c.before, c.drift ?? false])).toEqual([
      ["/name", "shop", "renamed by hand", true],
      ["/interval", 120, 60, false],
    ]);
    expect(plan.notes).toEqual([
      expect.objectContaining({ address: "monitors.shop", path: "/enabled", live: false }),
    ]);

    const refreshOnly = makePlan({ desired, state: a.state, inventory: a.inventory, refreshOnly: true });
    expect(refreshOnly.refreshOnly).toBe(true);
    expect(refreshOnly.actions.map((x) => [x.address, x.action, x.changes.map((c) => c.path)])).toEqual([
      ["monitors.shop", "update", ["/name"]],
    ]);
  });

  it("plans only the targets and what they reference; other problems do not stop it", () => {
    const a = shopAccount();
    a.state.resources["monitors.shop"]!.lifecycle = { protect: true };
    const plan = makePlan({
      desired: [a.ops],
      state: a.state,
      inventory: a.inventory,
      targets: ["contacts.ops"],
    });
    expect(brief(plan)).toEqual([["contacts.ops", "no-op"]]);
    // Without the target, deleting the protected monitor stops the plan, which the error still carries.
    const error = (() => {
      try {
        makePlan({ desired: [a.ops], state: a.state, inventory: a.inventory });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(PlanError);
    expect((error as PlanError).problems.map((p) => [p.address, p.code])).toEqual([
      ["monitors.shop", "protected_delete"],
    ]);
    expect(brief((error as PlanError).plan!)).toContainEqual(["monitors.shop", "delete"]);
  });

  it("with no state, adopts every live object by its natural key and warns that nothing can be deleted", () => {
    const a = shopAccount();
    const plan = makePlan({
      desired: a.desired,
      state: newState(),
      stateMissing: true,
      inventory: a.inventory,
    });
    expect(plan.actions.map((x) => [x.address, x.action, x.id, x.reasons])).toEqual([
      ["contacts.ops", "import", "con-ops", ["adopted by natural key (no state)"]],
      ["monitors.shop", "import", "mon-shop", ["adopted by natural key (no state)"]],
      ["alertSubscriptions.shop-ops", "import", "als-shop-ops", ["adopted by natural key (no state)"]],
    ]);
    expect(plan.warnings).toEqual([expect.stringMatching(/^No state: resources removed from the config/)]);
  });
});
