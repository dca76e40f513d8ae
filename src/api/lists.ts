import type { Caller, QueryValue, QuotaClass } from "./types.ts";

/** The parameters every paged list takes, plus its own filters (`type`, `tag`, `state`...). */
export interface ListParams {
  /** Page size, 1-500; the default is the largest, since every page spends one call of the quota. */
  limit?: number;
  sort?: string;
  expand?: readonly string[];
  fields?: readonly string[];
  /** A `syncCursor` from an earlier page: only rows changed since then (delta-sync lists). */
  updatedSince?: string;
  /** List filters: a value, or an array for any-of filters. */
  filters?: Record<string, QueryValue>;
}

export interface ListRequest extends ListParams {
  /** The concrete collection path, e.g. `/monitor` or `/statuspage/abc/incident`. */
  path: string;
  /** The path template, e.g. `/statuspage/{id}/incident`, for the `route` metrics count by; defaults to `path`. */
  template?: string;
  /** `read` for account lists, `anonymous` for catalogues, `checkRead` for the check pool. */
  quotaClass?: QuotaClass;
  /**
   * `POST <path>/q` (parameters as a JSON body) instead of `GET <path>?...`:
   * `auto` (the default) switches when the query string would pass `longQueryLength`.
   */
  queryRoute?: boolean | "auto";
  cursor?: string;
  signal?: AbortSignal;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
  count?: { total: number; matched: number };
  /** Delta-sync lists: send as `updatedSince` to read only what changed after this page was read. */
  syncCursor?: string;
}

/** Past this many characters a query string risks proxies' URL limits; the `/q` twin takes the same parameters. */
export const longQueryLength = 2000;
export const maxPageSize = 500;

/** The parameters as the API names them, arrays kept (the transport writes them as comma lists, `/q` as JSON arrays). */
function parametersOf(req: ListRequest): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {
    ...req.filters,
    limit: req.limit ?? maxPageSize,
    sort: req.sort,
    expand: req.expand,
    fields: req.fields,
    updatedSince: req.updatedSince,
    cursor: req.cursor,
  };
  for (const [k, v] of Object.entries(out)) if (v === undefined) delete out[k];
  return out;
}

/** The length of `?a=b&...` as a GET would send it. */
export function queryStringLength(params: Record<string, QueryValue>): number {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined) search.append(k, Array.isArray(v) ? v.join(",") : String(v));
  }
  return search.toString().length + 1;
}

function wantsQueryRoute(req: ListRequest, params: Record<string, QueryValue>): boolean {
  if (req.queryRoute === true || req.queryRoute === false) return req.queryRoute;
  return queryStringLength(params) > longQueryLength;
}

/** One page of a list. */
export async function listPage<T>(caller: Caller, req: ListRequest): Promise<Page<T>> {
  const params = parametersOf(req);
  const template = req.template ?? req.path;
  const quotaClass = req.quotaClass ?? "read";
  // The /q twin is a read: it spends the list's own class, not a write.
  const res = wantsQueryRoute(req, params)
    ? await caller.call<Page<T>>({
        method: "POST",
        path: `${req.path}/q`,
        route: `POST ${template}/q`,
        quotaClass,
        body: params,
        signal: req.signal,
      })
    : await caller.call<Page<T>>({
        method: "GET",
        path: req.path,
        route: `GET ${template}`,
        quotaClass,
        query: params,
        signal: req.signal,
      });
  return res.body;
}

/** Every page of a list, following `nextCursor`; the route (GET or `/q`) is chosen once, for the first page. */
export async function* listPages<T>(caller: Caller, req: ListRequest): AsyncGenerator<Page<T>> {
  const queryRoute = wantsQueryRoute(req, parametersOf(req));
  let cursor = req.cursor;
  for (;;) {
    const page = await listPage<T>(caller, { ...req, queryRoute, cursor });
    yield page;
    if (!page.hasMore || !page.nextCursor) return;
    cursor = page.nextCursor;
  }
}

/** Every row of a list, page by page. */
export async function* listRows<T>(caller: Caller, req: ListRequest): AsyncGenerator<T> {
  for await (const page of listPages<T>(caller, req)) yield* page.data;
}

/** Collects a whole list. */
export async function listAll<T>(caller: Caller, req: ListRequest): Promise<T[]> {
  const out: T[] = [];
  for await (const row of listRows<T>(caller, req)) out.push(row);
  return out;
}

export interface DeltaSyncResult<T> {
  rows: T[];
  /** Pass as `since` next time. */
  cursor: string;
}

/**
 * The rows changed since `since` (every row when it is absent) and the cursor
 * for the next sync. The cursor is the first page's: a row changed while later
 * pages were read is then read again next time rather than missed.
 */
export async function deltaSync<T>(
  caller: Caller,
  req: Omit<ListRequest, "updatedSince" | "cursor">,
  since?: string,
): Promise<DeltaSyncResult<T>> {
  const rows: T[] = [];
  let cursor: string | undefined;
  for await (const page of listPages<T>(caller, { ...req, updatedSince: since })) {
    if (cursor === undefined) {
      if (page.syncCursor === undefined) throw new Error(`${req.path} has no delta sync (no syncCursor)`);
      cursor = page.syncCursor;
    }
    rows.push(...page.data);
  }
  return { rows, cursor: cursor as string };
}
