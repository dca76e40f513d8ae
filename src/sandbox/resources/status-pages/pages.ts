import { statusPageSchema } from "../../../kinds/index.ts";
import { newGuid } from "../../core/ids.ts";
import type { Ctx } from "../../core/operation.ts";
import { ApiProblem, invalid } from "../../core/problem.ts";
import type { Doc } from "../../core/store.ts";
import { storedValues } from "../../core/stored.ts";
import { accountOf, entitlements } from "../accounts.ts";
import {
  childrenOf,
  incidentTable,
  pageTable,
  type StatusPageDoc,
  subscriberTable,
  templateTable,
} from "./model.ts";

/** The members a page write sends; a create carries the kind's required ones. */
export type PageBody = Partial<
  Pick<StatusPageDoc, "slug" | "title" | "description" | "customDomain" | "theme">
>;
export type PageCreate = PageBody & Pick<StatusPageDoc, "slug" | "title">;

/**
 * Slugs and custom domains are public addresses, so they are unique across the
 * whole service; another account's page is never named (its id is not shown).
 */
function assertAddressFree(ctx: Ctx, member: "slug" | "customDomain", value: string | null, self?: string) {
  if (value === null) return;
  const wanted = value.toLowerCase();
  const taken = ctx.store
    .scan<StatusPageDoc>(pageTable)
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
  if (ctx.store.count(pageTable, ctx.account!.id) >= limit) {
    throw new ApiProblem("package_limit", `The plan allows ${limit} status pages.`, {
      extra: { feature: "statusPages", limit },
    });
  }
}

/** `POST /statuspage`: room on the plan, and a slug and custom domain nobody uses. */
export function createPage(ctx: Ctx, body: PageCreate): StatusPageDoc {
  assertRoom(ctx);
  // The kind's members as sent, else their defaults.
  const fields = storedValues(statusPageSchema, body, undefined) as Pick<
    StatusPageDoc,
    "slug" | "title" | "customDomain"
  >;
  assertAddressFree(ctx, "slug", fields.slug);
  assertAddressFree(ctx, "customDomain", fields.customDomain);
  return ctx.store.put<StatusPageDoc>(pageTable, {
    id: newGuid(),
    accountId: ctx.account!.id,
    ...fields,
    components: [],
    created: ctx.now,
    updated: ctx.now,
  });
}

/** `PATCH /statuspage/{id}`: the slug is permanent; `updated` moves only on a change. */
export function updatePage(ctx: Ctx, page: StatusPageDoc, body: PageBody): StatusPageDoc {
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
  if (JSON.stringify(next) === JSON.stringify(page)) return page;
  return ctx.store.put<StatusPageDoc>(pageTable, { ...next, updated: ctx.now });
}

/** Deletes a page with its components, incidents, subscribers and templates; the receipt names them. */
export function deletePage(ctx: Ctx, page: StatusPageDoc) {
  const removeAll = (table: string) =>
    childrenOf<Doc & { pageId: string; created: number }>(ctx, table, page.id).map((child) => {
      ctx.store.remove(table, child.id);
      return child.id;
    });
  const cascaded = {
    components: page.components.map((c) => c.id),
    incidents: removeAll(incidentTable),
    subscribers: removeAll(subscriberTable),
    templates: removeAll(templateTable),
  };
  ctx.store.remove(pageTable, page.id);
  return { id: page.id, deleted: true, slug: page.slug, title: page.title, cascaded };
}
