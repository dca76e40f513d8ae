import type { z } from "zod";
import {
  checkResultSchema,
  incidentCommentBody,
  incidentSchema,
  stateSpanSchema,
} from "../../../kinds/checks.ts";
import { type Filter, type ListSpec, listOperations, parseExpand, resolveWindow } from "../../core/list.ts";
import { type Ctx, defineOperations, type OpRequest } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import { accountOf, entitlements } from "../accounts.ts";
import { ownedMonitor } from "../monitors/model.ts";
import {
  type CheckResultDoc,
  type HistoryDoc,
  type IncidentDoc,
  incidentCollection,
  resultCollection,
  rowsOf,
  type StateSpanDoc,
  spanCollection,
} from "./history.ts";
import {
  monitorExists,
  renderIncident,
  renderResult,
  renderSpan,
  requireIncident,
  requireResult,
} from "./render.ts";
import { overlapsWindow } from "./stats.ts";
import { summaryOperations } from "./summary.ts";

/** Read routes of check history: incidents, spans, results (docs/sandbox-checks.md). */

const day = 86400;
const thirtyDays = 30 * day;
/** Incident and span lists have no width cap. */
const uncapped = { maxSpan: Number.MAX_SAFE_INTEGER, defaultSpan: thirtyDays };

const monitorFilter = <Row extends { monitorId: string }>(): Filter<Row> => ({
  param: { type: "string", list: true, description: "Any of these monitor ids." },
  match: (row, ids: string[]) => ids.includes(row.monitorId),
});

/** `time` (newest first by default) and `monitor` (by monitor id, newest first within one monitor). */
const sortBy = <Row>(time: (row: Row) => number, monitorId: (row: Row) => string) => ({
  columns: {
    time: { key: time, time: true },
    monitor: { key: (row: Row) => `${monitorId(row)}:${String(1e12 - time(row)).padStart(13, "0")}` },
  },
  default: "time",
});

/** The account's rows of a collection whose monitor still exists. */
const reachable = <T extends HistoryDoc>(ctx: Ctx, collection: string) =>
  ctx.store.all<T>(collection, ctx.account!.id).filter((r) => monitorExists(ctx, r.monitorId));

function incidentList(
  spec: Pick<ListSpec<IncidentDoc>, "id" | "path" | "summary" | "rows" | "filters" | "errors">,
) {
  return listOperations<IncidentDoc>({
    ...spec,
    scope: "monitor:read",
    rowsOf: { title: "incidents", schema: incidentSchema },
    rowId: (i) => i.id,
    sort: sortBy<IncidentDoc>(
      (i) => i.start,
      (i) => i.monitorId,
    ),
    expand: ["count", "recheck"],
    // An open incident goes on: it overlaps every window reaching now.
    window: {
      ...uncapped,
      filter: (i, from, to) => overlapsWindow(i.start, i.state === "open" ? null : i.end, from, to),
    },
    render: (_ctx, i, expand) => renderIncident(i, expand),
  });
}

const resultWindow = (r: CheckResultDoc, from: number, to: number) =>
  overlapsWindow(r.time, r.lastTime, from, to);

function resultList(
  spec: Pick<ListSpec<CheckResultDoc>, "id" | "path" | "summary" | "rows" | "filters" | "errors" | "window">,
) {
  return listOperations<CheckResultDoc>({
    window: { maxSpan: thirtyDays, defaultSpan: thirtyDays, filter: resultWindow },
    ...spec,
    scope: "monitor:read",
    rowsOf: { title: "check results", schema: checkResultSchema },
    rowId: (r) => r.id,
    sort: sortBy<CheckResultDoc>(
      (r) => r.time,
      (r) => r.monitorId,
    ),
    expand: ["count", "metrics", "recheck"],
    render: (_ctx, r, expand) => renderResult(r, expand),
  });
}

/** Failing checks of an incident are a plan feature. */
function assertIncidentChecks(ctx: Ctx) {
  if (!entitlements(accountOf(ctx)).incidentChecks) {
    throw new ApiProblem("package_limit", "The plan does not list the failing checks of an incident.", {
      extra: { feature: "incidentChecks" },
    });
  }
}

