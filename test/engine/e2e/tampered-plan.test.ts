/**
 * Issue 25, point 3, in the engine: a saved plan is applied only when vigil could have made it from the
 * state at its serial and the configuration (plan-trust.ts). Adoptions, whose ids the state never held,
 * must carry the natural key of their resource.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyChanges,
  type DesiredResource,
  MemoryStateStore,
  newState,
  type Plan,
  type PlannedAction,
  planChanges,
  planTamperings,
  StalePlanError,
  TamperedPlanError,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { alertOf, appliedAccount, emailContact, httpMonitor } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const desired: DesiredResource[] = [
  httpMonitor("shop", "https://shop.tamper.example.com/"),
  httpMonitor("blog", "https://blog.tamper.example.com/"),
  emailContact("ops", "ops@tamper.example.com"),
  alertOf("shop", "ops"),
  {
    address: "webhooks.events",
    kind: "webhook",
    members: { url: "https://hooks.tamper.example.net/", events: ["monitor.down"], scope: { all: true } },
  },
];

/** The account with `desired` applied, and a plan of a lost state: every resource adopted by natural key. */
async function adoptionPlan() {
  const env = await appliedAccount(sb, desired);
  const store = new MemoryStateStore();
  const { plan } = await planChanges({ ops: env.ops, store, desired, time: env.time });
  expect(plan.actions.every((a) => a.action === "import")).toBe(true);
  return { ...env, store, saved: JSON.parse(JSON.stringify(plan)) as Plan };
}

