import { describe, expect, it } from "vitest";
import { ApiError, type Operations } from "../../../src/api/index.ts";
import { Applier, MemoryStateStore, newState, type ResourceState } from "../../../src/engine/index.ts";

const before: ResourceState = { kind: "monitor", id: "1", naturalKey: {}, managed: { name: "a" } };

async function pendingAfter(error: unknown): Promise<boolean> {
  const state = newState();
  state.resources["monitors.a"] = before;
  const lock = await new MemoryStateStore().lock();
  const applier = new Applier({
    ops: {} as Operations,
    lock,
    state,
    actions: [],
    desired: [],
    live: new Map(),
    complete: new Set(),
    maxBulkItems: 100,
  });
  await applier.journal.begin([{ address: "monitors.a", entry: before, action: "delete", body: null }], "k");
  applier.undo("monitors.a", before, error);
  return applier.state.resources["monitors.a"]?.pending !== undefined;
}

const apiError = (status: number, attempts: number, body: Record<string, unknown> = {}) =>
  new ApiError({ status, body, headers: {}, route: "DELETE /monitor/{id}", attempts });

describe("Applier.undo", () => {
  it("a refusal on the first attempt changed nothing: the pending write is dropped", async () => {
    expect(await pendingAfter(apiError(422, 1))).toBe(false);
  });

  it("a 5xx or a network error may have committed: the write stays pending", async () => {
    expect(await pendingAfter(apiError(503, 1))).toBe(true);
    expect(await pendingAfter(new Error("socket hang up"))).toBe(true);
  });

  it("a 4xx after a retry may follow an attempt that committed: the write stays pending", async () => {
    expect(await pendingAfter(apiError(429, 3))).toBe(true);
  });

  it("an idempotency conflict means the first request may still commit: the write stays pending", async () => {
    const inFlight = apiError(409, 1, { code: "idempotency_key_conflict", reason: "in_flight" });
    expect(await pendingAfter(inFlight)).toBe(true);
  });
});
