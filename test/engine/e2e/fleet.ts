import { expect } from "vitest";
import type { Operations, TimeSource } from "../../../src/api/index.ts";
import {
  type DesiredResource,
  engineKind,
  type KindName,
  planChanges,
  type StateStore,
} from "../../../src/engine/index.ts";

const ref = (address: string) => ({ $ref: address });

export interface FleetShape {
  monitors: number;
  contacts: number;
  /** Alert subscriptions: contact `i % contacts` on monitor `i`. */
  subscriptions: number;
  maintenance?: boolean;
  webhook?: boolean;
}

/**
 * A config of many plain objects: enough monitors and contacts that apply uses
 * bulk jobs, and subscriptions that reference both. `tag` goes into every
 * natural key, so fleets of several tests never collide.
 */
export function fleetConfig(tag: string, shape: FleetShape): DesiredResource[] {
  const desired: DesiredResource[] = [];
  for (let i = 0; i < shape.contacts; i++) {
    desired.push({
      address: `contacts.c${i}`,
      kind: "contact",
      members: { type: "email", address: `ops-${i}-${tag}@example.com`, name: `Ops ${i} ${tag}` },
    });
  }
  for (let i = 0; i < shape.monitors; i++) {
    desired.push({
      address: `monitors.m${i}`,
      kind: "monitor",
      members: {
        type: "http",
        url: `https://m${i}-${tag}.example.com/health`,
        name: `Monitor ${i} ${tag}`,
        interval: 60,
        tags: [`fleet-${tag}`],
        locations: { pools: ["allworld"] },
      },
    });
  }
  for (let i = 0; i < shape.subscriptions; i++) {
    desired.push({
      address: `alertSubscriptions.s${i}`,
      kind: "alertSubscription",
      members: {
        monitorId: ref(`monitors.m${i % shape.monitors}`),
        contactId: ref(`contacts.c${i % shape.contacts}`),
        alertTypes: ["down", "up"],
      },
    });
  }
  if (shape.maintenance) {
    desired.push({
      address: "maintenance.nightly",
      kind: "maintenance",
      members: {
        name: `nightly-${tag}`,
        // Sunday 2030-01-06 02:00-04:00 UTC, weekly: scheduled whatever the sandbox clock says.
        from: 1893895200,
        to: 1893902400,
        monitorIds: [ref("monitors.m0"), ref("monitors.m1")],
        repeat: "weekly",
      },
    });
  }
  if (shape.webhook) {
    desired.push({
      address: "webhooks.events",
      kind: "webhook",
      members: {
        url: `https://hooks-${tag}.example.net/vigil`,
        events: ["monitor.up", "monitor.down"],
        scope: { monitorIds: [ref("monitors.m0")] },
        secret: `fleet-secret-${tag}-0123456789`,
      },
    });
  }
  return desired;
}

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
    expect(rows.length, `live ${kind.collection}`).toBe(wanted.length);
    const keys = rows.map((row) => kind.naturalKey(kind.normalizeLive(row)));
    expect(new Set(keys).size, `distinct natural keys of ${kind.collection}`).toBe(rows.length);
    const liveIds = new Set(rows.map((row) => String(row.id)));
    const stateIds = wanted.map((d) => state.resources[d.address]?.id);
    for (const [i, id] of stateIds.entries()) expect(liveIds.has(String(id)), wanted[i]!.address).toBe(true);
    expect(new Set(stateIds).size, `distinct ids of ${kind.collection} in the state`).toBe(wanted.length);
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
