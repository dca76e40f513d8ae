import { summaryBuckets, summaryMetrics, uptimeSummaryRow } from "../../../kinds/checks.ts";
import { listOperations, resolveWindow } from "../../core/list.ts";
import type { Ctx, OpRequest } from "../../core/operation.ts";
import { ApiProblem, notFound } from "../../core/problem.ts";
import { type MonitorDoc, monitorCollection } from "../monitors/model.ts";
import { type CheckResultDoc, resultCollection, rowsOf } from "./history.ts";
import { type Measured, measure } from "./stats.ts";

/** `GET /monitor/result/summary`: uptime rows per monitor (or for the account) and bucket. */

const day = 86400;
const limits = { buckets: 1000, cells: 50000, monitorIds: 500, accountMonitors: 2000, accountSpan: 30 * day };

type Bucket = (typeof summaryBuckets)[number];
type Metric = (typeof summaryMetrics)[number];

interface SummaryRow {
  key: string;
  monitors: MonitorDoc[];
  scope: "monitor" | "account" | "selection";
  from: number;
  to: number;
}

/** The start of the UTC-aligned bucket holding `t`; weeks start on Monday. */
function bucketStart(t: number, bucket: Bucket): number {
  if (bucket === "hour") return t - (t % 3600);
  if (bucket === "day") return t - (t % day);
  if (bucket === "week") {
    // 1970-01-05 was a Monday.
    const monday = 4 * day;
    return t - ((((t - monday) % (7 * day)) + 7 * day) % (7 * day));
  }
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
}

function nextBucket(start: number, bucket: Bucket): number {
  if (bucket === "hour") return start + 3600;
  if (bucket === "day") return start + day;
  if (bucket === "week") return start + 7 * day;
  const d = new Date(start * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
}

/** The window cut into buckets, clipped to the window; one piece without `bucket`. */
function pieces(from: number, to: number, bucket: Bucket | undefined): Array<[number, number]> {
  if (!bucket) return [[from, to]];
  const out: Array<[number, number]> = [];
  for (let start = bucketStart(from, bucket); start < to; start = nextBucket(start, bucket)) {
    out.push([Math.max(from, start), Math.min(to, nextBucket(start, bucket))]);
    if (out.length > limits.buckets) break;
  }
  return out;
}

const tooMany = (pointer: string, reason: string, detail: string, extra: Record<string, unknown>) =>
  new ApiProblem("validation_failed", detail, { errors: [{ pointer, reason, ...extra }] });

function selection(ctx: Ctx, req: OpRequest): { monitors: MonitorDoc[]; scope: SummaryRow["scope"] } {
  const ids = req.query.monitor as string[] | undefined;
  const account = req.query.groupBy === "account";
  if (!ids) {
    if (!account) {
      throw new ApiProblem("validation_failed", "Name the monitors, or ask for groupBy=account.", {
        errors: [{ pointer: "/monitor", parameter: "monitor", reason: "required" }],
      });
    }
    const monitors = ctx.store.all<MonitorDoc>(monitorCollection, ctx.account!.id);
    if (monitors.length > limits.accountMonitors)
      throw tooMany("/groupBy", "too_many_monitors", "The account roll-up covers at most 2000 monitors.", {
        maxItems: limits.accountMonitors,
      });
    return { monitors, scope: "account" };
  }
  const unique = [...new Set(ids)];
  if (unique.length > limits.monitorIds)
    throw tooMany("/monitor", "too_many_items", "At most 500 monitor ids per request.", {
      maxItems: limits.monitorIds,
    });
  const monitors = unique.map((id) => {
    const m = ctx.store.owned<MonitorDoc>(monitorCollection, ctx.account!.id, id);
    if (!m) throw notFound("monitor", id);
    return m;
  });
  return { monitors, scope: account ? "selection" : "monitor" };
}

function summaryRows(ctx: Ctx, req: OpRequest): SummaryRow[] {
  const { monitors, scope } = selection(ctx, req);
  const account = scope !== "monitor";
  const { from, to } = resolveWindow(
    req.query,
    ctx.now,
    account ? limits.accountSpan : Number.MAX_SAFE_INTEGER,
  );
  const bucket = req.query.bucket as Bucket | undefined;
  const cut = pieces(from, to, bucket);
  if (cut.length > limits.buckets)
    throw tooMany("/bucket", "too_many_buckets", "At most 1000 buckets per request.", {
      max: limits.buckets,
    });
  const cells = cut.length * (account ? 1 : monitors.length);
  if (cells > limits.cells)
    throw tooMany("/bucket", "too_many_cells", "At most 50000 monitor-by-bucket cells per request.", {
      max: limits.cells,
    });
  const pad = (t: number) => String(t).padStart(12, "0");
  if (account) return cut.map(([a, b]) => ({ key: `~:${pad(a)}`, monitors, scope, from: a, to: b }));
  return monitors.flatMap((m) =>
    cut.map(([a, b]) => ({ key: `${m.id}:${pad(a)}`, monitors: [m], scope, from: a, to: b })),
  );
}

function parseSla(req: OpRequest): number | undefined {
  const raw = req.query.sla as string | undefined;
  if (raw === undefined) return undefined;
  const sla = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(sla) || sla < 0 || sla > 100) {
    throw new ApiProblem("validation_failed", "sla is a percentage from 0 to 100.", {
      errors: [{ pointer: "/sla", parameter: "sla", value: raw, reason: "out_of_range" }],
    });
  }
  return sla;
}

