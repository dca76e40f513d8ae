import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { VigilClient } from "../../../src/api/client.ts";
import { operations } from "../../../src/api/operations.ts";
import type { Pacer } from "../../../src/api/types.ts";
import { type ApplyOutcome, applyChanges, MemoryStateStore } from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { fleetConfig } from "../fixtures/fleet.ts";
import { expectConverged } from "./converged.ts";
import { engineAccount } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterEach(async () => {
  await sb.admin.delete("/_sandbox/faults");
});
afterAll(() => sb.close());

const noPacing: Pacer = { acquire: async () => {}, observe: () => {} };

/** Apply runs allowed before the account must hold exactly the config. */
const maxRuns = 8;
/** Faults injected over every seed's apply runs. */
const injected = { before: 0, after: 0, reset: 0 };

describe("apply under injected faults", () => {
  for (const seed of [7, 4242, 2]) {
    it(`an apply under 20 % injected faults converges, with zero duplicates and a plan that is then empty (seed ${seed})`, async () => {
      const { account, time } = await engineAccount(sb);
      // Two attempts per call instead of eight: enough faults get through the client for apply itself to meet them.
      const client = new VigilClient({
        baseUrl: sb.url,
        token: account.token,
        pacer: noPacing,
        time,
        retry: { attempts: 2 },
      });
      const ops = operations(client);
      const store = new MemoryStateStore();
      // 60 monitors and 6 contacts go through bulk jobs; 12 subscriptions through /alert/bulk.
      const desired = fleetConfig(`faults-${seed}`, {
        monitors: 60,
        contacts: 6,
        subscriptions: 12,
        maintenance: true,
        webhook: true,
      });
      const config = await sb.admin.post("/_sandbox/faults", {
        rate: 0.2,
        when: "either",
        reset: 0.25,
        seed,
      });
      expect(config.status).toBe(200);

      const runs: (ApplyOutcome | Error)[] = [];
      for (let run = 0; run < maxRuns; run++) {
        const outcome = await applyChanges({ ops, store, desired, time }).catch((error: Error) => error);
        runs.push(outcome);
        if (!(outcome instanceof Error) && outcome.result.failures.length === 0) break;
      }
      const last = runs.at(-1)!;
      expect(last instanceof Error ? last.message : last.result.failures).toEqual([]);

      const faults = (await sb.admin.delete("/_sandbox/faults")).body;
      // Faults after the commit are the ones that would duplicate: every seed must meet some.
      expect(faults.injected.after).toBeGreaterThan(0);
      for (const timing of ["before", "after", "reset"] as const) injected[timing] += faults.injected[timing];
      await expectConverged(ops, store, desired, time);
    });
  }

  it("the seeds together met faults of every timing", () => {
    expect(injected.before).toBeGreaterThan(0);
    expect(injected.after).toBeGreaterThan(0);
    expect(injected.reset).toBeGreaterThan(0);
  });
});
