import type { z } from "zod";
import { type KindDefinition, type LeafScope, type ProblemCodeName, pageOf } from "../../kinds/index.ts";
import { listDigest, queryDigest } from "./cursor.ts";
import type { Ctx, Operation, OpRequest } from "./operation.ts";
import { ApiProblem } from "./problem.ts";
import type { QueryParam } from "./query.ts";

/** A sortable column: its key and whether unsuffixed `sort=col` means newest first (time) or A to Z. */
export interface SortColumn<Row> {
  key: (row: Row, ctx: Ctx) => string | number | null | undefined;
  time?: boolean;
}

export interface Filter<Row> {
  param: QueryParam;
  /** Keeps a row; `value` is the parsed parameter (an array for list filters: any-of). */
  match: (row: Row, value: never, ctx: Ctx) => boolean;
}

/** One paged list, described once; `listOperations` turns it into the GET and its `POST /q` twin. */
export interface ListSpec<Row> {
  id: string;
  path: string;
  /**
   * The kind whose list this is. Its declared path, sort columns, default
   * sort, filters and delta sync must be this list's (checked when the list
   * is built), and its schema documents the rows.
   */
  kind?: KindDefinition;
  /** The row schema of a list that serves no kind, for the documented answer. */
  row?: z.ZodType;
  summary: string;
  scope: LeafScope | null;
  rows: (ctx: Ctx, req: OpRequest) => Row[];
  rowId: (row: Row) => string;
  filters?: Record<string, Filter<Row>>;
  sort?: { columns: Record<string, SortColumn<Row>>; default: string };
  /** Allowed `expand` tokens (`count` adds `count {total, matched}`). */
  expand?: readonly string[];
  /** Top-level members `fields` may keep. */
  fields?: readonly string[];
  /** Delta sync: a row's change sequence, or undefined when the list has no `updatedSince`. */
  syncSeq?: (row: Row) => number;
  /** `from`/`to` window with its widest span in seconds; `filter` keeps rows inside it. */
  window?: { maxSpan: number; defaultSpan: number; filter?: (row: Row, from: number, to: number) => boolean };
  render: (ctx: Ctx, row: Row, expand: ReadonlySet<string>, req: OpRequest) => Record<string, unknown>;
  /** Extra members of the page (for example the webhook `summary`). */
  pageExtras?: (ctx: Ctx) => Record<string, unknown>;
  errors?: ProblemCodeName[];
}

interface CursorPayload {
  /** Sort key and id of the last row sent. */
  k: [string | number | null, string];
  /** The list (`listDigest`), canonical sort and query digest it pages. */
  l: string;
  s: string;
  q: string;
}

interface SyncPayload {
  a: string;
  l: string;
  seq: number;
}

const thirtyDays = 30 * 86400;

export function listOperations<Row>(spec: ListSpec<Row>): Operation[] {
  if (spec.kind) assertKindList(spec, spec.kind);
  const query: Record<string, QueryParam> = {
    limit: { type: "int", min: 1, max: 500, description: "Page size, 1-500 (default 50)." },
    cursor: { type: "string", description: "The previous page's nextCursor." },
  };
  if (spec.sort) {
    const columns = Object.keys(spec.sort.columns);
    query.sort = {
      type: "enum",
      values: columns.flatMap((c) => [c, `${c}:asc`, `${c}:desc`]),
      description: "column or column:asc|desc",
    };
  }
  if (spec.expand)
    query.expand = { type: "string", list: true, description: `Blocks: ${spec.expand.join(", ")}.` };
  if (spec.fields)
    query.fields = { type: "string", list: true, description: "Top-level members to keep (id always)." };
  if (spec.syncSeq)
    query.updatedSince = { type: "string", description: "A syncCursor from an earlier page." };
  if (spec.window) {
    query.from = { type: "time", description: "Window start, Unix seconds." };
    query.to = { type: "time", description: "Window end, Unix seconds (default now)." };
  }
  for (const [name, filter] of Object.entries(spec.filters ?? {})) query[name] = filter.param;

  const errors: ProblemCodeName[] = [
    "unknown_parameter",
    "unknown_enum_value",
    "invalid_limit",
    "invalid_cursor",
    "validation_failed",
    ...(spec.expand ? (["unknown_expand"] as const) : []),
    ...(spec.fields ? (["unknown_field"] as const) : []),
    ...(spec.window ? (["invalid_range"] as const) : []),
    ...(spec.errors ?? []),
  ];
  const handle = (ctx: Ctx, req: OpRequest) => ({ status: 200, body: runList(spec, ctx, req) });
  const response = spec.kind
    ? {
        status: 200,
        description: `One page of ${spec.kind.title.toLowerCase()}s.`,
        schema: pageOf(spec.kind.schema),
      }
    : spec.row
      ? { status: 200, description: "One page of the list.", schema: pageOf(spec.row) }
      : undefined;
  return [
    {
      id: spec.id,
      method: "GET",
      path: spec.path,
      summary: spec.summary,
      scope: spec.scope,
      query,
      errors,
      response,
      handle,
    },
    {
      id: `${spec.id}.query`,
      method: "POST",
      path: `${spec.path}/q`,
      summary: `${spec.summary} (parameters as a JSON body)`,
      scope: spec.scope,
      quotaClass: "read",
      queryInBody: true,
      query,
      errors,
      response,
      handle,
    },
  ];
}

