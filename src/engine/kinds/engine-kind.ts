/**
 * How the engine reads, compares and writes one kind. Everything that can be
 * derived from the kind's definition (paths, traits, natural key, list
 * behaviour) is; a kind's own file adds only what its API does differently.
 */
import type { z } from "zod";
import type { Operations } from "../../api/index.ts";
import { cascadedBy, credentialPointers, type KindDefinition, kinds, membersOf } from "../../kinds/index.ts";
import type { KindName } from "../model.ts";
import { isObject } from "../pointer.ts";
import { canonicalJson } from "../state/index.ts";

export type Row = Record<string, unknown>;
export type Members = Record<string, unknown>;

/** What `DELETE` answered: the ids the API removed with the object, per kind. */
export type Cascaded = Partial<Record<KindName, string[]>>;

/**
 * The rows of a kind the same refresh already listed whole, or undefined: a kind listed under its parent
 * (a page's templates) reads its parents from there instead of listing them a second time.
 */
export type ListedRows = (kind: KindName) => readonly Row[] | undefined;

export interface WriteContext {
  ops: Operations;
  idempotencyKey: string;
}

/** A kind's engine definition; `N` is its name, so a table of them by name checks each entry's key. */
export interface EngineKind<N extends KindName = KindName> {
  name: N;
  definition: KindDefinition<z.ZodObject, N>;
  /** The address prefix in configs: `monitors` in `monitors.checkout-api`. */
  section: string;
  /** The schema whose traits describe these members (a monitor's settings depend on its type). */
  schemaFor(members: Members): z.ZodObject;
  /** Every live object of the kind, by listing it in pages of 500. */
  listAll(ops: Operations, listed?: ListedRows): Promise<{ rows: Row[]; syncCursor?: string }>;
  /** Rows created (or, per the kind's delta sync, changed) since a sync cursor; undefined without delta sync. */
  sync?(ops: Operations, since: string): Promise<{ rows: Row[]; syncCursor?: string }>;
  getOne(ops: Operations, row: Row): Promise<Row>;
  /** Desired members as the API will store them: aliases resolved, caps applied, dropped values removed. */
  normalizeDesired(members: Members): Members;
  /** A live row as comparable members: read-only members dropped, read-back shapes undone. */
  normalizeLive(row: Row): Members;
  /**
   * Top-level members whose stored value, when a create leaves them out, depends on the object rather than
   * being the declared `default` (a monitor's interval rises to its type's floor); `undefined` for a member
   * whose stored value nothing declared can say (settings a preset builds). Drift notes read it.
   */
  storedDefaults?(members: Members): Members;
  /**
   * JSON pointers of the credential values among these members (compared by hash, never shown): the members
   * whose trait is `writeOnly` in `schemaFor(members)`, found by `credentialPointers`.
   */
  credentials(members: Members): string[];
  /** Top-level members a PATCH merges into the stored value instead of replacing it. */
  merging: readonly string[];
  /** Members written by their own call, after the object exists (a status page's components). */
  sideMembers: readonly string[];
  /** The body of the call that writes the side members; its shape holds each of them. */
  sideBody?: z.ZodObject;
  /** The natural key as one comparable string, or undefined while part of it is unknown. */
  naturalKey(members: Members): string | undefined;
  create(ctx: WriteContext, body: Members): Promise<Row>;
  update(ctx: WriteContext, live: Row, body: Members): Promise<Row | undefined>;
  writeSide?(ctx: WriteContext, id: string, members: Members): Promise<void>;
  remove(ctx: WriteContext, live: Row): Promise<Cascaded>;
}

/** The members of a definition that the service sets (never compared, never sent). */
export function readOnlyMembers(definition: KindDefinition): string[] {
  return membersOf(definition.schema)
    .filter((m) => m.traits.readOnly)
    .map((m) => m.name);
}

export function withoutMembers(row: Row, names: readonly string[]): Members {
  const out: Members = { ...row };
  for (const name of names) delete out[name];
  return out;
}

