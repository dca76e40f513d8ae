import { describe, expect, it } from "vitest";
import type { DesiredResource } from "../../../src/engine/model.ts";
import { LiveMatcher } from "../../../src/engine/plan/match.ts";
import { inPlanOrder, planResource, planResources } from "../../../src/engine/plan/resources.ts";
import { newState } from "../../../src/engine/state/index.ts";
import { inventoryOf, shopAccount } from "./account.ts";

type Account = ReturnType<typeof shopAccount>;
const matcherOf = (a: Pick<Account, "state" | "inventory">, desired: readonly DesiredResource[]) =>
  new LiveMatcher({
    state: a.state,
    inventory: a.inventory,
    desired: new Map(desired.map((r) => [r.address, r])),
    imports: new Map(),
  });

describe("inPlanOrder", () => {
  it("puts kinds in dependency order, then addresses in order", () => {
    const a = shopAccount();
    const desired = [a.alert, a.shop, { ...a.ops, address: "contacts.z" }, a.ops];
    expect(inPlanOrder(desired).map((r) => r.address)).toEqual([
      "contacts.ops",
      "contacts.z",
      "monitors.shop",
      "alertSubscriptions.shop-ops",
    ]);
  });
});

describe("planResources", () => {
  it("resolves each reference to the id its target was planned with", () => {
    const a = shopAccount();
    const planned = planResources(a.desired, a.state, matcherOf(a, a.desired));
    expect(planned.actions.map((x) => [x.address, x.action])).toEqual([
      ["contacts.ops", "no-op"],
      ["monitors.shop", "no-op"],
      ["alertSubscriptions.shop-ops", "no-op"],
    ]);
    expect(planned).toMatchObject({ notes: [], problems: [], warnings: [] });
  });

  it("leaves a reference to an object created anew unknown until apply", () => {
    const a = { ...shopAccount(), state: newState(), inventory: inventoryOf([]) };
    const fresh = shopAccount();
    const planned = planResources(fresh.desired, a.state, matcherOf(a, fresh.desired));
    expect(planned.actions.map((x) => x.action)).toEqual(["create", "create", "create"]);
    expect(planned.actions[2]!.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "/contactId", value: { $unknown: "contacts.ops" }, unknown: true }),
        expect.objectContaining({ path: "/monitorId", value: { $unknown: "monitors.shop" }, unknown: true }),
      ]),
    );
  });
});

describe("planResource", () => {
  it("plans one address: its action, reasons, changes, id, what it saw, and its drift notes", () => {
    const a = shopAccount();
    a.rows.shop.enabled = false;
    const shop = { ...a.shop, members: { ...a.shop.members, interval: 300 } };
    const one = planResource(shop, shop.members, a.state, matcherOf(a, [shop]));
    expect(one.action).toMatchObject({
      address: "monitors.shop",
      kind: "monitor",
      action: "update",
      reasons: [],
      changes: [{ op: "replace", path: "/interval", value: 300, before: 60 }],
      id: "mon-shop",
      observed: { updated: 1795897875 },
    });
    expect(one.notes.map((n) => [n.path, n.live, n.default])).toEqual([["/enabled", false, true]]);
    expect(one.problems).toEqual([]);
    expect(one.warning).toBeUndefined();
  });

  it("orders a replace and carries no drift notes for it: the new object starts from the defaults", () => {
    const a = shopAccount();
    a.rows.ops.language = "de";
    const sms = { ...a.ops, members: { type: "sms", address: "+15551234567", name: "ops" } };
    const one = planResource(sms, sms.members, a.state, matcherOf(a, [sms]));
    expect(one.action).toMatchObject({ action: "replace", replaceOrder: "create-first" });
    expect(one.notes).toEqual([]);
  });

  it("gathers the match's problems and the decision's, and the protection kept in the state", () => {
    const a = shopAccount();
    a.state.resources["contacts.ops"]!.lifecycle = { protect: true };
    const sms = { ...a.ops, members: { type: "sms", address: "+15551234567", name: "ops" } };
    const one = planResource(sms, sms.members, a.state, matcherOf(a, [sms]));
    expect(one.problems.map((p) => p.code)).toEqual(["protected_replace"]);
    const unprotected = { ...sms, lifecycle: { protect: false } };
    expect(planResource(unprotected, sms.members, a.state, matcherOf(a, [sms])).problems).toEqual([]);
  });
});
