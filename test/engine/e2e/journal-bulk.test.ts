import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyChanges,
  type DesiredResource,
  type MemoryStateStore,
  type State,
  type StateLock,
  type StateStore,
} from "../../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { appliedAccount, emailContact, httpMonitor } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** A memory store that keeps every state written, so a test can check each point a crash could stop at. */
class RecordingStore implements StateStore {
  readonly description = "recording";
  readonly written: State[] = [];
  readonly inner: MemoryStateStore;
  constructor(inner: MemoryStateStore) {
    this.inner = inner;
  }
  read(): Promise<State | undefined> {
    return this.inner.read();
  }
  async lock(): Promise<StateLock> {
    const lock = await this.inner.lock();
    return {
      read: () => lock.read(),
      write: async (state) => {
        this.written.push(structuredClone(state));
        await lock.write(state);
      },
      release: () => lock.release(),
    };
  }
}

describe("the journal of bulk writes", () => {
  it("a bulk create-first replace never overwrites the deposed entry of the old object", async () => {
    const names = ["a", "b", "c"];
    const desired = names.map((n) => httpMonitor(n, `https://deposed-${n}.example.com/`));
    const { ops, time, store, ids } = await appliedAccount(sb, desired);
    const retyped: DesiredResource[] = names.map((n) => ({
      address: `monitors.${n}`,
      kind: "monitor",
      members: { type: "sslExp", url: `https://deposed-${n}.example.com/`, name: n },
    }));
    const recording = new RecordingStore(store);
    const applied = await applyChanges({ ops, store: recording, desired: retyped, time });
    expect(applied.result.failures).toEqual([]);
    // At every save, each old monitor is still in the state (under its address or deposed) until deleted.
    for (const state of recording.written) {
      for (const n of names) {
        const oldId = ids[`monitors.${n}`];
        const held = Object.values(state.resources).some((r) => r.id === oldId);
        const deleted =
          !state.resources[`monitors.${n}#deposed`] && state.resources[`monitors.${n}`]?.id !== oldId;
        expect(held || deleted, `old monitors.${n} orphaned at serial ${state.serial}`).toBe(true);
      }
    }
    expect(Object.keys(store.saved!.resources).sort()).toEqual(names.map((n) => `monitors.${n}`));
  });

  it("a bulk delete-first replace leaves no deposed entry behind", async () => {
    const lifecycle = { replaceOnChanges: ["name"] };
    const names = ["a", "b", "c"];
    const desired = names.map((n) => ({ ...httpMonitor(n, `https://first-${n}.example.com/`), lifecycle }));
    const { ops, time, store } = await appliedAccount(sb, desired);
    const renamed = names.map((n) => ({
      ...httpMonitor(n, `https://first-${n}.example.com/`, { name: `${n}-renamed` }),
      lifecycle,
    }));
    const applied = await applyChanges({ ops, store, desired: renamed, time });
    expect(applied.result.failures).toEqual([]);
    expect(Object.keys(store.saved!.resources).sort()).toEqual(names.map((n) => `monitors.${n}`));
  });

  it("a contact bulk write that mixes creates and updates journals a whole entry for each", async () => {
    const desired = [emailContact("old", "old@mixed.example.com")];
    const { ops, time, store } = await appliedAccount(sb, desired);
    const next = [
      {
        ...emailContact("old", "old@mixed.example.com"),
        members: { type: "email", address: "old@mixed.example.com", name: "Old renamed" },
      },
      emailContact("new1", "new1@mixed.example.com"),
      emailContact("new2", "new2@mixed.example.com"),
    ];
    const recording = new RecordingStore(store);
    const applied = await applyChanges({ ops, store: recording, desired: next, time });
    expect(applied.result.failures).toEqual([]);
    for (const state of recording.written)
      for (const [address, r] of Object.entries(state.resources)) {
        expect(r.kind, `${address} at serial ${state.serial}`).toBe("contact");
        if (r.pending && !r.id) expect(r.pending.action, address).toBe("create");
      }
  });
});
