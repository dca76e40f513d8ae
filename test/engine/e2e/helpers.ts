import { VigilClient } from "../../../src/api/client.ts";
import { operations } from "../../../src/api/operations.ts";
import type { Pacer } from "../../../src/api/types.ts";
import {
  applyChanges,
  type DesiredResource,
  MemoryStateStore,
  type Plan,
  type PlannedAction,
} from "../../../src/engine/index.ts";
import { quickTime } from "../../api/caller.ts";
import type { TestSandbox } from "../../helpers/sandbox.ts";

/** Test accounts are unmetered: nothing to pace. */
const noPacing: Pacer = { acquire: async () => {}, observe: () => {} };

/** A fresh account of the sandbox and the engine's view of it: typed operations over the real client. */
export async function engineAccount(sb: TestSandbox, options: Parameters<TestSandbox["account"]>[0] = {}) {
  const account = await sb.account({ plan: "enterprise", ...options });
  return { account, ...opsFor(sb, account.token) };
}

/** The engine's view of the sandbox through one token. */
export function opsFor(sb: TestSandbox, token: string) {
  const client = new VigilClient({ baseUrl: sb.url, token, pacer: noPacing, time: quickTime(50) });
  return { client, ops: operations(client), time: quickTime(50) };
}

/** An http monitor of the desired state, checked from every pool. */
export function httpMonitor(
  name: string,
  url: string,
  members: Record<string, unknown> = {},
): DesiredResource {
  return {
    address: `monitors.${name}`,
    kind: "monitor",
    members: { type: "http", url, name, interval: 60, locations: { pools: ["allworld"] }, ...members },
  };
}

export function emailContact(name: string, address: string): DesiredResource {
  return { address: `contacts.${name}`, kind: "contact", members: { type: "email", address, name } };
}

/** An alert subscription of a monitor and a contact of the config. */
export function alertOf(monitor: string, contact: string, alertTypes = ["down", "up"]): DesiredResource {
  return {
    address: `alertSubscriptions.${monitor}-${contact}`,
    kind: "alertSubscription",
    members: {
      monitorId: { $ref: `monitors.${monitor}` },
      contactId: { $ref: `contacts.${contact}` },
      alertTypes,
    },
  };
}

/** The actions of a plan that do something. */
export function changed(plan: Plan): PlannedAction[] {
  return plan.actions.filter((a) => a.action !== "no-op");
}

/** A fresh account with `desired` applied to it, and the ids the state gives each address. */
export async function appliedAccount(sb: TestSandbox, desired: readonly DesiredResource[]) {
  const env = await engineAccount(sb);
  const store = new MemoryStateStore();
  const first = await applyChanges({ ops: env.ops, store, desired, time: env.time });
  if (first.result.failures.length > 0)
    throw new Error(`apply failed: ${JSON.stringify(first.result.failures)}`);
  const ids: Record<string, string> = {};
  for (const [address, r] of Object.entries(store.saved!.resources)) if (r.id) ids[address] = r.id;
  return { ...env, store, ids };
}

/** Calls by route made between two metric snapshots, writes only. */
export function writesSince(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [route, n] of Object.entries(after)) {
    const d = n - (before[route] ?? 0);
    if (d > 0 && !route.startsWith("GET ")) out[route] = d;
  }
  return out;
}
