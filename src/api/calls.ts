/**
 * The building blocks of the typed operations (`operations.ts`): a call's options, a route template filled,
 * one typed call (`invoke`, `respond`), a paged list (`listOf`), a kind's routes derived from its
 * definition (`resource`) and a job-creating write run to the end (`job`).
 */
import type { z } from "zod";
import type { KindDefinition } from "../kinds/index.ts";
import type { jobCallback } from "../kinds/job.ts";
import { type JobRunOptions, runJob } from "./jobs.ts";
import {
  type DeltaSyncResult,
  deltaSync,
  type ListParams,
  listAll,
  listPage,
  listRows,
  type Page,
} from "./lists.ts";
import type { ApiResponse, Caller, QueryValue, QuotaClass, RequestSpec } from "./types.ts";

/** Options of one write: the idempotency key (the client makes one when absent) and an abort signal. */
export interface WriteOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ReadOptions {
  expand?: readonly string[];
  fields?: readonly string[];
  signal?: AbortSignal;
}

/** A list call: the list parameters, and `queryRoute` to force (or forbid) `POST <path>/q`. */
export type ListOptions = ListParams & {
  queryRoute?: boolean | "auto";
  cursor?: string;
  signal?: AbortSignal;
};

type Method = RequestSpec["method"];

/** `/monitor/{id}` with `["a b"]` → `/monitor/a%20b`: parameters fill the template's slots in order. */
export function fillPath(template: string, values: readonly string[]): string {
  let i = 0;
  const path = template.replace(/\{\w+\}/g, () => {
    const value = values[i++];
    if (value === undefined || value === "") throw new Error(`${template}: missing path parameter ${i}`);
    return encodeURIComponent(value);
  });
  if (i !== values.length) throw new Error(`${template} takes ${i} path parameters, got ${values.length}`);
  return path;
}

/** The quota class of a call: GET reads, anything else writes, unless the route says otherwise (`/q` twins read). */
export function quotaClassFor(method: Method, override?: QuotaClass): QuotaClass {
  return override ?? (method === "GET" ? "read" : "write");
}

interface CallArgs {
  params?: readonly string[];
  query?: Record<string, QueryValue>;
  body?: unknown;
  quotaClass?: QuotaClass;
  idempotencyKey?: string;
  signal?: AbortSignal;
  unpaced?: boolean;
}

/** One typed call of a route template. */
export async function invoke<T>(
  caller: Caller,
  method: Method,
  template: string,
  args: CallArgs = {},
): Promise<T> {
  const res = await respond<T>(caller, method, template, args);
  return res.body;
}

/** Like `invoke`, with the whole answer (status and headers matter to 201-or-202 routes). */
export function respond<T>(
  caller: Caller,
  method: Method,
  template: string,
  args: CallArgs = {},
): Promise<ApiResponse<T>> {
  const query =
    args.query && Object.fromEntries(Object.entries(args.query).filter(([, v]) => v !== undefined));
  return caller.call<T>({
    method,
    path: fillPath(template, args.params ?? []),
    route: `${method} ${template}`,
    quotaClass: quotaClassFor(method, args.quotaClass),
    ...(query && Object.keys(query).length > 0 && { query }),
    ...(args.body !== undefined && { body: args.body }),
    ...(args.idempotencyKey !== undefined && { idempotencyKey: args.idempotencyKey }),
    ...(args.signal && { signal: args.signal }),
    ...(args.unpaced && { unpaced: true }),
  });
}

/** A paged list under a route template: rows as an async iterator, one page, everything, or a delta sync. */
export interface ListOf<T> {
  rows(options?: ListOptions): AsyncGenerator<T>;
  page(options?: ListOptions): Promise<Page<T>>;
  all(options?: ListOptions): Promise<T[]>;
}

export interface SyncedListOf<T> extends ListOf<T> {
  /** Rows changed since `since` (all rows without it) and the cursor for next time. */
  sync(since?: string, options?: Omit<ListOptions, "updatedSince" | "cursor">): Promise<DeltaSyncResult<T>>;
}

