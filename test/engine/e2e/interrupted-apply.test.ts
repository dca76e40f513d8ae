import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApplyInterruptedError,
  applyChanges,
  type DesiredResource,
  MemoryStateStore,
  type State,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { emailContact, engineAccount, httpMonitor } from "./helpers.ts";

/**
 * An apply stopped by its signal (the CLI's Ctrl+C, docs/cli.md "Ctrl+C"): no write starts once it is
 * aborted, every write under way ends and is saved, the lock is released, and the error carries what was
 * done. The account and the saved state then agree object for object, with nothing left pending, so the
 * next run simply makes the rest.
 */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

type Env = Awaited<ReturnType<typeof engineAccount>>;

async function interruptedApply(
  env: Env,
  store: MemoryStateStore,
  desired: DesiredResource[],
  options: { concurrency?: number; abortWhen: (done: number) => boolean },
) {
  const controller = new AbortController();
  const progress: string[] = [];
  if (options.abortWhen(0)) controller.abort();
  const error = await applyChanges({
    ops: env.ops,
    store,
    desired,
    time: env.time,
    ...(options.concurrency && { concurrency: options.concurrency }),
    signal: controller.signal,
    onProgress: (e) => {
      progress.push(`${e.address}: ${e.action} ${e.outcome}`);
      if (options.abortWhen(progress.length)) controller.abort();
    },
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApplyInterruptedError);
  return { error: error as ApplyInterruptedError, progress };
}

function page(name: string): DesiredResource {
  return {
    address: `statusPages.${name}`,
    kind: "statusPage",
    members: { slug: `interrupted-${name}`, title: `Status of ${name}` },
  };
}

/** The account's objects by id, against the saved state's: the same objects, none pending. */
async function accountMatchesState(env: Env, saved: State | undefined) {
  const resources = Object.values(saved?.resources ?? {});
  expect(resources.filter((r) => r.pending)).toEqual([]);
  const inState = resources.map((r) => r.id).sort();
  const listed = await Promise.all(
    ["/monitor", "/contact", "/statuspage"].map(
      async (path) => (await env.account.get(path)).body.data as { id: string }[],
    ),
  );
  expect(
    listed
      .flat()
      .map((o) => String(o.id))
      .sort(),
  ).toEqual(inState);
  return inState.length;
}

describe("an apply stopped by its signal", () => {
  it("single calls: the writes under way end and are saved, no other starts, the lock is released", async () => {
    const env = await engineAccount(sb);
    // Status pages are written one call each.
    const desired = ["a", "b", "c", "d"].map(page);
    const store = new MemoryStateStore();
    // Stopped as the first write ends: the second of two writers is then under way, and ends too.
    const { error, progress } = await interruptedApply(env, store, desired, {
      concurrency: 2,
      abortWhen: (done) => done === 1,
    });
    expect(error.result?.failures).toEqual([]);
    const done = error.result?.done.map((d) => d.address) ?? [];
    expect(done, `the two under way, and no other: ${progress.join("; ")}`).toHaveLength(2);
    // What was done is saved, and nothing else exists in the account.
    expect(await accountMatchesState(env, store.saved)).toBe(done.length);
    for (const address of done) expect(store.saved?.resources[address]?.id).toBeTruthy();
    // Released: the next run takes the lock and makes the rest, once each.
    const next = await applyChanges({ ops: env.ops, store, desired, time: env.time });
    expect(next.result.failures).toEqual([]);
    expect(next.plan.actions.filter((a) => a.action === "create")).toHaveLength(desired.length - done.length);
    expect(await accountMatchesState(env, store.saved)).toBe(desired.length);
  });

  it("a bulk job under way is followed to its end, and the kinds after it do not start", async () => {
    const env = await engineAccount(sb);
    // Three monitors are one bulk job; status pages come after monitors.
    const monitors = ["m1", "m2", "m3"].map((n) => httpMonitor(n, `https://${n}.interrupted.example.com/`));
    const store = new MemoryStateStore();
    // Stopped as the job's first row is settled: the job itself is under way, its other rows too.
    const { error } = await interruptedApply(env, store, [...monitors, page("status")], {
      abortWhen: (done) => done === 1,
    });
    expect(error.result?.failures).toEqual([]);
    expect((error.result?.done ?? []).map((d) => d.address).sort()).toEqual(monitors.map((m) => m.address));
    expect(await accountMatchesState(env, store.saved)).toBe(3);
  });

  it("stopped before its first write: nothing is written, and the error says so", async () => {
    const env = await engineAccount(sb);
    const store = new MemoryStateStore();
    const { error, progress } = await interruptedApply(
      env,
      store,
      [emailContact("a", "a@early.example.com")],
      {
        abortWhen: () => true,
      },
    );
    expect(progress).toEqual([]);
    expect(error.result).toEqual({ done: [], failures: [], cascadeMismatches: [] });
    expect(await accountMatchesState(env, store.saved)).toBe(0);
  });
});
