/**
 * Property: whenever a plan accepts a monitor, apply succeeds on the sandbox. Monitors of every type, valid
 * (the every-kind fixture's) and almost valid (an interval off the account's list or below the type's
 * floor, unknown or thin pools, cron, full log, plan features in settings, disabled or not), on Trial,
 * Business and Enterprise accounts. A plan that refuses is fine; a plan that passes and an apply that fails
 * is a disagreement, and there must be none.
 *
 * A bounded number of cases runs in `npm test`; a long run: `VIGIL_FUZZ_RUNS=500 npx vitest run
 * test/engine/plan-apply-agree.test.ts`.
 */
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { operations, VigilClient } from "../../src/api/index.ts";
import {
  applyChanges,
  ConfigError,
  type DesiredResource,
  MemoryStateStore,
  planChanges,
} from "../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { everyKindFixture } from "./fixtures/every-kind.ts";

const runs = Number(process.env.VIGIL_FUZZ_RUNS ?? 0) || 24;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb?.close());

/** One monitor of each type, as the every-kind fixture writes it (with a tag the run replaces). */
const bases = everyKindFixture("fuzz").filter((r) => r.kind === "monitor");

const mutation = fc.record(
  {
    interval: fc.constantFrom(10, 20, 30, 45, 60, 120, 300, 600, 1200, 3600, 21600, -300),
    pools: fc.constantFrom(["allworld"], ["europe"], ["africa"], ["africa", "australia"], ["westeurope"]),
    cronSchedule: fc.constant("*/5 * * * *"),
    fullLog: fc.boolean(),
    enabled: fc.boolean(),
    dropSettings: fc.boolean(),
  },
  { requiredKeys: [] },
);

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutated(base: DesiredResource, m: Mutation, n: number): DesiredResource {
  const members: Record<string, unknown> = structuredClone(base.members);
  // A natural key of its own: every run is one new monitor.
  if (typeof members.url === "string") members.url = members.url.replace("fuzz", `fuzz${n}`);
  if (m.interval !== undefined) members.interval = m.interval;
  if (m.pools !== undefined && members.locations) members.locations = { pools: m.pools };
  if (m.cronSchedule !== undefined) {
    members.cronSchedule = m.cronSchedule;
    delete members.interval;
  }
  if (m.fullLog !== undefined) members.fullLog = m.fullLog;
  if (m.enabled !== undefined) members.enabled = m.enabled;
  if (m.dropSettings) delete members.settings;
  return { ...base, members };
}

it(`plan and apply agree on ${runs} random monitors`, async () => {
  let n = 0;
  const tally = { accepted: 0, refused: 0, disagreements: [] as string[] };
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("trial", "business", "enterprise" as const),
      fc.constantFrom(...bases),
      // Valid ones too: the fixture's monitor as written, a third of the time.
      fc.oneof({ weight: 1, arbitrary: fc.constant({}) }, { weight: 2, arbitrary: mutation }),
      async (plan, base, m) => {
        n++;
        const account = await sb.account({ plan });
        const ops = operations(new VigilClient({ baseUrl: sb.url, token: account.token }));
        const store = new MemoryStateStore();
        const desired = [mutated(base, m, n)];
        try {
          await planChanges({ ops, store, desired });
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          tally.refused++;
          return;
        }
        tally.accepted++;
        const { result } = await applyChanges({ ops, store, desired });
        if (result.failures.length > 0)
          tally.disagreements.push(
            `${plan} ${JSON.stringify(desired[0]!.members)}: ${result.failures.map((f) => f.message).join("; ")}`,
          );
        expect(result.failures).toEqual([]);
      },
    ),
    { numRuns: runs },
  );
  process.stdout.write(
    `plan/apply agreement: ${n} cases, ${tally.accepted} accepted and applied, ${tally.refused} refused by plan, ${tally.disagreements.length} disagreements\n`,
  );
  expect(tally.disagreements).toEqual([]);
  expect(tally.accepted).toBeGreaterThan(0);
  expect(tally.refused).toBeGreaterThan(0);
}, 120_000);
