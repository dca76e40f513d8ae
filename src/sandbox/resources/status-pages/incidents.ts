import { z } from "zod";
import {
  defaultsOf,
  type ProblemDetailEntry,
  pageOf,
  statusPageIncidentCreateBody,
  statusPageIncidentPatchBody,
  statusPageIncidentSchema,
  statusPageIncidentStates,
  statusPageTimelineBody,
} from "../../../kinds/index.ts";
import { newGuid } from "../../core/ids.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { invalid } from "../../core/problem.ts";
import { sendMessage } from "../outbox.ts";
import {
  childrenOf,
  incidentTable,
  type PageIncidentDoc,
  publicUrlOf,
  requireChild,
  requirePage,
  type StatusPageDoc,
  type SubscriberDoc,
  subscriberTable,
  type TimelineEntry,
} from "./model.ts";

type IncidentFields = Pick<
  PageIncidentDoc,
  "kind" | "title" | "impact" | "componentIds" | "state" | "postmortem" | "from" | "to"
>;
type CreateBody = Partial<IncidentFields> & { title: string; message: string };
type PatchBody = Partial<Omit<IncidentFields, "state">>;

/** Server defaults of a create, as the kind declares them. */
const defaults = defaultsOf(statusPageIncidentSchema) as Pick<
  PageIncidentDoc,
  "kind" | "impact" | "componentIds" | "state" | "postmortem"
>;

export function renderIncident(i: PageIncidentDoc): Record<string, unknown> {
  const { accountId: _, ...incident } = i;
  return incident;
}

const requireIncident = (ctx: Ctx, pageId: string, id: string) =>
  requireChild<PageIncidentDoc>(ctx, incidentTable, "status page incident", pageId, id);

/**
 * Checks what the body schema cannot: components belong to the page, and the
 * window is given exactly for the maintenance kind and ends after it starts.
 */
function assertIncident(
  page: StatusPageDoc,
  i: Pick<PageIncidentDoc, "kind" | "componentIds" | "from" | "to">,
  sent: { componentIds?: string[]; from?: number | null; to?: number | null },
) {
  const entries: ProblemDetailEntry[] = [];
  const own = new Set(page.components.map((c) => c.id));
  (sent.componentIds ?? []).forEach((id, n) => {
    if (!own.has(id)) {
      entries.push({
        pointer: `/componentIds/${n}`,
        value: id,
        reason: "unknown_component",
        allowed: [...own],
        message: "not a component of this page",
      });
    }
  });
  if (i.kind === "maintenance") {
    for (const member of ["from", "to"] as const) {
      if (i[member] === null) {
        entries.push({
          pointer: `/${member}`,
          reason: "required",
          message: "a maintenance needs its window",
        });
      }
    }
    if (i.from !== null && i.to !== null && i.to <= i.from) {
      entries.push({ pointer: "/to", value: i.to, reason: "not_after_from", message: "must be after from" });
    }
  } else {
    for (const member of ["from", "to"] as const) {
      if (i[member] !== null) {
        entries.push({
          pointer: `/${member}`,
          value: i[member],
          reason: "maintenance_only",
          message: "only a maintenance has a window",
        });
      }
    }
  }
  if (entries.length > 0) throw invalid(entries);
}

/** Records one outbox message per subscriber of the page: what a Slack, Teams or webhook post would carry. */
function notifySubscribers(ctx: Ctx, page: StatusPageDoc, incident: PageIncidentDoc, entry: TimelineEntry) {
  const event = incident.timeline.length === 1 ? "declared" : "updated";
  for (const subscriber of childrenOf<SubscriberDoc>(ctx, subscriberTable, page.id)) {
    sendMessage(ctx, {
      kind: "statusPageIncident",
      channel: subscriber.kind,
      to: subscriber.url,
      pageId: page.id,
      subscriberId: subscriber.id,
      incidentId: incident.id,
      event,
      title: incident.title,
      impact: incident.impact,
      state: entry.state,
      message: entry.message,
      publicUrl: publicUrlOf(ctx, page),
    });
  }
}

const incidentResponse = {
  status: 200,
  description: "The incident with its timeline.",
  schema: statusPageIncidentSchema,
};