async function rejection(run: Promise<unknown>): Promise<unknown> {
  return run.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("a saved plan's adoptions", { timeout: 60_000 }, () => {
  it("apply as planned: nested references and kinds read by delta sync included", async () => {
    const { ops, time, store, saved, ids } = await adoptionPlan();
    const applied = await applyChanges({ ops, store, desired, time, plan: saved });
    expect(applied.result.failures).toEqual([]);
    for (const [address, id] of Object.entries(ids)) expect(store.saved!.resources[address]?.id).toBe(id);
  });

  it("with their ids swapped are refused as tampered, and nothing is written", async () => {
    const { ops, time, store, saved, ids } = await adoptionPlan();
    const byAddress = (address: string) => saved.actions.find((a) => a.address === address)!;
    byAddress("monitors.shop").id = ids["monitors.blog"];
    byAddress("monitors.blog").id = ids["monitors.shop"];
    const error = await rejection(applyChanges({ ops, store, desired, time, plan: saved }));
    expect(error).toBeInstanceOf(TamperedPlanError);
    expect((error as TamperedPlanError).problems).toEqual([
      `monitors.blog: the plan adopts ${ids["monitors.shop"]}, which the configuration does not import and whose natural key is not the resource's`,
      `monitors.shop: the plan adopts ${ids["monitors.blog"]}, which the configuration does not import and whose natural key is not the resource's`,
      // Its monitor's id is the plan's, now blog's: the subscription's natural key does not match either.
      `alertSubscriptions.shop-ops: the plan adopts ${ids["alertSubscriptions.shop-ops"]}, which the configuration does not import and whose natural key is not the resource's`,
    ]);
    expect(store.saved).toBeUndefined();
  });

  it("must import the id the configuration imports", async () => {
    const { ops, time, store, saved, ids } = await adoptionPlan();
    const imports = [{ address: "monitors.shop", id: ids["monitors.blog"]! }];
    const error = await rejection(applyChanges({ ops, store, desired, imports, time, plan: saved }));
    expect(error).toBeInstanceOf(TamperedPlanError);
    expect((error as Error).message).toContain(
      `monitors.shop: the plan imports ${ids["monitors.shop"]}, but the configuration imports ${ids["monitors.blog"]}`,
    );
    expect(store.saved).toBeUndefined();
  });
});

describe("what a saved plan must be to be trusted (no calls)", () => {
  const state = { ...newState(), serial: 3 };
  state.resources["monitors.shop"] = { kind: "monitor", id: "m-shop", naturalKey: {}, managed: {} };
  state.resources["monitors.gone"] = { kind: "monitor", id: "m-gone", naturalKey: {}, managed: {} };
  const config = [
    httpMonitor("shop", "https://shop.example.com/"),
    httpMonitor("new", "https://new.example.com/"),
  ];
  const action = (a: Partial<PlannedAction> & Pick<PlannedAction, "address" | "action">): PlannedAction => ({
    kind: "monitor",
    reasons: [],
    changes: [],
    ...a,
  });
  const planOf = (actions: PlannedAction[], summary: Partial<Plan["summary"]> = {}): Plan => {
    const counts = { create: 0, update: 0, replace: 0, delete: 0, forget: 0, import: 0, "no-op": 0 };
    for (const a of actions) counts[a.action]++;
    return {
      format_version: "1.0",
      created: 0,
      lineage: state.lineage,
      serial: 3,
      accountId: "acc",
      configDigest: "",
      syncCursors: {},
      actions,
      summary: { ...counts, ...summary },
      warnings: [],
    };
  };
  const observed = { updated: 1, digest: "sha256:x" };
  const sound = [
    action({ address: "monitors.new", action: "create" }),
    action({ address: "monitors.shop", action: "update", id: "m-shop", observed }),
    action({ address: "monitors.gone", action: "delete", id: "m-gone", observed }),
  ];

  it("a plan vigil could have made has no problem", () => {
    expect(planTamperings(planOf(sound), state, config)).toEqual([]);
  });

  it.each<[string, PlannedAction[], string]>([
    [
      "a create with an id",
      [action({ address: "monitors.new", action: "create", id: "m-x" })],
      "monitors.new: a create carries the id m-x",
    ],
    [
      "an address twice",
      [...sound, action({ address: "monitors.shop", action: "no-op", id: "m-shop" })],
      "monitors.shop: has more than one action",
    ],
    [
      "an update without what it saw",
      [action({ address: "monitors.shop", action: "update", id: "m-shop" })],
      "monitors.shop: the plan updates it without what it saw of it",
    ],
    [
      "another kind",
      [action({ address: "monitors.shop", action: "update", id: "m-shop", observed, kind: "contact" })],
      "monitors.shop: is a monitor, not a contact",
    ],
    [
      "a forget of a declared address",
      [action({ address: "monitors.shop", action: "forget", id: "m-shop" })],
      "monitors.shop: the plan forgets it, but the configuration declares it",
    ],
    [
      "a delete cascaded by nothing the plan deletes",
      [
        action({
          address: "monitors.gone",
          action: "delete",
          id: "m-gone",
          observed,
          cascadedBy: "monitors.shop",
        }),
      ],
      "monitors.gone: cascaded by monitors.shop, which the plan neither deletes nor replaces",
    ],
    [
      "an adoption into an address the state already holds",
      [action({ address: "monitors.shop", action: "import", id: "m-other", observed })],
      "monitors.shop: the plan imports m-other, but the state holds m-shop there",
    ],
    [
      "an adoption of an object another declared address manages",
      [action({ address: "monitors.new", action: "import", id: "m-shop", observed })],
      "monitors.new: the plan imports m-shop, which the state manages as monitors.shop",
    ],
    [
      "an address with control characters",
      [action({ address: "monitors.\u001b[2Jx", action: "delete", id: "m-gone", observed })],
      '"monitors.\\u001b[2Jx": the plan deletes m-gone, but neither the configuration nor the state (serial 3) has this address',
    ],
  ])("refused: %s", (_what, actions, problem) => {
    expect(planTamperings(planOf(actions), state, config)).toContain(problem);
  });

  it("the summary must count the actions", () => {
    expect(planTamperings(planOf(sound, { delete: 0, "no-op": 1 }), state, config)).toEqual([
      "its summary counts 0 delete, 1 no-op, its actions 1 delete, 0 no-op",
    ]);
  });

  it("a plan of another serial is stale, not tampered", async () => {
    const { ops, time, store, saved, ids } = await adoptionPlan();
    saved.serial = 7;
    saved.actions[0]!.id = ids["monitors.blog"];
    const error = await rejection(applyChanges({ ops, store, desired, time, plan: saved }));
    expect(error).toBeInstanceOf(StalePlanError);
  }, 60_000);
});
