import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import {
  type AttachedKind,
  locations,
  type MonitorBody,
  type MonitorType,
  membersOf,
  monitorKind,
  monitorSchema,
  monitorTypes,
  recheck,
  traitsOf,
  variantMemberSchema,
} from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { notFound } from "../../core/problem.ts";
import type { Doc } from "../../core/store.ts";
import type { KindMembers } from "../../core/stored.ts";

type Locations = Required<NonNullable<MonitorBody["locations"]>>;
type Recheck = {
  strategy: NonNullable<NonNullable<MonitorBody["recheck"]>["strategy"]>;
  minNumDown?: number;
};

/**
 * A stored monitor: the monitor kind's members (which ones a write keeps is the kind's: `storedValues`), with
 * those the sandbox works out or reads itself typed as it leaves them, and the service's own bookkeeping.
 */
export interface MonitorDoc extends Doc, KindMembers<MonitorBody> {
  type: MonitorType;
  /** Null for the types without an address. */
  url: string | null;
  /** The normalised address checks use; uniqueness is by (effective address, type). */
  effectiveUrl: string | null;
  interval: number;
  cronSchedule: string | null;
  enabled: boolean;
  tags: string[];
  /** Null for the types without locations. */
  locations: Locations | null;
  /** Null until one is sent. */
  recheck: Recheck | null;
  /** Only the members that were sent: defaults are applied when rendering. */
  settings: Record<string, unknown>;
  /** When each credential in `settings` was last written, for `{set: true, updatedAt}`. */
  credentialsUpdatedAt: Record<string, number>;
  state: "up" | "down" | "paused" | "maintenance";
  /** Start of the current state; also what `sort=lastChange` orders by. */
  since: number;
  /** dnsbl listings the owner muted on the attached blacklist check. */
  mutedListings?: string[];
  /** Disabled because the plan had no room. */
  overlimited: boolean;
  created: number;
  updated: number;
  syncSeq: number;
}

export const monitorTable = "monitor";

/** Server defaults the sandbox works with, read from the kind's `default` traits. */
export const monitorDefaults = {
  interval: traitsOf(monitorSchema.shape.interval).default as number,
  fallback: traitsOf(locations.shape.fallback).default as Locations["fallback"],
  strategy: traitsOf(recheck.shape.strategy).default as Recheck["strategy"],
};

/**
 * The members the sandbox works out itself (by the type, the fleet and the plan); a write keeps every other
 * member of the kind as sent (`storedValues`).
 */
export const workedOutMembers = [
  "type",
  "url",
  "interval",
  "cronSchedule",
  "tags",
  "locations",
  "recheck",
  "settings",
] as const satisfies readonly (keyof MonitorDoc)[];

/** The name as read: the sent one, else the address (`defaultFrom: "url"`), the probe's address, or the type's label. */
export function monitorName(m: MonitorDoc): string {
  return m.name ?? m.url ?? (m.settings.probeUrl as string | undefined) ?? monitorTypes[m.type].label;
}

/** Each attached kind the monitor's type can carry, and whether it is on (all off by default). */
export function attachedToggles(m: MonitorDoc): Array<{ kind: AttachedKind; enabled: boolean }> {
  const stored = (m.settings.attached ?? {}) as Partial<Record<AttachedKind, { enabled: boolean }>>;
  return monitorTypes[m.type].attached.map((kind) => ({ kind, enabled: stored[kind]?.enabled ?? false }));
}

/** The monitors the plan's `monitors` count caps: enabled ones (a paused monitor takes no room). */
export function enabledMonitors(ctx: Ctx, accountId: string): MonitorDoc[] {
  return ctx.store.all<MonitorDoc>(monitorTable, accountId).filter((m) => m.enabled);
}

export function ownedMonitor(ctx: Ctx, id: string): MonitorDoc {
  const monitor = ctx.store.owned<MonitorDoc>(monitorTable, ctx.account!.id, id);
  if (!monitor) throw notFound("monitor", id);
  return monitor;
}

/** `set` members (tags, pools, status lists) in one order, so equal sets compare equal. */
function withSortedSets<T extends Record<string, unknown> | null>(value: T, schema: z.ZodObject): T {
  if (value === null) return value;
  const out: Record<string, unknown> = { ...value };
  for (const { name, traits } of membersOf(schema)) {
    const member = out[name];
    if (traits.collection === "set" && Array.isArray(member))
      out[name] = member.map((v) => JSON.stringify(v)).sort();
  }
  return out as T;
}

/** Whether a write would leave the stored monitor as it is, reading sets without order. */
export function sameMonitor(a: MonitorDoc, b: MonitorDoc): boolean {
  const canonical = (m: MonitorDoc) => ({
    ...withSortedSets(m as unknown as Record<string, unknown>, monitorSchema),
    locations: withSortedSets(m.locations, locations),
    settings: withSortedSets(m.settings, variantMemberSchema(monitorKind, m.type)!),
  });
  return isDeepStrictEqual(canonical(a), canonical(b));
}
