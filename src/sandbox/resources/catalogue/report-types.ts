import { reportFrequencies } from "../../../kinds/index.ts";
import { defineOperations } from "../../core/operation.ts";
import { anonymous } from "./anonymous.ts";

/** Generated report formats and sections; the report routes read their defaults from here too. */
export const reportFormats = {
  pdf: "application/pdf",
  csv: "text/csv",
  xml: "application/xml",
  html: "text/html",
} as const;
export type ReportFormat = keyof typeof reportFormats;

export const reportSections = {
  state: "Current state of each monitor.",
  stats: "Uptime and response-time statistics over the range.",
  outages: "Down periods with their durations.",
  incidents: "Incidents opened in the range, with causes and comments.",
  log: "The check log: grouped results in the range.",
} as const;
export type ReportSection = keyof typeof reportSections;

export const reportDefaults = {
  format: "pdf" as ReportFormat,
  sections: ["stats"] as ReportSection[],
  rangeSec: 30 * 86400,
};
export const reportLimits = { maxMonitors: 500, downloadableSec: 7 * 86400 };

export const reportTypeOperations = defineOperations({
  ...anonymous,
  id: "reportType.list",
  method: "GET",
  path: "/report/type",
  summary: "Report formats and sections, their defaults, and scheduled report frequencies.",
  errors: ["unknown_parameter", "invalid_token", "rate_limited"],
  response: { status: 200, description: "{formats, sections, frequencies, defaults, limits}." },
  handle: () => ({
    status: 200,
    body: {
      formats: Object.entries(reportFormats).map(([format, mimeType]) => ({
        format,
        mimeType,
        default: format === reportDefaults.format,
      })),
      sections: Object.entries(reportSections).map(([section, description]) => ({
        section,
        description,
        default: reportDefaults.sections.includes(section as ReportSection),
      })),
      frequencies: [...reportFrequencies],
      defaults: { ...reportDefaults, sections: [...reportDefaults.sections] },
      limits: reportLimits,
    },
  }),
});
