import { describe, expect, it } from "vitest";
import { MemoryStateStore, newState, StateLockedError } from "../../../src/engine/state/index.ts";

describe("MemoryStateStore", () => {
  it("reads undefined until written, then a copy of what was written", async () => {
    const store = new MemoryStateStore();
    const lock = await store.lock();
    expect(await lock.read()).toBeUndefined();
    const state = newState();
    await lock.write(state);
    expect(await lock.read()).toEqual(state);
  });

  it("keeps callers' later mutations out, on write and on read", async () => {
    const store = new MemoryStateStore();
    const lock = await store.lock();
    const state = newState();
    await lock.write(state);
    state.serial = 7;
    state.resources["monitors.a"] = { kind: "monitor", naturalKey: {}, managed: {} };
    const read = (await lock.read())!;
    expect(read.serial).toBe(0);
    expect(read.resources).toEqual({});
    read.serial = 9;
    expect((await lock.read())!.serial).toBe(0);
    expect(store.saved!.serial).toBe(0);
  });

  it("copies an initial state", async () => {
    const initial = newState();
    const store = new MemoryStateStore(initial);
    initial.serial = 3;
    expect(store.saved!.serial).toBe(0);
  });

  it("is exclusive until released, and a released lock is dead", async () => {
    const store = new MemoryStateStore();
    const first = await store.lock();
    await expect(store.lock()).rejects.toBeInstanceOf(StateLockedError);
    await first.release();
    await expect(first.read()).rejects.toThrow("released");
    await expect(first.write(newState())).rejects.toThrow("released");
    const second = await store.lock();
    // Releasing the dead lock again must not free the live one.
    await first.release();
    await expect(store.lock()).rejects.toBeInstanceOf(StateLockedError);
    await second.release();
  });
});
