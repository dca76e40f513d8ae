import { severityOf } from "../../../kinds/checks.ts";
import type { Ctx } from "../../core/operation.ts";
import { notFound } from "../../core/problem.ts";
import { type MonitorDoc, monitorCollection } from "../monitors/model.ts";
import {
  type CheckResultDoc,
  type IncidentDoc,
  incidentCollection,
  resultCollection,
  type StateSpanDoc,
} from "./history.ts";

/** A history row is reachable only while its monitor exists in the caller's account. */
export function monitorExists(ctx: Ctx, monitorId: string): boolean {
  return ctx.store.owned<MonitorDoc>(monitorCollection, ctx.account!.id, monitorId) !== undefined;
}

export function requireIncident(ctx: Ctx, id: string): IncidentDoc {
  const incident = ctx.store.owned<IncidentDoc>(incidentCollection, ctx.account!.id, id);
  if (!incident || !monitorExists(ctx, incident.monitorId)) throw notFound("incident", id);
  return incident;
}

export function requireResult(ctx: Ctx, monitorId: string, id: string): CheckResultDoc {
  const result = ctx.store.owned<CheckResultDoc>(resultCollection, ctx.account!.id, id);
  if (!result || result.monitorId !== monitorId || !monitorExists(ctx, monitorId))
    throw notFound("result", id);
  return result;
}

export function renderIncident(i: IncidentDoc, expand: ReadonlySet<string>): Record<string, unknown> {
  const durationSec = i.end - i.start;
  const out: Record<string, unknown> = {
    id: i.id,
    monitorId: i.monitorId,
    start: i.start,
    end: i.end,
    durationSec,
    state: i.state,
    severity: severityOf(durationSec),
    cause: i.cause,
    underMaintenance: i.underMaintenance,
    comment: i.comment,
    checkCount: i.checkCount,
  };
  if (expand.has("recheck")) out.recheck = { opening: i.opening, closing: i.closing };
  return out;
}

export function renderResult(r: CheckResultDoc, expand: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: r.id,
    monitorId: r.monitorId,
    time: r.time,
    lastTime: r.lastTime,
    state: r.state,
    location: r.location,
    durationMs: r.durationMs,
    error: r.error,
    checkCount: r.checkCount,
    incidentId: r.incidentId,
  };
  if (expand.has("metrics")) out.metrics = r.metrics;
  if (expand.has("recheck")) out.recheck = r.recheck;
  return out;
}

export function renderSpan(ctx: Ctx, s: StateSpanDoc): Record<string, unknown> {
  return {
    id: s.id,
    monitorId: s.monitorId,
    state: s.state,
    from: s.from,
    to: s.to,
    durationSec: (s.to ?? ctx.now) - s.from,
    incidentId: s.incidentId,
  };
}
