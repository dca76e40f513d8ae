import type { z } from "zod";
import {
  type componentStates,
  type manualStates,
  type statusPageIncidentStates,
  statusPageSchema,
  type statusPageTemplateSchema,
} from "../../../kinds/index.ts";
import type { Ctx } from "../../core/operation.ts";
import { notFound } from "../../core/problem.ts";
import type { Doc } from "../../core/store.ts";
import { type KindMembers, renderedValues } from "../../core/stored.ts";
import { activeWindowsFor } from "../maintenance/model.ts";
import type { MonitorDoc } from "../monitors/model.ts";

export type ManualState = (typeof manualStates)[number];
export type ComponentDoc = { id: string; name: string } & (
  | { monitorId: string }
  | { manualState: ManualState }
);

/**
 * A stored status page: the kind's members (which ones a write keeps is the kind's: `storedValues`), with
 * those the sandbox reads itself typed as stored. Its components live inside it (they are only ever written
 * as a whole set).
 */
export interface StatusPageDoc extends Doc, KindMembers<z.output<typeof statusPageSchema>> {
  slug: string;
  title: string;
  customDomain: string | null;
  components: ComponentDoc[];
  created: number;
  updated: number;
}

export interface TimelineEntry {
  id: string;
  message: string;
  state: IncidentState;
  at: number;
}

type IncidentState = (typeof statusPageIncidentStates)[number];

export interface PageIncidentDoc extends Doc {
  pageId: string;
  kind: "incident" | "maintenance";
  title: string;
  impact: "minor" | "major";
  componentIds: string[];
  state: IncidentState;
  postmortem: string | null;
  from: number | null;
  to: number | null;
  timeline: TimelineEntry[];
  created: number;
  updated: number;
}

/** A page's incident template: the kind's members as a write keeps them (`storedValues`). */
export interface TemplateDoc extends Doc, KindMembers<z.output<typeof statusPageTemplateSchema>> {
  pageId: string;
  created: number;
}

export interface SubscriberDoc extends Doc {
  pageId: string;
  kind: "slack" | "teams" | "webhook";
  url: string;
  created: number;
}

export const pageTable = "statusPage";
export const incidentTable = "statusPageIncident";
export const templateTable = "statusPageTemplate";
export const subscriberTable = "statusPageSubscriber";

export function requirePage(ctx: Ctx, id: string): StatusPageDoc {
  const page = ctx.store.owned<StatusPageDoc>(pageTable, ctx.account!.id, id);
  if (!page) throw notFound("status page", id);
  return page;
}

/** The children of one page in a table, oldest first. */
export function childrenOf<T extends Doc & { pageId: string; created: number }>(
  ctx: Ctx,
  table: string,
  pageId: string,
): T[] {
  return ctx.store
    .all<T>(table, ctx.account!.id)
    .filter((c) => c.pageId === pageId)
    .sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
}

export function requireChild<T extends Doc & { pageId: string }>(
  ctx: Ctx,
  table: string,
  what: string,
  pageId: string,
  id: string,
): T {
  const child = ctx.store.owned<T>(table, ctx.account!.id, id);
  if (!child || child.pageId !== pageId) throw notFound(what, id);
  return child;
}

/** What a component shows now: its manual state, or its monitor's live state mapped to the page's words. */
export function componentState(ctx: Ctx, c: ComponentDoc): (typeof componentStates)[number] {
  if ("manualState" in c) return c.manualState;
  const monitor = ctx.store.get<MonitorDoc>("monitor", c.monitorId);
  if (!monitor?.enabled) return "unknown";
  const windows = activeWindowsFor(ctx, monitor);
  // A window kept off status pages leaves the component showing operational while the work goes on.
  if (windows.length > 0) return windows.some((w) => w.showOnStatusPage) ? "maintenance" : "operational";
  return monitor.state === "down" ? "down" : "operational";
}

export const publicUrlOf = (ctx: Ctx, page: StatusPageDoc) => `${ctx.baseUrl}/status/${page.slug}`;

export function renderPage(ctx: Ctx, page: StatusPageDoc): Record<string, unknown> {
  return {
    id: page.id,
    ...renderedValues(statusPageSchema, page),
    publicUrl: publicUrlOf(ctx, page),
    components: page.components.map((c) => ({ ...c, state: componentState(ctx, c) })),
    created: page.created,
    updated: page.updated,
  };
}

/**
 * A deleted monitor's components stay on their pages as manual components,
 * keeping their id, name and place (incidents may name them), showing the last
 * state the monitor had: down when it was down, else operational. Answers the
 * ids of the pages changed.
 */
export function detachMonitorFromPages(ctx: Ctx, monitorId: string): string[] {
  const monitor = ctx.store.get<MonitorDoc>("monitor", monitorId);
  const manualState: ManualState = monitor?.state === "down" ? "down" : "operational";
  return ctx.store
    .all<StatusPageDoc>(pageTable, ctx.account!.id)
    .filter((p) => p.components.some((c) => "monitorId" in c && c.monitorId === monitorId))
    .map((page) => {
      const components = page.components.map((c) =>
        "monitorId" in c && c.monitorId === monitorId ? { id: c.id, name: c.name, manualState } : c,
      );
      ctx.store.put<StatusPageDoc>(pageTable, { ...page, components, updated: ctx.now });
      return page.id;
    });
}
