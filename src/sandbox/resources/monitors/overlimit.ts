import type { Ctx } from "../../core/operation.ts";
import { type AccountDoc, entitlements, nextSyncSeq } from "../accounts.ts";
import { enabledMonitors, type MonitorDoc, monitorTable } from "./model.ts";

/**
 * The spec's "plan over-limit" transition, applied after a plan or override
 * change: when enabled monitors exceed the plan's `monitors`, the newest ones
 * beyond the limit are disabled (`overlimited`, state `paused`), each taking a
 * delta-sync sequence number. Nothing is deleted. Answers the disabled ids.
 */
export function enforceMonitorLimit(ctx: Ctx, accountId: string): string[] {
  const account = ctx.store.get<AccountDoc>("account", accountId)!;
  const limit = entitlements(account).monitors;
  // The sort is stable: monitors created in the same second keep their creation order.
  const excess = enabledMonitors(ctx, accountId)
    .sort((a, b) => a.created - b.created)
    .slice(limit);
  for (const m of excess) {
    ctx.store.put<MonitorDoc>(monitorTable, {
      ...m,
      enabled: false,
      state: "paused",
      since: ctx.now,
      overlimited: true,
      updated: ctx.now,
      syncSeq: nextSyncSeq(ctx, accountId),
    });
  }
  return excess.map((m) => m.id);
}