export function listOf<T>(
  caller: Caller,
  template: string,
  params: readonly string[] = [],
  quotaClass: QuotaClass = "read",
  allowedFilters?: readonly string[],
): SyncedListOf<T> {
  const request = (options: ListOptions = {}) => {
    if (allowedFilters) {
      const unknown = Object.keys(options.filters ?? {}).filter((f) => !allowedFilters.includes(f));
      if (unknown.length > 0) throw new Error(`${template} has no filter ${unknown.join(", ")}`);
    }
    return { ...options, path: fillPath(template, params), template, quotaClass };
  };
  return {
    rows: (options) => listRows<T>(caller, request(options)),
    page: (options) => listPage<T>(caller, request(options)),
    all: (options) => listAll<T>(caller, request(options)),
    sync: (since, options) => deltaSync<T>(caller, request(options), since),
  };
}

/** What `DELETE` answers for most kinds: a receipt naming what went. */
export type DeleteReceipt = { id: string; deleted: true } & Record<string, unknown>;

/**
 * The five routes of a kind, derived from its definition: list (with its
 * declared filters and, where the kind has it, delta sync), get, create,
 * update and delete. Rows are the kind's schema; bodies its input.
 */
export function resource<S extends z.ZodObject>(caller: Caller, kind: KindDefinition<S>) {
  type Row = z.output<S>;
  type Body = z.input<S>;
  const { collection, item } = kind.paths;
  const list = listOf<Row>(caller, collection, [], "read", kind.list?.filters);
  return {
    kind,
    ...list,
    get: (id: string, options: ReadOptions = {}) =>
      invoke<Row>(caller, "GET", item, {
        params: [id],
        query: { expand: options.expand, fields: options.fields },
        signal: options.signal,
      }),
    create: (body: Body, options: WriteOptions = {}) =>
      invoke<Row>(caller, "POST", collection, { body, ...options }),
    update: (id: string, body: Body, options: WriteOptions = {}) =>
      invoke<Row>(caller, "PATCH", item, { params: [id], body, ...options }),
    delete: (id: string, options: WriteOptions = {}) =>
      invoke<DeleteReceipt>(caller, "DELETE", item, { params: [id], ...options }),
  };
}

/**
 * The routes of a kind that lives under a parent (`/statuspage/{id}/template`), derived from its definition:
 * the parent's id fills the paths' first slot. A child kind has no update: its API has no PATCH.
 */
export function childResource<S extends z.ZodObject>(caller: Caller, kind: KindDefinition<S>) {
  type Row = z.output<S>;
  type Body = z.input<S>;
  const { collection, item } = kind.paths;
  return {
    kind,
    /** The parent's objects of this kind, paged. */
    list: (parentId: string) => listOf<Row>(caller, collection, [parentId], "read", kind.list?.filters),
    get: (parentId: string, id: string, options: ReadOptions = {}) =>
      invoke<Row>(caller, "GET", item, { params: [parentId, id], signal: options.signal }),
    create: (parentId: string, body: Body, options: WriteOptions = {}) =>
      invoke<Row>(caller, "POST", collection, { params: [parentId], body, ...options }),
    delete: (parentId: string, id: string, options: WriteOptions = {}) =>
      invoke<DeleteReceipt>(caller, "DELETE", item, { params: [parentId, id], ...options }),
  };
}

export type JobCallback = z.input<typeof jobCallback>;
export interface BulkOptions extends WriteOptions, JobRunOptions {
  callback?: JobCallback;
}
export interface BulkValidation {
  valid: number;
  invalid: { index: number; error: Record<string, unknown> }[];
}

/** A job-creating write, run to the end: submitted with its key, polled at the Retry-After pace. */
export function job(
  caller: Caller,
  template: string,
  params: readonly string[],
  body: unknown,
  options: BulkOptions,
) {
  return runJob(
    caller,
    {
      method: "POST",
      path: fillPath(template, params),
      route: `POST ${template}`,
      quotaClass: "write",
      body,
      ...(options.idempotencyKey !== undefined && { idempotencyKey: options.idempotencyKey }),
      ...(options.signal && { signal: options.signal }),
    },
    options,
  );
}

export const withCallback = (body: Record<string, unknown>, options: BulkOptions) =>
  options.callback ? { ...body, callback: options.callback } : body;
