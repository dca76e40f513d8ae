import { z } from "zod";
import {
  type ProblemDetailEntry,
  statusPageComponent,
  statusPageComponentsBody,
  statusPageDeleteReceipt,
  statusPageKind,
} from "../../../kinds/index.ts";
import { crudOperations } from "../../core/crud.ts";
import { newGuid } from "../../core/ids.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { invalid } from "../../core/problem.ts";
import {
  type ComponentDoc,
  childrenOf,
  incidentTable,
  type ManualState,
  type PageIncidentDoc,
  pageTable,
  renderPage,
  requirePage,
  type StatusPageDoc,
} from "./model.ts";
import { createPage, deletePage, type PageBody, type PageCreate, updatePage } from "./pages.ts";

/** One member of a component set, as sent. */
type ComponentBody = { name: string } & ({ monitorId: string } | { manualState: ManualState });

/** Checks a component set against the account's monitors and itself, and gives each its GUID. */
function buildComponents(ctx: Ctx, page: StatusPageDoc, sent: ComponentBody[]): ComponentDoc[] {
  const entries: ProblemDetailEntry[] = [];
  const seen = new Map<string, number>();
  sent.forEach((c, i) => {
    const key = c.name.trim().toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      entries.push({
        pointer: `/components/${i}/name`,
        value: c.name,
        reason: "duplicate",
        message: `repeats /components/${first}`,
      });
    } else seen.set(key, i);
    if ("monitorId" in c && !ctx.store.owned("monitor", ctx.account!.id, c.monitorId)) {
      entries.push({
        pointer: `/components/${i}/monitorId`,
        value: c.monitorId,
        reason: "unknown_monitor",
        message: "no such monitor",
      });
    }
  });
  if (entries.length > 0) throw invalid(entries);
  // A component keeps its GUID while its name stays, so incidents naming it keep pointing at it.
  const byName = new Map(page.components.map((c) => [c.name.trim().toLowerCase(), c.id]));
  return sent.map((c) => {
    const id = byName.get(c.name.trim().toLowerCase()) ?? newGuid();
    return "monitorId" in c
      ? { id, name: c.name, monitorId: c.monitorId }
      : { id, name: c.name, manualState: c.manualState };
  });
}

export const pageOperations = defineOperations(
  ...listOperations<StatusPageDoc>({
    id: "statusPage.list",
    path: "/statuspage",
    kind: statusPageKind,
    summary: "List status pages.",
    scope: "statuspage:read",
    rows: (ctx) => ctx.store.all<StatusPageDoc>(pageTable, ctx.account!.id),
    rowId: (p) => p.id,
    sort: {
      default: "created",
      columns: {
        created: { key: (p) => p.created, time: true },
        title: { key: (p) => p.title.toLowerCase() },
        slug: { key: (p) => p.slug },
      },
    },
    render: (ctx, p) => renderPage(ctx, p),
  }),
  ...crudOperations<StatusPageDoc, PageCreate, PageBody>({
    kind: statusPageKind,
    id: "statusPage",
    scopes: { read: "statuspage:read", write: "statuspage:write" },
    load: requirePage,
    render: renderPage,
    get: { summary: "Read a status page with its components and their live states." },
    create: {
      summary: "Create a status page, public at once at its permanent slug (see publicUrl).",
      write: createPage,
    },
    update: {
      summary: "Change sent members; null clears description or customDomain. The slug is permanent.",
      write: updatePage,
    },
    delete: {
      summary: "Delete a status page with its components, incidents, subscribers and templates.",
      write: deletePage,
      receipt: { description: "The delete receipt.", schema: statusPageDeleteReceipt },
    },
  }),
  {
    id: "statusPage.setComponents",
    method: "PUT",
    path: "/statuspage/{id}/component",
    summary:
      "Replace the page's whole component set: each {name, monitorId} (live state) or {name, manualState}. A component keeps its GUID while its name stays; incidents drop components that left.",
    scope: "statuspage:write",
    body: statusPageComponentsBody,
    errors: ["not_found", "validation_failed"],
    response: {
      status: 200,
      description: "The components, with their states.",
      schema: z.object({ components: z.array(statusPageComponent) }),
    },
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const { components: sent } = req.body as { components: ComponentBody[] };
      const components = buildComponents(ctx, page, sent);
      const kept = new Set(components.map((c) => c.id));
      for (const incident of childrenOf<PageIncidentDoc>(ctx, incidentTable, page.id)) {
        const componentIds = incident.componentIds.filter((id) => kept.has(id));
        if (componentIds.length !== incident.componentIds.length) {
          ctx.store.put<PageIncidentDoc>(incidentTable, { ...incident, componentIds, updated: ctx.now });
        }
      }
      const saved =
        JSON.stringify(components) === JSON.stringify(page.components)
          ? page
          : ctx.store.put<StatusPageDoc>(pageTable, { ...page, components, updated: ctx.now });
      return { status: 200, body: { components: renderPage(ctx, saved).components } };
    },
  },
);
