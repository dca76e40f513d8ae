import { describe, expect, it } from "vitest";
import { leavingActions, leavingReason } from "../../../src/engine/plan/leaving.ts";
import { inventoryOf, shopAccount } from "./account.ts";

const onlyOps = (a: ReturnType<typeof shopAccount>) => new Map([[a.ops.address, a.ops]]);

describe("leavingReason", () => {
  it("says whether the config dropped it or a destroy asked for it, all or by target", () => {
    expect(leavingReason(undefined, true)).toBe("not in the config");
    expect(leavingReason(true, false)).toBe("destroy requested");
    expect(leavingReason(true, true)).toBe("targeted for destruction");
  });
});

describe("leavingActions", () => {
  it("deletes what the config no longer declares, recording what it saw", () => {
    const a = shopAccount();
    const { actions, problems } = leavingActions({ ...a, desired: onlyOps(a), moved: new Map() });
    expect(actions.map((x) => [x.address, x.action, x.id, x.reasons])).toEqual([
      ["monitors.shop", "delete", "mon-shop", ["not in the config"]],
      ["alertSubscriptions.shop-ops", "delete", "als-shop-ops", ["not in the config"]],
    ]);
    expect(actions[0]!.observed).toMatchObject({ updated: 1795897875 });
    expect(problems).toEqual([]);
  });

  it("forgets what moved, what went already, and what is retained on delete", () => {
    const a = shopAccount();
    a.state.resources["alertSubscriptions.shop-ops"]!.lifecycle = { retainOnDelete: true };
    const inventory = inventoryOf([
      ["contact", a.rows.ops],
      ["alertSubscription", a.rows.alert],
    ]);
    const { actions } = leavingActions({
      ...a,
      inventory,
      desired: new Map(),
      moved: new Map([["contacts.ops", "contacts.oncall"]]),
      destroy: true,
    });
    expect(actions.map((x) => [x.address, x.action, x.reasons])).toEqual([
      ["monitors.shop", "forget", ["already deleted outside vigil"]],
      ["contacts.ops", "forget", ["moved to contacts.oncall"]],
      ["alertSubscriptions.shop-ops", "forget", ["destroy requested; retainOnDelete keeps the object"]],
    ]);
  });

  it("refuses to delete a protected object, and leaves an address without an id alone", () => {
    const a = shopAccount();
    a.state.resources["monitors.shop"]!.lifecycle = { protect: true };
    delete a.state.resources["alertSubscriptions.shop-ops"]!.id;
    const { actions, problems } = leavingActions({ ...a, desired: onlyOps(a), moved: new Map() });
    expect(actions.map((x) => x.address)).toEqual(["monitors.shop"]);
    expect(problems).toEqual([
      {
        address: "monitors.shop",
        code: "protected_delete",
        data: {},
        message: "monitors.shop is protected: it is no longer in the config, and the plan would delete it",
      },
    ]);
  });
});
