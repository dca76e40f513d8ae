import type { Ctx } from "../../core/operation.ts";
import type { ReportSection } from "../catalogue/report-types.ts";
import {
  type CheckResultDoc,
  type IncidentDoc,
  incidentTable,
  resultTable,
  rowsOf,
  type StateSpanDoc,
  spanTable,
} from "../checks/history.ts";
import { renderIncident, renderResult, renderSpan } from "../checks/render.ts";
import { measure, overlapsWindow } from "../checks/stats.ts";
import { monitorState } from "../maintenance/model.ts";
import { type MonitorDoc, monitorName } from "../monitors/model.ts";
import type { ReportRequest } from "./model.ts";

/**
 * A report's content as format-neutral tables: one table per section, each
 * row naming its monitor. Every figure comes from the check history through
 * the same functions the read routes use (`measure` for uptime, the row
 * renderers for spans, incidents and results); the writers only lay it out.
 */
export interface ReportTable {
  section: ReportSection;
  title: string;
  /** Column names; every row holds one cell per column, "" when empty. */
  columns: string[];
  rows: string[][];
}

export interface ReportModel {
  title: string;
  /** Header lines: range, zone, generation time. */
  lines: string[];
  monitors: Array<{ id: string; name: string }>;
  tables: ReportTable[];
}

const monitorColumns = ["monitorId", "monitorName"];
const cell = (v: unknown): string => (v === null || v === undefined ? "" : String(v));
/** Percentages to 4 decimals: readable, and still the summary route's figure to 4 places. */
const percent = (v: number | null) => (v === null ? "" : String(Number(v.toFixed(4))));

/** A Unix time as ISO 8601 in the report's zone, with its offset: `2025-03-01T14:00:00+01:00`. */
export function zoned(t: number | null, timezone: string): string {
  if (t === null) return "";
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "longOffset",
    })
      .formatToParts(new Date(t * 1000))
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : parts.timeZoneName!.replace("GMT", "");
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

type SectionBuilder = (ctx: Ctx, m: MonitorDoc, r: ReportRequest) => string[][];

const sectionTables: Record<ReportSection, { title: string; columns: string[]; build: SectionBuilder }> = {
  state: {
    title: "Current state",
    columns: ["state", "since", "enabled", "type", "url"],
    build: (ctx, m, r) => [
      [monitorState(ctx, m), zoned(m.since, r.timezone), String(m.enabled), m.type, cell(m.url)],
    ],
  },
  stats: {
    title: "Uptime statistics",
    columns: [
      "from",
      "to",
      "uptimePercent",
      "upSec",
      "downSec",
      "totalSec",
      "maintenanceDownSec",
      "checksTotal",
      "checksDown",
      "downSpans",
      "incidentsOpened",
      "slaTarget",
      "slaMet",
    ],
    build: (ctx, m, r) => {
      const s = measure(ctx, m, r.from, r.to);
      return [
        [
          zoned(r.from, r.timezone),
          zoned(r.to, r.timezone),
          percent(s.uptimePercent),
          cell(s.upSec),
          cell(s.downSec),
          cell(s.totalSec),
          cell(s.maintenance.downSec),
          cell(s.checks.total),
          cell(s.checks.down),
          cell(s.downSpans),
          cell(s.incidents.opened),
          cell(s.slaTarget),
          cell(s.slaMet),
        ],
      ];
    },
  },
  outages: {
    title: "Outages",
    columns: ["start", "end", "durationSec", "incidentId"],
    build: (ctx, m, r) =>
      rowsOf<StateSpanDoc>(ctx, spanTable, m.id)
        .filter((s) => s.state === "down" && overlapsWindow(s.from, s.to, r.from, r.to))
        .sort((a, b) => a.from - b.from)
        .map((s) => renderSpan(ctx, s))
        .map((s) => [
          zoned(s.from as number, r.timezone),
          zoned(s.to as number | null, r.timezone),
          cell(s.durationSec),
          cell(s.incidentId),
        ]),
  },
  incidents: {
    title: "Incidents",
    columns: ["incidentId", "start", "end", "durationSec", "state", "severity", "cause", "comment"],
    build: (ctx, m, r) =>
      rowsOf<IncidentDoc>(ctx, incidentTable, m.id)
        .filter((i) => overlapsWindow(i.start, i.state === "open" ? null : i.end, r.from, r.to))
        .sort((a, b) => a.start - b.start)
        .map((i) => renderIncident(i, new Set()))
        .map((i) => {
          const cause = i.cause as IncidentDoc["cause"];
          return [
            cell(i.id),
            zoned(i.start as number, r.timezone),
            i.state === "open" ? "" : zoned(i.end as number, r.timezone),
            cell(i.durationSec),
            cell(i.state),
            cell(i.severity),
            `${cause.code} ${cause.codename}: ${cause.message}`,
            cell(i.comment),
          ];
        }),
  },
  log: {
    title: "Check log",
    columns: ["time", "state", "location", "durationMs", "checkCount", "error"],
    build: (ctx, m, r) =>
      rowsOf<CheckResultDoc>(ctx, resultTable, m.id)
        .filter((x) => x.time >= r.from && x.time < r.to)
        .sort((a, b) => a.time - b.time)
        .map((x) => renderResult(x, new Set()))
        .map((x) => {
          const location = x.location as CheckResultDoc["location"];
          const error = x.error as CheckResultDoc["error"];
          return [
            zoned(x.time as number, r.timezone),
            cell(x.state),
            `${location.city}, ${location.country}`,
            cell(x.durationMs),
            cell(x.checkCount),
            error ? `${error.code} ${error.codename}: ${error.message}` : "",
          ];
        }),
  },
};

/** The report's tables for these monitors, in the request's section order. */
export function buildModel(ctx: Ctx, monitors: MonitorDoc[], r: ReportRequest): ReportModel {
  return {
    title: "Uptime report",
    lines: [
      `Range: ${zoned(r.from, r.timezone)} to ${zoned(r.to, r.timezone)}`,
      `Time zone: ${r.timezone}`,
      `Generated: ${zoned(ctx.now, r.timezone)}`,
    ],
    monitors: monitors.map((m) => ({ id: m.id, name: monitorName(m) })),
    tables: r.sections.map((section) => {
      const { title, columns, build } = sectionTables[section];
      return {
        section,
        title,
        columns: [...monitorColumns, ...columns],
        rows: monitors.flatMap((m) => build(ctx, m, r).map((row) => [m.id, monitorName(m), ...row])),
      };
    }),
  };
}
