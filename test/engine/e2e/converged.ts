import { expect } from "vitest";
import type { Operations, TimeSource } from "../../../src/api/index.ts";
import {
  type DesiredResource,
  engineKind,
  type KindName,
  planChanges,
  type StateStore,
} from "../../../src/engine/index.ts";

/**
 * The account holds exactly the config: per kind, as many live objects as
 * desired, each natural key once, every state address on a distinct live id,
 * nothing pending, and a fresh plan with no changes.
 */
export async function expectConverged(
  ops: Operations,
  store: StateStore,
  desired: readonly DesiredResource[],
  time: TimeSource,
): Promise<void> {
  const { plan } = await planChanges({ ops, store, desired, time });
  expect(plan.actions.filter((a) => a.action !== "no-op")).toEqual([]);
  const state = await readState(store);
  expect(Object.values(state.resources).filter((r) => r.pending)).toEqual([]);
  expect(Object.keys(state.resources).sort()).toEqual(desired.map((d) => d.address).sort());
  for (const name of new Set<KindName>(desired.map((d) => d.kind))) {
    const kind = engineKind(name);
    const { rows } = await kind.listAll(ops);
    const wanted = desired.filter((d) => d.kind === name);
    expect(rows.length, `live ${kind.section}`).toBe(wanted.length);
    const keys = rows.map((row) => kind.naturalKey(kind.normalizeLive(row)));
    expect(new Set(keys).size, `distinct natural keys of ${kind.section}`).toBe(rows.length);
    const liveIds = new Set(rows.map((row) => String(row.id)));
    const stateIds = wanted.map((d) => state.resources[d.address]?.id);
    for (const [i, id] of stateIds.entries()) expect(liveIds.has(String(id)), wanted[i]!.address).toBe(true);
    expect(new Set(stateIds).size, `distinct ids of ${kind.section} in the state`).toBe(wanted.length);
  }
}

async function readState(store: StateStore) {
  const lock = await store.lock();
  try {
    const state = await lock.read();
    if (!state) throw new Error("no state was saved");
    return state;
  } finally {
    await lock.release();
  }
}
