import { z } from "zod";
import { field, type ProblemDetailEntry, unixTime } from "../../../kinds/index.ts";
import { jobCallback } from "../../../kinds/job.ts";
import { sweepAtMostEvery } from "../../core/background.ts";
import { resolveWindow } from "../../core/list.ts";
import type { Ctx } from "../../core/operation.ts";
import { ApiProblem, invalid, notFound } from "../../core/problem.ts";
import type { Doc, Store } from "../../core/store.ts";
import { accountOf } from "../accounts.ts";
import {
  type ReportFormat,
  type ReportSection,
  reportDefaults,
  reportFormats,
  reportLimits,
  reportSections,
} from "../catalogue/report-types.ts";
import { type MonitorDoc, monitorCollection } from "../monitors/model.ts";

/**
 * Generated reports (`rep_`): asked for with `POST /monitor/report`, built by
 * a `monitor.report` job, downloadable for 7 days (docs/sandbox-reports.md).
 */
export interface ReportDoc extends Doc, ReportRequest {
  created: number;
  expiresAt: number;
  /** The file as built: every format is written as 7-bit or UTF-8 text (the PDF escapes non-ASCII). */
  content: string;
  size: number;
}

export const reportCollection = "report";

const formatNames = Object.keys(reportFormats) as [ReportFormat, ...ReportFormat[]];
const sectionNames = Object.keys(reportSections) as [ReportSection, ...ReportSection[]];
/** Widest range one report covers: a year, leap years included. */
export const maxReportSpan = 366 * 86400;

export const reportRequestBody = z.strictObject({
  monitorIds: field(z.array(z.string().min(1)).min(1).max(reportLimits.maxMonitors), {
    description: "Monitors of the account, 1 to 500; duplicates count once.",
  }),
  from: field(unixTime, { description: "Range start, Unix seconds; default 30 days before to." }).optional(),
  to: field(unixTime, { description: "Range end, Unix seconds, after from; default now." }).optional(),
  format: field(z.enum(formatNames), { default: reportDefaults.format }).optional(),
  sections: field(z.array(z.enum(sectionNames)).min(1), {
    default: reportDefaults.sections,
    description: "Written in the order state, stats, outages, incidents, log whatever the order sent.",
  }).optional(),
  timezone: field(z.string().min(1).max(64), {
    description: "IANA time zone the report's times are written in; default the account's.",
  }).optional(),
  callback: jobCallback.optional(),
});
export type ReportRequestBody = z.infer<typeof reportRequestBody>;

/** What the job builds: the request with every default resolved. */
export interface ReportRequest {
  monitorIds: string[];
  from: number;
  to: number;
  format: ReportFormat;
  sections: ReportSection[];
  timezone: string;
}

/**
 * The zone name as sent when Intl knows it, else undefined (offsets such as
 * +01:00 are not zones). Kept as sent: Intl's own spelling can be a retired
 * alias (Asia/Kolkata resolves to Asia/Calcutta).
 */
export function knownZone(name: string): string | undefined {
  if (/^[+-]/.test(name)) return undefined;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return name;
  } catch {
    return undefined;
  }
}

/** The monitors of a report, in request order: 422 with `/monitorIds/<i>` for any the account does not hold. */
export function reportMonitors(ctx: Ctx, monitorIds: readonly string[]): MonitorDoc[] {
  const missing: ProblemDetailEntry[] = [];
  const monitors: MonitorDoc[] = [];
  monitorIds.forEach((id, index) => {
    const m = ctx.store.owned<MonitorDoc>(monitorCollection, ctx.account!.id, id);
    if (m) monitors.push(m);
    else
      missing.push({
        pointer: `/monitorIds/${index}`,
        value: id,
        reason: "not_found",
        message: "no such monitor",
      });
  });
  if (missing.length > 0) throw invalid(missing);
  return monitors;
}

/** Resolves a request's defaults and checks what the body schema cannot: monitors, range, zone. */
export function resolveRequest(ctx: Ctx, body: ReportRequestBody): ReportRequest {
  const monitorIds = [...new Set(body.monitorIds)];
  reportMonitors(ctx, monitorIds);
  const { from, to } = resolveWindow(
    { from: body.from, to: body.to },
    ctx.now,
    maxReportSpan,
    reportDefaults.rangeSec,
  );
  if (to <= from) {
    throw new ApiProblem("invalid_range", "to must be after from.", {
      errors: [{ pointer: "/to", value: to, reason: "not_after_from" }],
      extra: { maxSpan: maxReportSpan },
    });
  }
  // An account zone Intl does not know (accounts take any name) falls back to UTC; a sent one is refused.
  const timezone =
    body.timezone === undefined ? (knownZone(accountOf(ctx).timezone) ?? "UTC") : knownZone(body.timezone);
  if (!timezone) {
    throw invalid([
      {
        pointer: "/timezone",
        value: body.timezone,
        reason: "unknown_timezone",
        message: "not an IANA time zone name (for example Europe/Berlin or UTC)",
      },
    ]);
  }
  return { ...rest(body), monitorIds, from, to, timezone };
}

/** Format and sections with their defaults; sections deduplicated, in the catalogue's order. */
function rest(body: ReportRequestBody): Pick<ReportRequest, "format" | "sections"> {
  const asked = new Set(body.sections ?? reportDefaults.sections);
  return { format: body.format ?? reportDefaults.format, sections: sectionNames.filter((s) => asked.has(s)) };
}

export const reportPath = (id: string) => `/monitor/report/${id}`;
export const downloadPath = (id: string) => `${reportPath(id)}/content`;

/** A report of the account that has not passed its 7 days; 404 otherwise. */
export function requireReport(ctx: Ctx, id: string): ReportDoc {
  const report = ctx.store.owned<ReportDoc>(reportCollection, ctx.account!.id, id);
  if (!report || report.expiresAt <= ctx.now) throw notFound("report", id);
  return report;
}

/** The report's details as `GET /monitor/report/{id}` answers them. */
export function renderReport(r: ReportDoc): Record<string, unknown> {
  return {
    id: r.id,
    monitorIds: r.monitorIds,
    from: r.from,
    to: r.to,
    format: r.format,
    sections: r.sections,
    timezone: r.timezone,
    created: r.created,
    expiresAt: r.expiresAt,
    size: r.size,
    contentType: contentTypeOf(r.format),
    downloadUrl: downloadPath(r.id),
  };
}

/** Text formats name their charset; the PDF is 7-bit. */
export const contentTypeOf = (format: ReportFormat) =>
  format === "pdf" ? reportFormats.pdf : `${reportFormats[format]}; charset=utf-8`;

/** Reports are swept at most this often (sandbox seconds); reads refuse expired ones at once anyway. */
const sweepEverySec = 300;
const sweepMeta = "reports.sweep";

/** Removes reports past their 7 days. */
export function purgeReports(store: Store, now: number): void {
  sweepAtMostEvery(store, sweepMeta, sweepEverySec, now, () => {
    for (const r of store.scan<ReportDoc>(reportCollection)) {
      if (r.expiresAt <= now) store.remove(reportCollection, r.id);
    }
  });
}
