import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChanges, MemoryStateStore, planChanges } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { everyKindFixture } from "../fixtures/every-kind.ts";
import { engineAccount } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("every kind and every monitor type", () => {
  it("apply, then a plan with no changes", async () => {
    const { ops, time } = await engineAccount(sb);
    const store = new MemoryStateStore();
    const desired = everyKindFixture("e2e-all");
    const first = await applyChanges({ ops, store, desired, time });
    expect(first.result.failures).toEqual([]);
    expect(first.plan.summary.create).toBe(desired.length);
    const state = store.saved!;
    for (const d of desired) expect(state.resources[d.address]?.id, d.address).toBeTruthy();
    expect(Object.keys(state.resources).sort()).toEqual(desired.map((d) => d.address).sort());
    for (const secret of ["pw-e2e-all", "fixture-secret-e2e-all"])
      expect(JSON.stringify(state)).not.toContain(secret);
    const monitors = await ops.monitor.all();
    expect(monitors.length).toBe(desired.filter((d) => d.kind === "monitor").length);
    const second = await planChanges({ ops, store, desired, time });
    const changed = second.plan.actions.filter((a) => a.action !== "no-op");
    expect(changed).toEqual([]);
    // Every default the kinds declare is the one the service stores: an untouched account has no drift notes.
    expect(second.plan.notes).toBeUndefined();
  });
});
