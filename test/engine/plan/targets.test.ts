import { describe, expect, it } from "vitest";
import { requestProblems, targetSet } from "../../../src/engine/plan/targets.ts";
import { newState } from "../../../src/engine/state/index.ts";
import { shopAccount } from "./account.ts";

describe("targetSet", () => {
  it("takes a target, what it references transitively, and what is nested under it", () => {
    const a = shopAccount();
    a.state.resources["monitors.shop.alerts.old"] = {
      kind: "alertSubscription",
      id: "x",
      naturalKey: {},
      managed: {},
    };
    expect([...targetSet(["alertSubscriptions.shop-ops"], a.desired, a.state)].sort()).toEqual([
      "alertSubscriptions.shop-ops",
      "contacts.ops",
      "monitors.shop",
    ]);
    expect([...targetSet(["monitors.shop"], a.desired, a.state)].sort()).toEqual([
      "monitors.shop",
      "monitors.shop.alerts.old",
    ]);
  });

  it("takes an address only the state has, and nothing that merely shares a prefix", () => {
    const a = shopAccount();
    expect([...targetSet(["monitors.sho"], a.desired, a.state)]).toEqual(["monitors.sho"]);
    expect([...targetSet(["contacts.gone"], [], newState())]).toEqual(["contacts.gone"]);
  });
});

describe("requestProblems", () => {
  it("names targets found nowhere, then imports of addresses the config lacks", () => {
    const a = shopAccount();
    const desired = new Map(a.desired.map((r) => [r.address, r]));
    const problems = requestProblems({
      desired,
      state: a.state,
      targets: ["monitors.shop", "monitors.nope"],
      imports: new Map([
        ["contacts.ops", "con-ops"],
        ["contacts.other", "con-2"],
      ]),
    });
    expect(problems).toEqual([
      {
        address: "",
        code: "unknown_target",
        data: { target: "monitors.nope" },
        message: "target monitors.nope: no such address in the config or the state",
      },
      {
        address: "",
        code: "import_not_declared",
        data: { address: "contacts.other" },
        message: "import contacts.other: the config does not declare it",
      },
    ]);
  });

  it("takes a target the state alone holds (it is leaving the config)", () => {
    const a = shopAccount();
    const desired = new Map([[a.ops.address, a.ops]]);
    expect(
      requestProblems({ desired, state: a.state, targets: ["monitors.shop"], imports: new Map() }),
    ).toEqual([]);
  });
});
