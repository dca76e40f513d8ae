import { z } from "zod";
import { unixTime } from "./common.ts";
import { checkError, checkLocation, recheckRow } from "./events.ts";
import { field } from "./field.ts";

/**
 * What checks found, as the API answers it: check results (`res_`), incidents
 * (`inc_`), state spans and uptime figures. Rows are open objects: members
 * may be added.
 */

const seconds = z.number().int().min(0);

export const incidentSeverities = ["minor", "major", "critical"] as const;

/** Severity by length: minor under 5 minutes, major 5 to 60 minutes, critical 1 hour or more. */
export function severityOf(durationSec: number): (typeof incidentSeverities)[number] {
  if (durationSec < 300) return "minor";
  if (durationSec < 3600) return "major";
  return "critical";
}

export const checkMetrics = z.looseObject({
  responseTime: field(z.number().int(), { description: "Milliseconds, whole check." }),
  dns: z.number().int(),
  connect: z.number().int(),
  tls: z.number().int(),
  ttfb: z.number().int(),
  transfer: z.number().int(),
});

export const checkResultSchema = z.looseObject({
  id: field(z.string(), { description: "res_ id; addressed with its monitor." }),
  monitorId: z.string(),
  time: field(unixTime, { description: "The first check this row stands for." }),
  lastTime: field(unixTime, { description: "The last identical consecutive check folded into this row." }),
  state: z.enum(["up", "down"]),
  location: checkLocation,
  durationMs: z.number().int().min(0),
  error: checkError.nullable(),
  checkCount: field(z.number().int().min(1), { description: "Identical consecutive results are one row." }),
  incidentId: field(z.string().nullable(), { description: "The incident a failing row belongs to." }),
  metrics: field(checkMetrics, { description: "With expand=metrics (single reads: by default)." }).optional(),
  recheck: field(z.array(recheckRow), {
    description: "Locations that confirmed a state change; with expand=recheck (single reads: by default).",
  }).optional(),
});

const transition = z.looseObject({
  state: z.enum(["up", "down"]),
  at: unixTime,
  resultId: z.string(),
  locations: field(z.array(recheckRow), { description: "The locations that confirmed the move." }),
});

export const incidentSchema = z.looseObject({
  id: field(z.string(), { description: "inc_ id." }),
  monitorId: z.string(),
  start: unixTime,
  end: field(unixTime, { description: "For an open incident, the last moment seen down." }),
  durationSec: seconds,
  state: z.enum(["open", "resolved"]),
  severity: z.enum(incidentSeverities),
  cause: checkError,
  underMaintenance: z.boolean(),
  comment: z.string().nullable(),
  checkCount: field(seconds, { description: "Failed checks in the incident." }),
  recheck: field(z.looseObject({ opening: transition, closing: transition.nullable() }), {
    description: "With expand=recheck: the opening and closing transitions.",
  }).optional(),
});

export const stateSpanSchema = z.looseObject({
  id: z.string(),
  monitorId: z.string(),
  state: z.enum(["up", "down"]),
  from: unixTime,
  to: field(unixTime.nullable(), { description: "null while the span goes on." }),
  durationSec: field(seconds, { description: "Up to now while the span goes on." }),
  incidentId: field(z.string().nullable(), { description: "Down spans name their incident." }),
});

export const incidentCommentBody = z.strictObject({
  comment: field(z.string().max(4000).nullable(), {
    description: "Replaces the previous comment; null clears.",
  }),
});

export const summaryBuckets = ["hour", "day", "week", "month"] as const;
export const summaryMetrics = ["responseTime", "dns", "connect", "tls", "ttfb", "transfer"] as const;

const metricPoint = z.looseObject({
  t: field(unixTime, { description: "Bucket midpoint." }),
  value: field(z.number(), { description: "Mean, milliseconds." }),
  p95: z.number(),
  samples: z.number().int().min(0),
});

export const uptimeSummaryRow = z.looseObject({
  monitorId: field(z.string(), { description: "Absent on the account roll-up." }).optional(),
  from: unixTime,
  to: unixTime,
  upSec: seconds,
  downSec: seconds,
  totalSec: seconds,
  maintenance: z.looseObject({ upSec: seconds, downSec: seconds }),
  checks: z.looseObject({
    total: seconds,
    up: seconds,
    down: seconds,
    maintenanceUp: seconds,
    maintenanceDown: seconds,
  }),
  downSpans: seconds,
  uptimePercent: field(z.number().nullable(), {
    description: "upSec / (totalSec - maintenance.downSec) * 100; null when nothing was measured.",
  }),
  slaTarget: z.number().nullable(),
  slaMet: z.boolean().nullable(),
  errorBudgetSecRemaining: field(z.number().nullable(), {
    description: "Negative: missed by that many seconds.",
  }),
  incidents: field(z.looseObject({ opened: seconds, restored: seconds }), {
    description: "With expand=incidentCounts.",
  }).optional(),
  metrics: field(z.record(z.string(), z.array(metricPoint)), {
    description: "With metrics=...: a series per metric.",
  }).optional(),
  monitors: field(seconds, { description: "Account roll-up: monitors counted." }).optional(),
  scope: z.enum(["account", "selection"]).optional(),
  sampled: z.boolean().optional(),
});
