/** The saved-plan checks that need no account: what the plan was made from, and what the observed objects became. */
import { describe, expect, it } from "vitest";
import { engineKind } from "../../src/engine/kinds/index.ts";
import { makePlan } from "../../src/engine/plan.ts";
import { observedChanges, sourceChanges } from "../../src/engine/stale.ts";
import { shopAccount } from "./plan/account.ts";

describe("sourceChanges", () => {
  it("names another state, a later save and a changed config", () => {
    const a = shopAccount();
    const plan = makePlan({ desired: a.desired, state: a.state, inventory: a.inventory });
    expect(sourceChanges(plan, a.state, a.desired)).toEqual([]);
    expect(sourceChanges(plan, { ...a.state, serial: a.state.serial + 1 }, a.desired)).toEqual([
      `the state was written since the plan (serial ${a.state.serial}, now ${a.state.serial + 1})`,
    ]);
    const renamed = a.desired.map((r) =>
      r === a.ops ? { ...r, members: { ...r.members, name: "other" } } : r,
    );
    expect(sourceChanges(plan, { ...a.state, lineage: "another" }, renamed)).toEqual([
      "the plan was made from another state (lineage differs)",
      "the config changed since the plan",
    ]);
  });
});

describe("observedChanges", () => {
  const a = shopAccount();
  const monitor = engineKind("monitor");
  const plan = makePlan({
    desired: a.desired.map((r) => (r === a.shop ? { ...r, members: { ...r.members, interval: 120 } } : r)),
    state: a.state,
    inventory: a.inventory,
  });
  const observed = plan.actions.filter((x) => x.address === "monitors.shop");

  it("finds nothing when the object is as the plan saw it", () => {
    expect(observedChanges(monitor, observed, new Map([["mon-shop", a.rows.shop]]), true)).toEqual([]);
  });

  it("says an object changed when it was updated since, or its members moved within the same second", () => {
    const later = { ...a.rows.shop, updated: 1795897999 };
    expect(observedChanges(monitor, observed, new Map([["mon-shop", later]]), true)).toEqual([
      "monitors.shop: mon-shop was changed (updated 2026-11-28T20:33:19Z)",
    ]);
    const sameSecond = { ...a.rows.shop, enabled: false };
    expect(observedChanges(monitor, observed, new Map([["mon-shop", sameSecond]]), true)).toEqual([
      "monitors.shop: mon-shop was changed (updated 2026-11-28T20:31:15Z)",
    ]);
  });

  it("says an object went only when the rows read would hold it", () => {
    expect(observedChanges(monitor, observed, new Map(), true)).toEqual([
      "monitors.shop: mon-shop was deleted",
    ]);
    expect(observedChanges(monitor, observed, new Map(), false)).toEqual([]);
  });
});
