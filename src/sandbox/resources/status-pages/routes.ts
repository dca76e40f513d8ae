import { z } from "zod";
import {
  bodySchema,
  defaultsOf,
  type ProblemDetailEntry,
  statusPageComponent,
  statusPageComponentsBody,
  statusPageDeleteReceipt,
  statusPageKind,
  statusPageSchema,
} from "../../../kinds/index.ts";
import { newGuid } from "../../core/ids.ts";
import { listOperations } from "../../core/list.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import type { Doc } from "../../core/store.ts";
import { accountOf, entitlements } from "../accounts.ts";
import {
  type ComponentDoc,
  childrenOf,
  incidentCollection,
  type ManualState,
  type PageIncidentDoc,
  pageCollection,
  renderPage,
  requirePage,
  type StatusPageDoc,
  subscriberCollection,
  templateCollection,
} from "./model.ts";

const createBody = bodySchema(statusPageSchema, "create").required({ slug: true, title: true });
const updateBody = bodySchema(statusPageSchema, "update");
type PageBody = Partial<Pick<StatusPageDoc, "slug" | "title" | "description" | "customDomain" | "theme">>;

/** One member of a component set, as sent. */
type ComponentBody = { name: string } & ({ monitorId: string } | { manualState: ManualState });

/** Server defaults of a create, as the kind declares them. */
const defaults = defaultsOf(statusPageSchema) as Pick<
  StatusPageDoc,
  "description" | "customDomain" | "theme"
>;

/**
 * Slugs and custom domains are public addresses, so they are unique across the
 * whole service; another account's page is never named (its id is not shown).
 */
function assertAddressFree(ctx: Ctx, member: "slug" | "customDomain", value: string | null, self?: string) {
  if (value === null) return;
  const wanted = value.toLowerCase();
  const taken = ctx.store
    .scan<StatusPageDoc>(pageCollection)
    .find((p) => p.id !== self && (p[member] ?? "").toLowerCase() === wanted);
  if (!taken) return;
  const own = taken.accountId === ctx.account!.id;
  throw new ApiProblem("duplicate_resource", `A status page already uses the ${member} "${value}".`, {
    errors: [{ pointer: `/${member}`, value, reason: "duplicate", ...(own && { existingId: taken.id }) }],
    extra: own ? { existingId: taken.id } : {},
  });
}

function assertRoom(ctx: Ctx) {
  const limit = entitlements(accountOf(ctx)).statusPages;
  if (ctx.store.count(pageCollection, ctx.account!.id) >= limit) {
    throw new ApiProblem("package_limit", `The plan allows ${limit} status pages.`, {
      extra: { feature: "statusPages", limit },
    });
  }
}

const pageResponse = { status: 200, description: "The status page.", schema: statusPageSchema };

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
    rows: (ctx) => ctx.store.all<StatusPageDoc>(pageCollection, ctx.account!.id),
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
  {
    id: "statusPage.create",
    method: "POST",
    path: "/statuspage",
    summary: "Create a status page, public at once at its permanent slug (see publicUrl).",
    scope: "statuspage:write",
    body: createBody,
    errors: ["validation_failed", "duplicate_resource", "package_limit"],
    response: { ...pageResponse, status: 201 },
    handle: (ctx, req) => {
      const body = req.body as PageBody & Pick<StatusPageDoc, "slug" | "title">;
      assertRoom(ctx);
      const fields = { ...defaults, ...body };
      assertAddressFree(ctx, "slug", fields.slug);
      assertAddressFree(ctx, "customDomain", fields.customDomain);
      const page = ctx.store.put<StatusPageDoc>(pageCollection, {
        id: newGuid(),
        accountId: ctx.account!.id,
        ...fields,
        components: [],
        created: ctx.now,
        updated: ctx.now,
      });
      return { status: 201, headers: { Location: `/statuspage/${page.id}` }, body: renderPage(ctx, page) };
    },
  },
  {
    id: "statusPage.get",
    method: "GET",
    path: "/statuspage/{id}",
    summary: "Read a status page with its components and their live states.",
    scope: "statuspage:read",
    errors: ["not_found"],
    response: pageResponse,
    handle: (ctx, req) => ({ status: 200, body: renderPage(ctx, requirePage(ctx, req.params.id!)) }),
  },
  {
    id: "statusPage.update",
    method: "PATCH",
    path: "/statuspage/{id}",
    summary: "Change sent members; null clears description or customDomain. The slug is permanent.",
    scope: "statuspage:write",
    body: updateBody,
    errors: ["not_found", "validation_failed", "duplicate_resource"],
    response: pageResponse,
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const body = req.body as PageBody;
      if (body.slug !== undefined && body.slug !== page.slug) {
        throw invalid([
          {
            pointer: "/slug",
            value: body.slug,
            reason: "immutable",
            allowed: [page.slug],
            message: "the slug is permanent",
          },
        ]);
      }
      const next = { ...page, ...body };
      if (body.customDomain !== undefined) assertAddressFree(ctx, "customDomain", next.customDomain, page.id);
      if (JSON.stringify(next) === JSON.stringify(page)) return { status: 200, body: renderPage(ctx, page) };
      const saved = ctx.store.put<StatusPageDoc>(pageCollection, { ...next, updated: ctx.now });
      return { status: 200, body: renderPage(ctx, saved) };
    },
  },
  {
    id: "statusPage.delete",
    method: "DELETE",
    path: "/statuspage/{id}",
    summary: "Delete a status page with its components, incidents, subscribers and templates.",
    scope: "statuspage:write",
    errors: ["not_found"],
    response: { status: 200, description: "The delete receipt.", schema: statusPageDeleteReceipt },
    handle: (ctx, req) => {
      const page = requirePage(ctx, req.params.id!);
      const removeAll = (collection: string) =>
        childrenOf<Doc & { pageId: string; created: number }>(ctx, collection, page.id).map((child) => {
          ctx.store.remove(collection, child.id);
          return child.id;
        });
      const cascaded = {
        components: page.components.map((c) => c.id),
        incidents: removeAll(incidentCollection),
        subscribers: removeAll(subscriberCollection),
        templates: removeAll(templateCollection),
      };
      ctx.store.remove(pageCollection, page.id);
      return {
        status: 200,
        body: { id: page.id, deleted: true, slug: page.slug, title: page.title, cascaded },
      };
    },
  },
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
      for (const incident of childrenOf<PageIncidentDoc>(ctx, incidentCollection, page.id)) {
        const componentIds = incident.componentIds.filter((id) => kept.has(id));
        if (componentIds.length !== incident.componentIds.length) {
          ctx.store.put<PageIncidentDoc>(incidentCollection, { ...incident, componentIds, updated: ctx.now });
        }
      }
      const saved =
        JSON.stringify(components) === JSON.stringify(page.components)
          ? page
          : ctx.store.put<StatusPageDoc>(pageCollection, { ...page, components, updated: ctx.now });
      return { status: 200, body: { components: renderPage(ctx, saved).components } };
    },
  },
);