export const incidentOperations = defineOperations(
  ...listOperations<PageIncidentDoc>({
    id: "statusPage.incident.list",
    path: "/statuspage/{id}/incident",
    summary: "List a page's incidents and maintenances, newest first.",
    scope: "statuspage:read",
    rows: (ctx, req) => childrenOf<PageIncidentDoc>(ctx, incidentTable, requirePage(ctx, req.params.id!).id),
    rowId: (i) => i.id,
    filters: {
      state: {
        param: { type: "enum", values: statusPageIncidentStates, list: true },
        match: (i, states: string[]) => states.includes(i.state),
      },
      kind: {
        param: { type: "enum", values: ["incident", "maintenance"], list: true },
        match: (i, kinds: string[]) => kinds.includes(i.kind),
      },
    },
    sort: {
      default: "created",
      columns: {
        created: { key: (i) => i.created, time: true },
        updated: { key: (i) => i.updated, time: true },
      },
    },
    render: (_ctx, i) => renderIncident(i),
    errors: ["not_found"],
  }).map((op) => ({
    ...op,
    response: {
      status: 200,
      description: "One page of incidents.",
      schema: pageOf(statusPageIncidentSchema),
    },
  })),
  {
    id: "statusPage.incident.create",
    method: "POST",
    path: "/statuspage/{id}/incident",
    summary:
      "Declare an incident (or a maintenance, with from and to); its message is the first timeline entry. Notifies every subscriber. Requires an Idempotency-Key.",
    scope: "statuspage:write",
    idempotency: "required",
    body: statusPageIncidentCreateBody,
    errors: ["not_found", "validation_failed", "idempotency_key_required"],
    response: { ...incidentResponse, status: 201 },
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const body = req.body as CreateBody;
      const { message, ...rest } = body;
      const fields = {
        ...defaults,
        from: null,
        to: null,
        ...rest,
        componentIds: [...new Set(body.componentIds ?? defaults.componentIds)],
      };
      assertIncident(page, fields, body);
      const entry: TimelineEntry = { id: newGuid(), message, state: fields.state, at: ctx.now };
      const incident = ctx.store.put<PageIncidentDoc>(incidentTable, {
        id: newGuid(),
        accountId: ctx.account!.id,
        pageId: page.id,
        ...fields,
        timeline: [entry],
        created: ctx.now,
        updated: ctx.now,
      });
      notifySubscribers(ctx, page, incident, entry);
      return {
        status: 201,
        headers: { Location: `/statuspage/${page.id}/incident/${incident.id}` },
        body: renderIncident(incident),
      };
    },
  },
  {
    id: "statusPage.incident.get",
    method: "GET",
    path: "/statuspage/{id}/incident/{incidentId}",
    summary: "Read an incident with its timeline.",
    scope: "statuspage:read",
    errors: ["not_found"],
    response: incidentResponse,
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      return { status: 200, body: renderIncident(requireIncident(ctx, page.id, req.params.incidentId!)) };
    },
  },
  {
    id: "statusPage.incident.update",
    method: "PATCH",
    path: "/statuspage/{id}/incident/{incidentId}",
    summary:
      "Change title, impact, components, postmortem or the maintenance window. The state moves only through timeline posts; the kind is permanent.",
    scope: "statuspage:write",
    body: statusPageIncidentPatchBody,
    errors: ["not_found", "validation_failed"],
    response: incidentResponse,
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const incident = requireIncident(ctx, page.id, req.params.incidentId!);
      const body = req.body as PatchBody;
      if (body.kind !== undefined && body.kind !== incident.kind) {
        throw invalid([
          {
            pointer: "/kind",
            value: body.kind,
            reason: "immutable",
            allowed: [incident.kind],
            message: "the kind is permanent",
          },
        ]);
      }
      const next: PageIncidentDoc = {
        ...incident,
        ...body,
        componentIds: body.componentIds ? [...new Set(body.componentIds)] : incident.componentIds,
      };
      assertIncident(page, next, body);
      if (JSON.stringify(next) === JSON.stringify(incident))
        return { status: 200, body: renderIncident(incident) };
      const saved = ctx.store.put<PageIncidentDoc>(incidentTable, { ...next, updated: ctx.now });
      return { status: 200, body: renderIncident(saved) };
    },
  },
  {
    id: "statusPage.incident.delete",
    method: "DELETE",
    path: "/statuspage/{id}/incident/{incidentId}",
    summary: "Delete an incident with its timeline.",
    scope: "statuspage:write",
    errors: ["not_found"],
    response: {
      status: 200,
      description: "The delete receipt.",
      schema: z.looseObject({
        id: z.string(),
        deleted: z.literal(true),
        pageId: z.string(),
        timelineEntries: z.number().int(),
      }),
    },
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const incident = requireIncident(ctx, page.id, req.params.incidentId!);
      ctx.store.remove(incidentTable, incident.id);
      return {
        status: 200,
        body: { id: incident.id, deleted: true, pageId: page.id, timelineEntries: incident.timeline.length },
      };
    },
  },
  {
    id: "statusPage.incident.timeline.post",
    method: "POST",
    path: "/statuspage/{id}/incident/{incidentId}/timeline",
    summary:
      "Append a timeline entry {message, state}: the incident moves to that state (any order; a resolved incident may reopen). Entries cannot be edited. Notifies every subscriber. Requires an Idempotency-Key.",
    scope: "statuspage:write",
    idempotency: "required",
    body: statusPageTimelineBody,
    errors: ["not_found", "validation_failed", "idempotency_key_required"],
    response: { ...incidentResponse, status: 201, description: "The incident, with the new entry last." },
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const incident = requireIncident(ctx, page.id, req.params.incidentId!);
      const { message, state } = req.body as Pick<TimelineEntry, "message" | "state">;
      const entry: TimelineEntry = { id: newGuid(), message, state, at: ctx.now };
      const saved = ctx.store.put<PageIncidentDoc>(incidentTable, {
        ...incident,
        state,
        timeline: [...incident.timeline, entry],
        updated: ctx.now,
      });
      notifySubscribers(ctx, page, saved, entry);
      return {
        status: 201,
        headers: { Location: `/statuspage/${page.id}/incident/${incident.id}` },
        body: renderIncident(saved),
      };
    },
  },
);
