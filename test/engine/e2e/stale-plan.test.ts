import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyChanges,
  type DesiredResource,
  type Plan,
  planChanges,
  StalePlanError,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { appliedAccount, changed, emailContact, httpMonitor } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const desired = [
  httpMonitor("shop", "https://shop.stale.example.com/"),
  httpMonitor("blog", "https://blog.stale.example.com/"),
  emailContact("ops", "ops@stale.example.com"),
];
/** The next config: shop's interval changes, a monitor is added, the contact is renamed. */
const next: DesiredResource[] = [
  httpMonitor("shop", "https://shop.stale.example.com/", { interval: 120 }),
  httpMonitor("blog", "https://blog.stale.example.com/"),
  httpMonitor("docs", "https://docs.stale.example.com/"),
  {
    ...emailContact("ops", "ops@stale.example.com"),
    members: { ...emailContact("ops", "").members, address: "ops@stale.example.com", name: "Ops team" },
  },
];

/** Applied `desired`, then a plan towards `next`, saved and read back as a file would be. */
async function savedPlan() {
  const env = await appliedAccount(sb, desired);
  const { plan } = await planChanges({ ops: env.ops, store: env.store, desired: next, time: env.time });
  expect(changed(plan).map((a) => [a.address, a.action])).toEqual([
    ["contacts.ops", "update"],
    ["monitors.docs", "create"],
    ["monitors.shop", "update"],
  ]);
  return { ...env, saved: JSON.parse(JSON.stringify(plan)) as Plan };
}

async function refusal(run: Promise<unknown>): Promise<StalePlanError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StalePlanError);
  return error as StalePlanError;
}

describe("a saved plan", () => {
  it("is refused when a planned monitor was changed outside vigil since", async () => {
    const { account, ops, time, store, ids, saved } = await savedPlan();
    expect((await account.patch(`/monitor/${ids["monitors.shop"]}`, { name: "edited" })).status).toBe(200);
    const error = await refusal(applyChanges({ ops, store, desired: next, time, plan: saved }));
    expect(error.changes).toEqual([expect.stringMatching(/^monitors\.shop: .* was changed/)]);
    expect((await ops.monitor.all()).length).toBe(2);
  });

  it("is refused when an object with the natural key of a planned create appeared", async () => {
    const { account, ops, time, store, saved } = await savedPlan();
    const rogue = await account.post("/monitor", {
      type: "http",
      url: "https://docs.stale.example.com/",
      locations: { pools: ["allworld"] },
    });
    expect(rogue.status).toBe(201);
    const error = await refusal(applyChanges({ ops, store, desired: next, time, plan: saved }));
    expect(error.changes).toEqual([
      expect.stringMatching(/^monitors\.docs: monitor .* same natural key appeared/),
    ]);
  });

  it("is refused when the config changed", async () => {
    const { ops, time, store, saved } = await savedPlan();
    const other = next.map((d) =>
      d.address === "monitors.blog"
        ? httpMonitor("blog", "https://blog.stale.example.com/", { interval: 300 })
        : d,
    );
    const error = await refusal(applyChanges({ ops, store, desired: other, time, plan: saved }));
    expect(error.changes).toEqual(["the config changed since the plan"]);
  });

  it("applies exactly its actions when nothing changed, with a few reads to check", async () => {
    const { client, ops, time, store, saved } = await savedPlan();
    const before = client.metrics.snapshot();
    const applied = await applyChanges({ ops, store, desired: next, time, plan: saved });
    const after = client.metrics.snapshot();
    expect(applied.result.failures).toEqual([]);
    expect(applied.result.done.map((d) => [d.address, d.action]).sort()).toEqual([
      ["contacts.ops", "update"],
      ["monitors.docs", "create"],
      ["monitors.shop", "update"],
    ]);
    const reads = (after.byClass.read ?? 0) - (before.byClass.read ?? 0);
    // The account, then per planned kind (monitor, contact) a sync or a page: single writes read nothing more.
    expect(reads).toBeLessThanOrEqual(1 + 2 * 2);
    expect(changed((await planChanges({ ops, store, desired: next, time })).plan)).toEqual([]);
  });
});