/** A list that serves a kind must be the list the kind declares; a mismatch is a definition error. */
function assertKindList<Row>(spec: ListSpec<Row>, kind: KindDefinition) {
  const sameSet = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((x) => b.includes(x));
  const declared = kind.list;
  const problems = [
    spec.path === kind.paths.collection ? "" : `path ${spec.path} is not ${kind.paths.collection}`,
    declared ? "" : "the kind declares no list",
    declared && !sameSet(Object.keys(spec.sort?.columns ?? {}), declared.sort) ? "sort columns differ" : "",
    declared && spec.sort?.default !== declared.defaultSort ? "default sort differs" : "",
    declared && !sameSet(Object.keys(spec.filters ?? {}), declared.filters) ? "filters differ" : "",
    declared && (spec.syncSeq !== undefined) !== (declared.deltaSync !== undefined)
      ? "delta sync differs"
      : "",
  ].filter(Boolean);
  if (problems.length > 0)
    throw new Error(`List ${spec.id} does not match kind ${kind.name}: ${problems.join("; ")}`);
}

function runList<Row>(spec: ListSpec<Row>, ctx: Ctx, req: OpRequest) {
  const q = req.query;
  const accountId = ctx.account?.id ?? "anonymous";
  const expand = parseTokens(q.expand as string[] | undefined, spec.expand ?? [], "expand", "unknown_expand");
  const fields = q.fields
    ? parseTokens(q.fields as string[], spec.fields ?? [], "fields", "unknown_field")
    : undefined;

  let rows = spec.rows(ctx, req);
  const total = rows.length;
  for (const [name, filter] of Object.entries(spec.filters ?? {})) {
    if (q[name] !== undefined) rows = rows.filter((row) => filter.match(row, q[name] as never, ctx));
  }
  if (spec.window) {
    const { from, to } = resolveWindow(q, ctx.now, spec.window.maxSpan, spec.window.defaultSpan);
    const keep = spec.window.filter;
    if (keep) rows = rows.filter((row) => keep(row, from, to));
  }
  const list = listDigest(spec.id, req.params);
  if (spec.syncSeq && q.updatedSince !== undefined) {
    const since = decodeSince(ctx, String(q.updatedSince), accountId, list);
    rows = rows.filter((row) => spec.syncSeq!(row) > since);
  }
  const matched = rows.length;

  // Without a sort, rows order by id: keyset paging needs a total order, whatever rows came and went.
  const order = resolveSort(spec, q.sort as string | undefined);
  const descending = order?.descending ?? false;
  const sortKey = (row: Row) => (order ? (order.column.key(row, ctx) ?? null) : null);
  rows.sort((a, b) => compareKeys(sortKey(a), spec.rowId(a), sortKey(b), spec.rowId(b), descending));

  const digest = queryDigest(q, accountId);
  let start = 0;
  if (q.cursor !== undefined) {
    const cursor = ctx.services.cursors.decode<CursorPayload>(String(q.cursor), "cursor");
    if (cursor.l !== list || cursor.q !== digest || cursor.s !== (order?.canonical ?? "")) {
      throw new ApiProblem("invalid_cursor", "The cursor belongs to another list, sort or query.", {
        errors: [{ pointer: "/cursor", parameter: "cursor", reason: "foreign" }],
      });
    }
    const [key, id] = cursor.k;
    start = firstAfter(rows, (row) => compareKeys(sortKey(row), spec.rowId(row), key, id, descending) > 0);
  }
  const limit = (q.limit as number | undefined) ?? 50;
  const page = rows.slice(start, start + limit);
  const hasMore = start + limit < rows.length;
  const last = page.at(-1);
  const nextCursor =
    hasMore && last !== undefined
      ? ctx.services.cursors.encode({
          k: [sortKey(last), spec.rowId(last)],
          l: list,
          s: order?.canonical ?? "",
          q: digest,
        } satisfies CursorPayload)
      : null;

  const data = page.map((row) => keepFields(spec.render(ctx, row, expand, req), fields));
  const body: Record<string, unknown> = { data, nextCursor, hasMore };
  if (expand.has("count")) body.count = { total, matched };
  if (spec.syncSeq) {
    const seq = (ctx.account?.syncSeq as number | undefined) ?? 0;
    body.syncCursor = ctx.services.cursors.encode({ a: accountId, l: list, seq } satisfies SyncPayload);
  }
  if (spec.pageExtras) Object.assign(body, spec.pageExtras(ctx));
  return body;
}