/** The natural key from its members, compared as canonical JSON; an unknown reference makes it unknown. */
export function keyFrom(values: readonly unknown[]): string | undefined {
  if (values.some((v) => v === undefined || (isObject(v) && "$unknown" in v))) return undefined;
  return canonicalJson(values);
}

/**
 * What a delete receipt says went with an object of kind `deleted`, as ids per kind: for every kind that
 * delete takes along (its children, and kinds `deletedWith` it), the receipt's `cascaded.<cascadedAs>`.
 */
export function cascadedOf(deleted: KindName, receipt: unknown): Cascaded {
  const cascaded = isObject(receipt) && isObject(receipt.cascaded) ? receipt.cascaded : {};
  const ids = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  const out: Cascaded = {};
  for (const { kind, cascadedAs } of cascadedBy(kinds, deleted))
    if (cascadedAs) out[kind.name] = ids(cascaded[cascadedAs]);
  return out;
}

/** The plain five routes of a kind (`resource(caller, kind)`), as the engine calls them. */
interface PlainRoutes {
  all: (options?: { limit?: number; expand?: readonly string[] }) => Promise<Row[]>;
  sync: (
    since?: string,
    options?: { expand?: readonly string[] },
  ) => Promise<{ rows: Row[]; cursor: string }>;
  get: (id: string, options?: { expand?: readonly string[] }) => Promise<Row>;
  create: (body: never, options: { idempotencyKey: string }) => Promise<Row>;
  update: (id: string, body: never, options: { idempotencyKey: string }) => Promise<Row>;
  delete: (id: string, options: { idempotencyKey: string }) => Promise<unknown>;
}

/**
 * A kind served by the plain five routes: list, get, create (POST), update (PATCH) and delete, from the
 * client's operations of the same name (`ops.contact`). Kinds override what differs.
 */
export function plainKind<N extends KindName>(
  definition: KindDefinition<z.ZodObject, N>,
  section: string,
  overrides: Partial<Omit<EngineKind, "name" | "definition">> & { expand?: readonly string[] } = {},
): EngineKind<N> {
  const name = definition.name;
  // The group's members are typed by the kind's own bodies; the engine sends members it has checked. (A kind
  // without a group fails to compile at the client's table, `kindOperations`, not here.)
  const ops = (o: Operations) => o[name as N & keyof Operations] as unknown as PlainRoutes;
  const readOnly = readOnlyMembers(definition);
  const { expand, ...rest } = overrides;
  const listOptions = expand ? { expand } : {};
  const schemaFor = rest.schemaFor ?? (() => definition.schema);
  return {
    name,
    definition,
    section,
    schemaFor,
    async listAll(o) {
      const routes = ops(o);
      // Delta-sync lists answer the sync cursor with the full list, so one pass gives both.
      if (definition.list?.deltaSync) {
        const { rows, cursor } = await routes.sync(undefined, listOptions);
        return { rows, syncCursor: cursor };
      }
      return { rows: await routes.all({ limit: 500, ...listOptions }) };
    },
    ...(definition.list?.deltaSync && {
      async sync(o: Operations, since: string) {
        const { rows, cursor } = await ops(o).sync(since, listOptions);
        return { rows, syncCursor: cursor };
      },
    }),
    getOne: (o, row) => ops(o).get(String(row.id), listOptions),
    normalizeDesired: (members) => ({ ...members }),
    normalizeLive: (row) => withoutMembers(row, readOnly),
    credentials: (members) => credentialPointers(schemaFor(members), members),
    merging: [],
    sideMembers: definition.side?.members ?? [],
    ...(definition.side && { sideBody: definition.side.body }),
    naturalKey: (members) => keyFrom(definition.naturalKey.map((k) => members[k])),
    create: (ctx, body) => ops(ctx.ops).create(body as never, { idempotencyKey: ctx.idempotencyKey }),
    update: (ctx, live, body) =>
      ops(ctx.ops).update(String(live.id), body as never, { idempotencyKey: ctx.idempotencyKey }),
    async remove(ctx, live) {
      const receipt = await ops(ctx.ops).delete(String(live.id), { idempotencyKey: ctx.idempotencyKey });
      return cascadedOf(name, receipt);
    },
    ...rest,
  };
}
