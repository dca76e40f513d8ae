import type { Ctx } from "../../core/operation.ts";
import type { MonitorDoc } from "../monitors/model.ts";
import {
  type CheckResultDoc,
  type IncidentDoc,
  incidentTable,
  lastResultOf,
  newest,
  rowsOf,
  type StateSpanDoc,
  spanTable,
} from "./history.ts";
import { renderIncident, renderResult, renderSpan } from "./render.ts";
import { measure, overlapsWindow } from "./stats.ts";

/** The blocks look back 30 days; `spans` lists at most this many, newest first. */
const blockWindow = 30 * 86400;
const maxBlockSpans = 100;

/** The monitor expand blocks that report what checks found: last incident and result, uptime, spans, summary. */
export function checkBlocks(ctx: Ctx, m: MonitorDoc, expand: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const from = ctx.now - blockWindow;
  if (expand.has("lastIncident")) {
    const last = newest(rowsOf<IncidentDoc>(ctx, incidentTable, m.id), (i) => i.start);
    out.lastIncident = last ? renderIncident(last, new Set()) : null;
  }
  if (expand.has("lastResult")) {
    const last: CheckResultDoc | undefined = lastResultOf(ctx, m.id);
    out.lastResult = last ? renderResult(last, new Set(["metrics"])) : null;
  }
  const measured = expand.has("uptime") || expand.has("summary") ? measure(ctx, m, from, ctx.now) : undefined;
  if (measured && expand.has("uptime")) {
    const { uptimePercent, upSec, downSec, totalSec, maintenance } = measured;
    out.uptime = { from, to: ctx.now, uptimePercent, upSec, downSec, totalSec, maintenance };
  }
  if (expand.has("spans")) {
    out.spans = rowsOf<StateSpanDoc>(ctx, spanTable, m.id)
      .filter((s) => overlapsWindow(s.from, s.to, from, ctx.now))
      .sort((a, b) => b.from - a.from || (a.to === null ? -1 : 1))
      .slice(0, maxBlockSpans)
      .map((s) => renderSpan(ctx, s));
  }
  if (measured && expand.has("summary")) {
    out.summary = {
      from,
      to: ctx.now,
      uptimePercent: measured.uptimePercent,
      slaTarget: measured.slaTarget,
      slaMet: measured.slaMet,
      incidents: measured.incidents.opened,
    };
  }
  return out;
}
