import { ApiError, type Operations } from "../../api/index.ts";
import { credentialPointers, kindNamed, parentOf, statusPageTemplateKind } from "../../kinds/index.ts";
import {
  type EngineKind,
  keyFrom,
  type ListedRows,
  type Row,
  readOnlyMembers,
  withoutMembers,
} from "./engine-kind.ts";

const definition = statusPageTemplateKind;
const readOnly = readOnlyMembers(definition);
const listRoute = `GET ${definition.paths.collection}`;

/** One page's templates, in pages of 500; a page deleted since it was listed has none. */
async function templatesOf(o: Operations, pageId: string): Promise<Row[]> {
  try {
    return (await o.statusPageTemplate.list(pageId).all({ limit: 500 })) as Row[];
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

/**
 * Every template of the account: there is no account-wide list, so each page's list is read. The pages come
 * from the refresh that already listed them whole, when it did.
 */
async function allTemplates(o: Operations, listed?: ListedRows): Promise<Row[]> {
  const parent = parentOf(definition)?.kind;
  const pages: readonly Row[] =
    (parent === undefined ? undefined : listed?.(kindNamed(parent))) ??
    (await o.statusPage.all({ limit: 500 }));
  return (await Promise.all(pages.map((p) => templatesOf(o, String(p.id))))).flat();
}

/**
 * Templates live under their page: listed per page (a refresh costs one read per page, besides the pages'
 * own list), created and deleted there, never patched. Every member the config sets is immutable, so the plan
 * replaces a changed template and never asks for an update; the page's delete takes them along.
 */
export const statusPageTemplateEngineKind: EngineKind<"statusPageTemplate"> = {
  name: "statusPageTemplate",
  definition,
  section: "statusPageTemplates",
  schemaFor: () => definition.schema,
  listAll: async (o, listed) => ({ rows: await allTemplates(o, listed) }),
  // The API reads templates only as lists: the row's page is read (every page's, when it is not known).
  async getOne(o, row) {
    const id = String(row.id);
    const rows = typeof row.pageId === "string" ? await templatesOf(o, row.pageId) : await allTemplates(o);
    const found = rows.find((t) => t.id === id);
    if (found) return found;
    // What a single read would have answered: the callers take a 404 to mean the object is gone.
    throw new ApiError({
      status: 404,
      body: { code: "not_found", detail: `No template ${id} is listed under its status page.` },
      headers: {},
      route: listRoute,
      attempts: 1,
    });
  },
  normalizeDesired: (members) => ({ ...members }),
  normalizeLive: (row) => withoutMembers(row, readOnly),
  credentials: (members) => credentialPointers(definition.schema, members),
  merging: [],
  sideMembers: [],
  naturalKey: (members) => keyFrom(definition.naturalKey.map((k) => members[k])),
  create: async (ctx, body) =>
    (await ctx.ops.statusPageTemplate.create(String(body.pageId), withoutMembers(body, ["pageId"]), {
      idempotencyKey: ctx.idempotencyKey,
    })) as Row,
  update() {
    throw new Error("A status page template has no update (the API has no PATCH): a change replaces it.");
  },
  async remove(ctx, live) {
    await ctx.ops.statusPageTemplate.delete(String(live.pageId), String(live.id), {
      idempotencyKey: ctx.idempotencyKey,
    });
    return {};
  },
};
