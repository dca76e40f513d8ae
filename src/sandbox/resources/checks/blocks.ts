import type { Ctx } from "../../core/operation.ts";
import type { MonitorDoc } from "../monitors/model.ts";

/** The monitor expand blocks that report what checks found: last incident and result, uptime, spans, summary. */
export function checkBlocks(_ctx: Ctx, m: MonitorDoc, expand: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (expand.has("lastIncident")) out.lastIncident = null;
  if (expand.has("lastResult")) out.lastResult = null;
  if (expand.has("uptime")) out.uptime = { uptimePercent: null, upSec: 0, downSec: 0, totalSec: 0 };
  if (expand.has("spans")) out.spans = [];
  if (expand.has("summary"))
    out.summary = { uptimePercent: null, slaTarget: m.slaTarget, slaMet: null, incidents: 0 };
  return out;
}
