/**
 * A small account as the plan sees it, written out by hand so the plan's phases run without a sandbox: live
 * rows as the sandbox answers them (an http monitor, an email contact, an alert subscription of the two),
 * the inventory a refresh would make of them, a state that manages them, and a config that declares them.
 */
import type { Row } from "../../../src/engine/kinds/index.ts";
import type { DesiredResource, KindName, ResourceState, State } from "../../../src/engine/model.ts";
import type { Inventory } from "../../../src/engine/refresh.ts";
import { newState } from "../../../src/engine/state/index.ts";

export function monitorRow(id: string, url: string, members: Record<string, unknown> = {}): Row {
  return {
    id,
    type: "http",
    url,
    name: new URL(url).hostname.split(".")[0],
    interval: 60,
    cronSchedule: null,
    enabled: true,
    tags: [],
    locations: { pools: ["allworld"], fallback: "starve", excludedAgents: [] },
    recheck: { strategy: "" },
    openStat: false,
    fullLog: false,
    slaTarget: null,
    state: "up",
    since: 1795897875,
    created: 1795897875,
    updated: 1795897875,
    settings: {
      method: "G",
      timeout: 40000,
      followRedirect: true,
      maxRedirects: 20,
      errorOnRedirect: false,
      accept: "*/*",
      maxSize: 1048576,
      publicDns: 0,
      dnsNoCache: false,
      requireValidChain: false,
      checkRevocation: false,
      requireStrongTls: false,
      blockWeakCiphers: false,
      assertMode: false,
      keywordMode: "PresentAny",
      attached: {
        dnsbl: { enabled: false },
        sslExp: { enabled: false },
        domainExp: { enabled: false },
        webRisk: { enabled: false },
      },
      assertsText: "",
      forceRecheck: false,
    },
    ...members,
  };
}

export function contactRow(id: string, address: string, members: Record<string, unknown> = {}): Row {
  return {
    id,
    type: "email",
    address,
    name: address.split("@")[0],
    language: "en",
    alertDelay: 0,
    activePeriod: null,
    confirmed: false,
    confirmedAt: null,
    created: 1795897875,
    updated: 1795897875,
    ...members,
  };
}

export function subscriptionRow(id: string, monitorId: string, contactId: string): Row {
  return { id, monitorId, contactId, created: 1795897875, updated: 1795897875, alertTypes: ["down", "up"] };
}

/** What a full refresh makes of these rows. */
export function inventoryOf(rows: readonly [KindName, Row][]): Inventory {
  const byKind = new Map<KindName, Row[]>();
  for (const [kind, row] of rows) byKind.set(kind, [...(byKind.get(kind) ?? []), row]);
  return {
    accountId: "acc-1",
    maxBulkItems: 100,
    rows: byKind,
    byId: new Map([...byKind].map(([kind, list]) => [kind, new Map(list.map((r) => [String(r.id), r]))])),
    complete: new Set(byKind.keys()),
    syncCursors: {},
  };
}

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

export function alertOf(monitor: string, contact: string): DesiredResource {
  return {
    address: `alertSubscriptions.${monitor}-${contact}`,
    kind: "alertSubscription",
    members: {
      monitorId: { $ref: `monitors.${monitor}` },
      contactId: { $ref: `contacts.${contact}` },
      alertTypes: ["down", "up"],
    },
  };
}

/** A state managing each address as its object with these ids, as applying `desired` would leave it. */
export function stateOf(
  managed: readonly { resource: DesiredResource; id: string; members?: Record<string, unknown> }[],
  extra: Partial<ResourceState> = {},
): State {
  const state = newState();
  for (const { resource, id, members } of managed)
    state.resources[resource.address] = {
      kind: resource.kind,
      id,
      naturalKey: {},
      managed: members ?? resource.members,
      ...extra,
    };
  return state;
}

/** The shop monitor, the ops contact and the subscription between them: config, live rows, ids. */
export function shopAccount() {
  const shop = httpMonitor("shop", "https://shop.example.com/");
  const ops = emailContact("ops", "ops@example.com");
  const alert = alertOf("shop", "ops");
  const rows = {
    shop: monitorRow("mon-shop", "https://shop.example.com/"),
    ops: contactRow("con-ops", "ops@example.com"),
    alert: subscriptionRow("als-shop-ops", "mon-shop", "con-ops"),
  };
  const inventory = inventoryOf([
    ["monitor", rows.shop],
    ["contact", rows.ops],
    ["alertSubscription", rows.alert],
  ]);
  const state = stateOf([
    { resource: shop, id: "mon-shop" },
    { resource: ops, id: "con-ops" },
    {
      resource: alert,
      id: "als-shop-ops",
      members: { monitorId: "mon-shop", contactId: "con-ops", alertTypes: ["down", "up"] },
    },
  ]);
  return { desired: [shop, ops, alert], shop, ops, alert, rows, inventory, state };
}