/** One point per row at the bucket's midpoint: the mean, the 95th percentile and the sample count. */
function metricSeries(ctx: Ctx, row: SummaryRow, metrics: Metric[]) {
  const samples: Record<string, number[]> = Object.fromEntries(metrics.map((name) => [name, []]));
  for (const m of row.monitors) {
    for (const r of rowsOf<CheckResultDoc>(ctx, resultCollection, m.id)) {
      if (r.state !== "up" || r.time < row.from || r.time >= row.to) continue;
      for (const name of metrics) {
        samples[name]!.push(...Array<number>(r.checkCount).fill(r.metrics[name]));
      }
    }
  }
  const t = Math.floor((row.from + row.to) / 2);
  return Object.fromEntries(
    metrics.map((name) => {
      const values = samples[name]!.sort((a, b) => a - b);
      if (values.length === 0) return [name, []];
      const mean = Math.round(values.reduce((s, v) => s + v, 0) / values.length);
      const p95 = values[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)]!;
      return [name, [{ t, value: mean, p95, samples: values.length }]];
    }),
  );
}

function render(ctx: Ctx, row: SummaryRow, expand: ReadonlySet<string>, req: OpRequest) {
  const sla = parseSla(req);
  const parts = row.monitors.map((m) => measure(ctx, m, row.from, row.to, sla ?? m.slaTarget));
  const sum = (pick: (x: Measured) => number) => parts.reduce((s, x) => s + pick(x), 0);
  const upSec = sum((x) => x.upSec);
  const downSec = sum((x) => x.downSec);
  const maintenance = { upSec: sum((x) => x.maintenance.upSec), downSec: sum((x) => x.maintenance.downSec) };
  const totalSec = upSec + downSec;
  const measured = totalSec - maintenance.downSec;
  const uptimePercent = measured > 0 ? (upSec / measured) * 100 : null;
  const slaTarget = row.scope === "monitor" ? parts[0]!.slaTarget : (sla ?? null);
  const out: Record<string, unknown> = {};
  if (row.scope === "monitor") out.monitorId = row.monitors[0]!.id;
  Object.assign(out, {
    from: row.from,
    to: row.to,
    upSec,
    downSec,
    totalSec,
    maintenance,
    checks: {
      total: sum((x) => x.checks.total),
      up: sum((x) => x.checks.up),
      down: sum((x) => x.checks.down),
      maintenanceUp: sum((x) => x.checks.maintenanceUp),
      maintenanceDown: sum((x) => x.checks.maintenanceDown),
    },
    downSpans: sum((x) => x.downSpans),
    uptimePercent,
    slaTarget,
    slaMet: slaTarget !== null && uptimePercent !== null ? uptimePercent >= slaTarget : null,
    errorBudgetSecRemaining:
      slaTarget !== null && measured > 0
        ? Math.round((1 - slaTarget / 100) * measured - (downSec - maintenance.downSec))
        : null,
  });
  if (expand.has("incidentCounts"))
    out.incidents = { opened: sum((x) => x.incidents.opened), restored: sum((x) => x.incidents.restored) };
  const metrics = req.query.metrics as Metric[] | undefined;
  if (metrics) out.metrics = metricSeries(ctx, row, metrics);
  if (row.scope !== "monitor")
    Object.assign(out, { monitors: row.monitors.length, scope: row.scope, sampled: false });
  return out;
}

export const summaryOperations = listOperations<SummaryRow>({
  id: "monitor.result.summary",
  path: "/monitor/result/summary",
  summary:
    "Uptime summary rows per monitor and bucket (or the account roll-up), ordered by monitor id then bucket.",
  scope: "monitor:read",
  rowsOf: { title: "uptime summary rows", schema: uptimeSummaryRow },
  rows: summaryRows,
  rowId: (row) => row.key,
  expand: ["incidentCounts"],
  // Window rules are checked in `summaryRows`: the roll-up allows 30 days, per-monitor rows a bucket count.
  window: { maxSpan: Number.MAX_SAFE_INTEGER, defaultSpan: 30 * day },
  // Parameters that shape the rows rather than filter them: `summaryRows` and `render` read them.
  filters: {
    monitor: {
      param: {
        type: "string",
        list: true,
        description: "Monitor ids, up to 500; required unless groupBy=account.",
      },
      match: () => true,
    },
    groupBy: {
      param: { type: "enum", values: ["account"], description: "account: one roll-up row per bucket." },
      match: () => true,
    },
    bucket: {
      param: {
        type: "enum",
        values: summaryBuckets,
        description: "UTC-aligned buckets; weeks start Monday.",
      },
      match: () => true,
    },
    sla: { param: { type: "string", description: "Uptime percent to measure against." }, match: () => true },
    metrics: {
      param: { type: "enum", values: summaryMetrics, list: true, description: "Measurement series to add." },
      match: () => true,
    },
  },
  render,
  errors: ["not_found"],
});