export const checkOperations = defineOperations(
  ...incidentList({
    id: "monitor.incident.list",
    path: "/monitor/incident",
    summary: "Incidents of the account overlapping the window, newest first; not clipped.",
    rows: (ctx) => reachable<IncidentDoc>(ctx, incidentCollection),
    filters: { monitor: monitorFilter<IncidentDoc>() },
  }),
  ...incidentList({
    id: "monitor.incident.listOfMonitor",
    path: "/monitor/{id}/incident",
    summary: "Incidents of one monitor overlapping the window, newest first; not clipped.",
    rows: (ctx, req) => rowsOf<IncidentDoc>(ctx, incidentCollection, ownedMonitor(ctx, req.params.id!).id),
    errors: ["not_found"],
  }),
  {
    id: "monitor.incident.get",
    method: "GET",
    path: "/monitor/incident/{id}",
    summary: "Read one incident; expand=recheck adds its opening and closing transitions.",
    scope: "monitor:read",
    query: { expand: { type: "string", list: true, description: "Blocks: recheck." } },
    errors: ["not_found", "unknown_expand", "unknown_parameter"],
    response: { status: 200, description: "The incident.", schema: incidentSchema },
    handle: (ctx, req) => ({
      status: 200,
      body: renderIncident(requireIncident(ctx, req.params.id!), parseExpand(req, ["recheck"], [])),
    }),
  },
  ...listOperations<CheckResultDoc>({
    id: "monitor.incident.checks",
    path: "/monitor/incident/{id}/check",
    summary: "The failing checks of an incident, newest first. Plan feature incidentChecks.",
    scope: "monitor:read",
    rowsOf: { title: "check results", schema: checkResultSchema },
    rows: (ctx, req) => {
      const incident = requireIncident(ctx, req.params.id!);
      assertIncidentChecks(ctx);
      return rowsOf<CheckResultDoc>(ctx, resultCollection, incident.monitorId).filter(
        (r) => r.incidentId === incident.id && r.state === "down",
      );
    },
    rowId: (r) => r.id,
    sort: { columns: { time: { key: (r) => r.time, time: true } }, default: "time" },
    expand: ["count", "metrics", "recheck"],
    render: (_ctx, r, expand) => renderResult(r, expand),
    errors: ["not_found", "package_limit"],
  }),
  {
    id: "monitor.incident.comment",
    method: "POST",
    path: "/monitor/incident/{id}/comment",
    summary: "Set the incident's comment; it replaces the previous one (null clears).",
    scope: "monitor:write",
    body: incidentCommentBody,
    errors: ["not_found", "validation_failed"],
    response: { status: 200, description: "The incident with its new comment.", schema: incidentSchema },
    handle: (ctx, req) => {
      const incident = requireIncident(ctx, req.params.id!);
      const { comment } = req.body as z.infer<typeof incidentCommentBody>;
      const stored = ctx.store.put<IncidentDoc>(incidentCollection, { ...incident, comment });
      return { status: 200, body: renderIncident(stored, new Set()) };
    },
  },
  ...listOperations<StateSpanDoc>({
    id: "monitor.span.list",
    path: "/monitor/{id}/span",
    summary:
      "Up and down spans of a monitor overlapping the window, newest first; down spans name their incident.",
    scope: "monitor:read",
    rowsOf: { title: "state spans", schema: stateSpanSchema },
    rows: (ctx, req) => rowsOf<StateSpanDoc>(ctx, spanCollection, ownedMonitor(ctx, req.params.id!).id),
    rowId: (s) => s.id,
    sort: { columns: { time: { key: (s) => s.from, time: true } }, default: "time" },
    expand: ["count"],
    window: { ...uncapped, filter: (s, from, to) => overlapsWindow(s.from, s.to, from, to) },
    render: (ctx, s) => renderSpan(ctx, s),
    errors: ["not_found"],
  }),
  ...resultList({
    id: "monitor.result.listOfMonitor",
    path: "/monitor/{id}/result",
    summary: "Check results of one monitor, newest first; 30 days at most per request.",
    rows: (ctx, req) => rowsOf<CheckResultDoc>(ctx, resultCollection, ownedMonitor(ctx, req.params.id!).id),
    errors: ["not_found"],
  }),
  ...resultList({
    id: "monitor.result.list",
    path: "/monitor/result",
    summary:
      "Check results of the account, newest first. With monitor: 30 days at most; without: 24 hours at most, by default the last 24 hours.",
    rows: (ctx: Ctx, req: OpRequest) => {
      const rows = reachable<CheckResultDoc>(ctx, resultCollection);
      if (req.query.monitor !== undefined) return rows;
      const { from, to } = resolveWindow(req.query, ctx.now, day, day);
      return rows.filter((r) => resultWindow(r, from, to));
    },
    filters: { monitor: monitorFilter<CheckResultDoc>() },
  }),
  {
    id: "monitor.result.get",
    method: "GET",
    path: "/monitor/{id}/result/{resultId}",
    summary: "Read one check result with its measurements and confirming locations.",
    scope: "monitor:read",
    query: {
      expand: { type: "string", list: true, description: "Blocks: metrics, recheck (both by default)." },
    },
    errors: ["not_found", "unknown_expand", "unknown_parameter"],
    response: { status: 200, description: "The check result.", schema: checkResultSchema },
    handle: (ctx, req) => {
      const monitor = ownedMonitor(ctx, req.params.id!);
      const result = requireResult(ctx, monitor.id, req.params.resultId!);
      const expand = parseExpand(req, ["metrics", "recheck"], ["metrics", "recheck"]);
      return { status: 200, body: renderResult(result, expand) };
    },
  },
  {
    id: "monitor.result.snapshot",
    method: "GET",
    path: "/monitor/{id}/result/{resultId}/snapshot",
    summary: "Read the page snapshot of a check result, when the check took one.",
    scope: "monitor:read",
    errors: ["not_found"],
    response: { status: 200, description: "The page snapshot." },
    handle: (ctx, req) => {
      const monitor = ownedMonitor(ctx, req.params.id!);
      const result = requireResult(ctx, monitor.id, req.params.resultId!);
      // Snapshots are optional per result; a simulated check never takes one.
      throw new ApiProblem("not_found", `Result ${result.id} has no page snapshot.`, {
        errors: [{ pointer: "/resultId", value: result.id, reason: "no_snapshot" }],
      });
    },
  },
  ...summaryOperations,
);
