import type { MonitorType } from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { notFound } from "../../core/problem.ts";
import type { Doc } from "../../core/store.ts";

/** A stored monitor. `settings` holds only members that were sent (defaults are applied when rendering). */
export interface MonitorDoc extends Doc {
  type: MonitorType;
  url: string | null;
  /** The normalised address checks use; uniqueness is by (effective address, type). */
  effectiveUrl: string | null;
  name: string;
  interval: number;
  cronSchedule: string | null;
  enabled: boolean;
  tags: string[];
  locations: { pools: string[]; fallback: string | null; excludedAgents: string[] } | null;
  recheck: { strategy: string; minNumDown?: number } | null;
  openStat: boolean;
  fullLog: boolean;
  slaTarget: number | null;
  settings: Record<string, unknown>;
  /** When each credential in `settings` was last written, for `{set: true, updatedAt}`. */
  credentialsUpdatedAt: Record<string, number>;
  state: "up" | "down" | "paused" | "maintenance";
  since: number;
  lastChange: number;
  /** dnsbl listings the owner muted on the attached blacklist check. */
  mutedListings?: string[];
  /** Disabled because the plan had no room. */
  overlimited: boolean;
  created: number;
  updated: number;
  syncSeq: number;
}

export const monitorCollection = "monitor";

export function ownedMonitor(ctx: Ctx, id: string): MonitorDoc {
  const monitor = ctx.store.owned<MonitorDoc>(monitorCollection, ctx.account!.id, id);
  if (!monitor) throw notFound("monitor", id);
  return monitor;
}
