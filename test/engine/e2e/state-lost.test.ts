import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyChanges,
  type DesiredResource,
  MemoryStateStore,
  type State,
  type StateLock,
  StateNotSavedError,
  type StateStore,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { emailContact, engineAccount, httpMonitor } from "./helpers.ts";

/**
 * Issue 25, point 16: the state's store goes away in the middle of an apply.
 * The write whose save failed is not reported as failed (it happened), no
 * write starts that the state could not record first, the error lists what
 * the account holds that the saved state does not, and the next run adopts
 * it. The store here fails from a chosen save on, as a database does once its
 * connection is gone; test/cli/e2e/state-postgres-lost.test.ts does it to a
 * real PostgreSQL.
 */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** A memory store whose saves fail, from the first that `breaks` picks on, as a lost connection does. */
class FailingStore implements StateStore {
  readonly description = "failing";
  readonly inner = new MemoryStateStore();
  readonly breaks: (state: State) => boolean;
  broken = false;
  constructor(breaks: (state: State) => boolean) {
    this.breaks = breaks;
  }
  read(): Promise<State | undefined> {
    return this.inner.read();
  }
  async lock(): Promise<StateLock> {
    const lock = await this.inner.lock();
    return {
      read: () => lock.read(),
      write: async (state) => {
        if (this.broken || this.breaks(state)) {
          this.broken = true;
          throw new Error("Connection terminated unexpectedly");
        }
        await lock.write(state);
      },
      // A release on a lost connection fails too: it must not hide the apply's own error.
      release: async () => {
        await lock.release();
        if (this.broken) throw new Error("Connection terminated unexpectedly");
      },
    };
  }
}

const settled = (state: State) => Object.values(state.resources).filter((r) => r.id && !r.pending);

async function lostApply(
  store: StateStore,
  ops: Parameters<typeof applyChanges>[0]["ops"],
  desired: DesiredResource[],
  time: Parameters<typeof applyChanges>[0]["time"],
) {
  const progress: string[] = [];
  const error = await applyChanges({
    ops,
    store,
    desired,
    time,
    concurrency: 1,
    onProgress: (e) => progress.push(`${e.address}: ${e.action} ${e.outcome}`),
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StateNotSavedError);
  return { error: error as StateNotSavedError, progress };
}

/** The next run, with the store back: it adopts what the lost run created, and creates the rest once. */
async function nextRunAdopts(
  store: FailingStore,
  env: Awaited<ReturnType<typeof engineAccount>>,
  desired: DesiredResource[],
  adopted: string[],
) {
  store.broken = false;
  const next = await applyChanges({
    ops: env.ops,
    store: new MemoryStateStore(store.inner.saved),
    desired,
    time: env.time,
  });
  expect(next.result.failures).toEqual([]);
  for (const address of adopted)
    expect(next.notes).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${address.replace(".", "\\.")}: the create of an earlier run had succeeded; adopted `),
      ),
    );
  const monitors = (await env.account.get("/monitor")).body.data;
  const contacts = (await env.account.get("/contact")).body.data;
  expect(monitors.length + contacts.length).toBe(desired.length);
  expect(new Set(monitors.map((m: { url: string }) => m.url)).size).toBe(monitors.length);
  expect(new Set(contacts.map((c: { address: string }) => c.address)).size).toBe(contacts.length);
}

describe("a state that cannot be saved mid-apply", () => {
  it("one call at a time: the write whose save failed is listed, not failed, and no other write starts", async () => {
    const env = await engineAccount(sb);
    const desired = [
      emailContact("a", "a@lost.example.com"),
      emailContact("b", "b@lost.example.com"),
      httpMonitor("web", "https://web.lost.example.com/"),
      httpMonitor("api", "https://api.lost.example.com/"),
    ];
    // The first save after an object exists: the one that records the first create's id.
    const store = new FailingStore((state) => settled(state).length > 0);
    const { error, progress } = await lostApply(store, env.ops, desired, env.time);
    expect(error.message).toBe("The state could not be saved: Connection terminated unexpectedly");
    expect(error.unsaved).toEqual([{ address: "contacts.a", action: "create" }]);
    expect(error.result?.failures).toEqual([]);
    // Neither done (its outcome is not saved) nor failed (it happened): the error tells it, once.
    expect(progress).toEqual([]);
    // Nothing was sent after the save failed: one contact, no monitor.
    expect((await env.account.get("/contact")).body.data).toHaveLength(1);
    expect((await env.account.get("/monitor")).body.data).toHaveLength(0);
    // The saved state holds the create as pending, which is what the next run settles.
    expect(store.inner.saved!.resources["contacts.a"]?.pending?.action).toBe("create");
    await nextRunAdopts(store, env, desired, ["contacts.a"]);
  });

  it("a bulk job whose id could not be saved is followed to its end; what it created is listed, nothing failed", async () => {
    const env = await engineAccount(sb);
    const desired = ["a", "b", "c", "d"].map((n) => httpMonitor(n, `https://${n}.bulk-lost.example.com/`));
    const store = new FailingStore((state) => Object.values(state.resources).some((r) => r.pending?.jobId));
    const { error, progress } = await lostApply(store, env.ops, desired, env.time);
    expect(error.unsaved.map((w) => w.action)).toEqual(["create", "create", "create", "create"]);
    expect(error.unsaved.map((w) => w.address).sort()).toEqual(desired.map((d) => d.address).sort());
    expect(error.result?.failures).toEqual([]);
    expect(progress.filter((p) => p.endsWith("failed"))).toEqual([]);
    expect((await env.account.get("/monitor")).body.data).toHaveLength(4);
    await nextRunAdopts(
      store,
      env,
      desired,
      desired.map((d) => d.address),
    );
  });

  it("a save that fails before a write is sent: nothing is sent, nothing is listed", async () => {
    const env = await engineAccount(sb);
    const desired = [httpMonitor("web", "https://web.never.example.com/")];
    const store = new FailingStore((state) => Object.values(state.resources).some((r) => r.pending));
    const { error } = await lostApply(store, env.ops, desired, env.time);
    expect(error.unsaved).toEqual([]);
    expect((await env.account.get("/monitor")).body.data).toHaveLength(0);
  });
});