/**
 * The order a list answers in. `sort=created` and `sort=created:desc` are the
 * same order (time columns default to newest first), so cursors carry the
 * canonical `column:direction` and work with either spelling.
 */
function resolveSort<Row>(spec: ListSpec<Row>, requested: string | undefined) {
  const text = requested ?? spec.sort?.default;
  if (!spec.sort || !text) return undefined;
  const [name, direction] = text.split(":") as [string, string | undefined];
  const column = spec.sort.columns[name]!;
  const descending = direction ? direction === "desc" : column.time === true;
  return { column, descending, canonical: `${name}:${descending ? "desc" : "asc"}` };
}

function compareKeys(
  ak: string | number | null,
  aid: string,
  bk: string | number | null,
  bid: string,
  descending: boolean,
): number {
  // Rows without a value sort last in either direction; ids break ties so paging is stable.
  if (ak === null && bk !== null) return 1;
  if (bk === null && ak !== null) return -1;
  let c = 0;
  if (ak !== null && bk !== null && ak !== bk) {
    c = typeof ak === "string" && typeof bk === "string" ? ak.localeCompare(bk) : ak < bk ? -1 : 1;
    if (descending) c = -c;
  }
  return c !== 0 ? c : aid < bid ? -1 : aid > bid ? 1 : 0;
}

function firstAfter<Row>(rows: Row[], after: (row: Row) => boolean): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (after(rows[mid]!)) high = mid;
    else low = mid + 1;
  }
  return low;
}

function parseTokens(
  values: string[] | undefined,
  allowed: readonly string[],
  parameter: string,
  code: "unknown_expand" | "unknown_field",
): Set<string> {
  const set = new Set<string>();
  for (const v of values ?? []) {
    if (!allowed.includes(v)) {
      throw new ApiProblem(code, `"${v}" is not a ${parameter} token here.`, {
        errors: [{ pointer: `/${parameter}`, parameter, value: v, allowed: [...allowed] }],
      });
    }
    set.add(v);
  }
  return set;
}

/** Parses `expand` for single reads, with the same rules as lists. */
export function parseExpand(
  req: OpRequest,
  allowed: readonly string[],
  defaults: readonly string[],
): Set<string> {
  const given = req.query.expand as string[] | undefined;
  return given ? parseTokens(given, allowed, "expand", "unknown_expand") : new Set(defaults);
}

/** Applies `fields` to a single rendered object. */
export function pickFields(req: OpRequest, rendered: Record<string, unknown>, allowed: readonly string[]) {
  const fields = req.query.fields as string[] | undefined;
  return keepFields(rendered, fields && parseTokens(fields, allowed, "fields", "unknown_field"));
}

/** The top-level members `fields` names, and always `id`. */
function keepFields(rendered: Record<string, unknown>, fields: ReadonlySet<string> | undefined) {
  if (!fields) return rendered;
  const kept: Record<string, unknown> = { id: rendered.id };
  for (const f of fields) if (f in rendered) kept[f] = rendered[f];
  return kept;
}

/** The spec's window rules: omitted `to` is now, omitted `from` is `defaultSpan` before `to`. */
export function resolveWindow(
  q: Record<string, unknown>,
  now: number,
  maxSpan: number,
  defaultSpan = thirtyDays,
): { from: number; to: number } {
  const to = (q.to as number | undefined) ?? now;
  const from = (q.from as number | undefined) ?? to - defaultSpan;
  if (from > to) {
    throw new ApiProblem("invalid_range", "from is after to.", {
      errors: [{ pointer: "/from", parameter: "from", value: from, reason: "after_to" }],
      extra: { maxSpan },
    });
  }
  if (to - from > maxSpan) {
    throw new ApiProblem("invalid_range", `The window is wider than ${maxSpan} seconds.`, {
      errors: [{ pointer: "/from", parameter: "from", value: from, reason: "too_wide", maxSpan }],
      extra: { maxSpan },
    });
  }
  return { from, to };
}

function decodeSince(ctx: Ctx, value: string, accountId: string, list: string): number {
  const payload = ctx.services.cursors.decode<SyncPayload>(value, "updatedSince");
  if (payload.a !== accountId || payload.l !== list) {
    throw new ApiProblem("invalid_cursor", "The syncCursor belongs to another account or list.", {
      errors: [{ pointer: "/updatedSince", parameter: "updatedSince", reason: "foreign" }],
    });
  }
  return payload.seq;
}
