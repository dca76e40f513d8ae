/**
 * The requests `BatchedWrites` sends for many writes of one kind, and how each item's answer reaches its
 * caller: monitors and contacts through jobs (creates, updates, two-phase deletes), subscriptions through
 * the one-transaction `/alert/bulk` and `/report/bulk`. Whatever cannot go in a batch safely takes the
 * single-object route instead.
 */
import { z } from "zod";
import { ApiError, itemError, type JobOutcome, type JobResultRow, type Operations } from "../api/index.ts";
import { bodySchema } from "../kinds/index.ts";
import { touchesSide, updateBody } from "./apply/bodies.ts";
import { vanished } from "./apply/refusals.ts";
import type { BatchContext, CreateWrite, DeleteWrite, UpdateWrite, Write } from "./batch-contract.ts";
import type { EngineKind, Members, Row } from "./kinds/index.ts";
import type { Change } from "./model.ts";
import { tokensOf } from "./pointer.ts";
import { canonicalJson } from "./state/index.ts";

export interface BatchRoute {
  /** The queue a write joins: the writes of one family go out in one request. */
  family(op: Write["op"]): string;
  /** An update's bulk item; undefined when its changes do not fit the item (it takes its single route). */
  updateItem?(kind: EngineKind, live: Row, desired: Members, changes: readonly Change[]): Members | undefined;
  /** Sends a batch of two or more writes of one family, settling each. */
  send(ctx: BatchContext, batch: Write[]): Promise<void>;
}

const itemOf = (w: CreateWrite | UpdateWrite) => (w.op === "create" ? w.body : w.item);
/** The write's own key: a batch's key derives from them too, so an update of another moment never replays. */
const ownKey = (w: Write) =>
  w.op === "create" ? w.keysFor(w.body, 0)("create") : w.op === "update" ? w.keyFor("update") : w.key;

/** In content order, so a batch's key does not depend on the order its writes arrived in. */
function sorted<T extends Write>(writes: readonly T[], content: (w: T) => unknown): T[] {
  return writes
    .map((w) => ({ w, text: canonicalJson(content(w)) }))
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map(({ w }) => w);
}

async function chunked<T>(ctx: BatchContext, items: readonly T[]): Promise<T[][]> {
  const size = Math.max(1, await ctx.maxItems());
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const jobOptions = (ctx: BatchContext, key: string) => ({
  idempotencyKey: key,
  ...(ctx.time && { time: ctx.time }),
});

/** Creates and updates as job items, one job per chunk; each caller settles from its own result row. */
async function runItems(
  ctx: BatchContext,
  writes: readonly (CreateWrite | UpdateWrite)[],
  route: string,
  run: (items: Members[], key: string) => Promise<JobOutcome>,
): Promise<void> {
  for (const chunk of await chunked(ctx, sorted(writes, itemOf))) {
    if (chunk.length === 1) {
      await ctx.single(chunk[0]!);
      continue;
    }
    const key = ctx.keyFor(
      route,
      chunk.map((w) => [itemOf(w), ownKey(w)]),
    );
    let outcome: JobOutcome;
    try {
      outcome = await run(chunk.map(itemOf), key);
    } catch (error) {
      // The job failed as a whole (refused, interrupted, unreachable): every caller gets its problem.
      for (const w of chunk) w.reject(error);
      continue;
    }
    const replayed = ctx.session.replayed(key);
    const rows = new Map(outcome.rows.map((row) => [row.index, row]));
    await Promise.all(
      chunk.map((w, i) => settleItem(ctx, w, rows.get(i), replayed, route, String(outcome.job.id))),
    );
  }
}

async function settleItem(
  ctx: BatchContext,
  w: CreateWrite | UpdateWrite,
  row: JobResultRow | undefined,
  replayed: boolean,
  route: string,
  jobId: string,
): Promise<void> {
  if (!row) {
    w.reject(new Error(`job ${jobId} did not report this item`));
    return;
  }
  if (row.status === "failed") {
    const error = itemError(row.error ?? {}, `/items/${row.index}`, route);
    if (w.op === "create") await ctx.refused(w, error);
    else w.reject(error);
    return;
  }
  if (row.status === "cancelled" || row.status === "pending") {
    w.reject(new Error(`job ${jobId} was cancelled before this item ran`));
    return;
  }
  if (w.op === "update") {
    w.resolve();
    return;
  }
  // `createdDisabled`: created, and disabled by the plan's limit, as the object then reads.
  if (row.status === "created" || row.status === "createdDisabled") {
    await ctx.created(w, String(row.entityId), replayed);
    return;
  }
  // A create-or-update job that found the address taken (by a contact made since the batch looked).
  w.reject(
    new Error(
      `a ${w.kind.name} with this natural key already existed (${row.entityId}); the bulk write ${row.status} it instead of creating one: import it`,
    ),
  );
}

/**
 * The two-phase delete: validate the filter, check it selects exactly these objects, then delete with
 * `expectedCount`. When the selection is not exactly ours, or changed in between, the single deletes
 * take over: the first phase changed nothing.
 */
async function twoPhaseDelete(
  ctx: BatchContext,
  chunk: readonly DeleteWrite[],
  route: string,
  phases: {
    validate(key: string): Promise<{ matched: number; sample: unknown[] }>;
    /** The ids the filter selects, when the sample may not show them all; absent for a filter of ids. */
    selected?(): Promise<string[]>;
    run(expectedCount: number, key: string): Promise<JobOutcome>;
  },
): Promise<void> {
  const singles = () => Promise.all(chunk.map((w) => ctx.single(w)));
  const ids = new Set(chunk.map((w) => String(w.live.id)));
  const key = ctx.keyFor(route, chunk.map(ownKey));
  let matched: number;
  let sample: unknown[];
  try {
    ({ matched, sample } = await phases.validate(`${key}-validate`));
  } catch {
    await singles();
    return;
  }
  if (matched !== ids.size) {
    await singles();
    return;
  }
  if (phases.selected) {
    const sampled = sample.map((row) => String((row as Row).id));
    const seen = sampled.length >= matched ? sampled : await phases.selected();
    if (seen.length !== ids.size || seen.some((id) => !ids.has(id))) {
      await singles();
      return;
    }
  }
  let outcome: JobOutcome;
  try {
    outcome = await phases.run(matched, key);
  } catch (error) {
    if (error instanceof ApiError && error.code === "selection_mismatch") await singles();
    else for (const w of chunk) w.reject(error);
    return;
  }
  const rows = new Map(outcome.rows.map((row) => [String(row.entityId), row]));
  for (const w of chunk) {
    const row = rows.get(String(w.live.id));
    // `skipped`: deleted by someone else meanwhile, which is what was asked.
    if (row?.status === "deleted" || row?.status === "skipped") w.resolve();
    else if (row?.status === "failed") w.reject(itemError(row.error ?? {}, `/items/${row.index}`, route));
    else w.reject(new Error(`job ${outcome.job.id} did not delete ${w.live.id}`));
  }
}

/** A two-phase delete costs two writes: for two objects, their single deletes cost as much, with no job. */
const twoPhaseMinimum = 3;

const byOp = <T extends Write["op"]>(batch: readonly Write[], op: T) =>
  batch.filter((w): w is Extract<Write, { op: T }> => w.op === op);

/** The PATCH body of an update, unless it touches members written by a call of their own. */
function patchOf(kind: EngineKind, desired: Members, changes: readonly Change[]): Members | undefined {
  if (touchesSide(kind, changes)) return undefined;
  const body = updateBody(kind, changes, desired, kind.normalizeDesired(desired));
  // Nothing to send: the single route sends nothing either.
  return Object.keys(body).length > 0 ? body : undefined;
}

const monitors: BatchRoute = {
  family: (op) => op,
  updateItem(kind, live, desired, changes) {
    const body = patchOf(kind, desired, changes);
    if (!body) return undefined;
    const item = { id: String(live.id), ...body };
    const shape = bodySchema(kind.schemaFor(desired), "update").extend({ id: z.string().min(1) });
    return shape.safeParse(item).success ? item : undefined;
  },
  async send(ctx, batch) {
    const ops = ctx.session.ops.monitors;
    await runItems(ctx, byOp(batch, "create"), "POST /monitor/bulk", (items, key) =>
      ops.bulkCreate(items as never, jobOptions(ctx, key)),
    );
    await runItems(ctx, byOp(batch, "update"), "POST /monitor/bulk-update", (items, key) =>
      ops.bulkUpdate(items as never, jobOptions(ctx, key)),
    );
    // A filter selects by type and address (monitors have no id filter): one per type.
    const byType = new Map<string, DeleteWrite[]>();
    const singles: DeleteWrite[] = [];
    for (const w of byOp(batch, "delete")) {
      const { type, url } = w.live;
      if (typeof type !== "string" || typeof url !== "string") singles.push(w);
      else byType.set(type, [...(byType.get(type) ?? []), w]);
    }
    for (const [type, group] of byType) {
      for (const chunk of await chunked(ctx, sorted(group, ownKey))) {
        if (chunk.length < twoPhaseMinimum) {
          singles.push(...chunk);
          continue;
        }
        const filter = { type: [type], url: chunk.map((w) => String(w.live.url)) };
        await twoPhaseDelete(ctx, chunk, "POST /monitor/bulk-delete", {
          validate: (key) => ops.bulkDeleteValidate(filter, { idempotencyKey: key }),
          selected: async () =>
            (await ops.all({ filters: filter, fields: ["id"], limit: 500 })).map((m) => String(m.id)),
          run: (count, key) => ops.bulkDelete(filter, count, jobOptions(ctx, key)),
        });
      }
    }
    await Promise.all(singles.map((w) => ctx.single(w)));
  },
};

const contacts: BatchRoute = {
  family: (op) => (op === "delete" ? "delete" : "write"),
  updateItem(kind, live, desired, changes) {
    const body = patchOf(kind, desired, changes);
    // The bulk write finds the contact by (type, address): an update that moves them cannot be matched.
    if (!body || "type" in body || "address" in body) return undefined;
    const item = { type: live.type, address: live.address, ...body };
    return bodySchema(kind.schemaFor(desired), "create").safeParse(item).success ? item : undefined;
  },
  async send(ctx, batch) {
    const ops = ctx.session.ops.contacts;
    const creates = byOp(batch, "create");
    const updates = byOp(batch, "update");
    // The bulk write creates or updates by (type, address): a create goes through it only when the list
    // shows the key free, so it never takes over a contact that exists already.
    let free: CreateWrite[] = [];
    if (creates.length > 0 && creates.length + updates.length > 1) {
      const kind = creates[0]!.kind;
      const { rows } = await kind.listAll(ctx.session.ops);
      const taken = new Set(rows.map((row) => kind.naturalKey(kind.normalizeLive(row))));
      free = creates.filter((w) => !taken.has(kind.naturalKey(kind.normalizeDesired(w.desired))));
    }
    const bulk = [...free, ...updates];
    await Promise.all(creates.filter((w) => !free.includes(w)).map((w) => ctx.single(w)));
    if (bulk.length > 0)
      await runItems(ctx, bulk, "POST /contact/bulk", (items, key) =>
        ops.bulkWrite(items as never, jobOptions(ctx, key)),
      );
    const deletes = byOp(batch, "delete");
    for (const chunk of await chunked(ctx, sorted(deletes, ownKey))) {
      if (chunk.length < twoPhaseMinimum) {
        await Promise.all(chunk.map((w) => ctx.single(w)));
        continue;
      }
      // The id filter selects exactly these contacts.
      const filter = { id: chunk.map((w) => String(w.live.id)) };
      await twoPhaseDelete(ctx, chunk, "POST /contact/bulk-delete", {
        validate: (key) => ops.bulkDeleteValidate(filter, { idempotencyKey: key }),
        run: (count, key) => ops.bulkDelete(filter, count, jobOptions(ctx, key)),
      });
    }
  },
};

/**
 * Subscriptions: creates (each replacing its pair's set, as the single PUT does), set changes and deletes
 * of a kind all go in one `{create, delete}` transaction. It is all or nothing, so the items it refuses
 * (pointers `/create/<i>`, `/delete/<i>`) fail alone and the rest are sent again.
 */
function subscriptions(
  setMember: string,
  routesOf: (ops: Operations) => Operations["alertSubscriptions"] | Operations["reportSubscriptions"],
): BatchRoute {
  const pairOf = (row: Row) => ({ monitorId: String(row.monitorId), contactId: String(row.contactId) });
  const pairKey = (row: Row) => `${row.monitorId}/${row.contactId}`;
  const createItem = (w: CreateWrite | UpdateWrite) =>
    w.op === "create" ? { ...pairOf(w.body), [setMember]: w.body[setMember] } : w.item;

  async function transaction(ctx: BatchContext, writes: Write[]): Promise<void> {
    const kind = writes[0]!.kind;
    const route = `POST /${kind.definition.paths.collection.slice(1)}/bulk`;
    const routes = routesOf(ctx.session.ops);
    let remaining = writes;
    while (remaining.length > 1) {
      const sets = sorted(
        remaining.filter((w): w is CreateWrite | UpdateWrite => w.op !== "delete"),
        createItem,
      );
      const deletes = sorted(byOp(remaining, "delete"), (w) => pairOf(w.live));
      const body = {
        ...(sets.length > 0 && { create: sets.map(createItem) }),
        ...(deletes.length > 0 && { delete: deletes.map((w) => pairOf(w.live)) }),
      };
      const key = ctx.keyFor(route, [body, [...sets, ...deletes].map(ownKey)]);
      let answer: { created?: Row[] };
      try {
        answer = (await routes.bulk(body, { idempotencyKey: key })) as { created?: Row[] };
      } catch (error) {
        remaining = refused(error, sets, deletes, route);
        continue;
      }
      const replayed = ctx.session.replayed(key);
      const created = new Map((answer.created ?? []).map((row) => [pairKey(row), row]));
      await Promise.all(sets.map((w) => settleSet(ctx, w, created.get(pairKey(createItem(w))), replayed)));
      for (const w of deletes) w.resolve();
      return;
    }
    await Promise.all(remaining.map((w) => ctx.single(w)));
  }

  /**
   * A refused transaction: the items its errors name fail (a delete whose pair is already gone succeeds);
   * answers the rest, to send again. A refusal that names no item fails them all.
   */
  function refused(
    error: unknown,
    sets: readonly (CreateWrite | UpdateWrite)[],
    deletes: readonly DeleteWrite[],
    route: string,
  ): Write[] {
    const named = new Map<Write, Record<string, unknown>[]>();
    if (error instanceof ApiError && error.status === 422)
      for (const entry of error.errors) {
        const [side, index] = tokensOf(entry.pointer ?? "");
        const w =
          side === "create" ? sets[Number(index)] : side === "delete" ? deletes[Number(index)] : undefined;
        if (w) named.set(w, [...(named.get(w) ?? []), entry as Record<string, unknown>]);
      }
    const all = [...sets, ...deletes];
    if (named.size === 0) {
      for (const w of all) w.reject(error);
      return [];
    }
    for (const [w, entries] of named) {
      if (w.op === "delete" && entries.every((e) => vanished.has(String(e.reason)))) {
        w.resolve();
        continue;
      }
      const side = w.op === "delete" ? "delete" : "create";
      const prefix = `/${side}/${(side === "delete" ? deletes : sets).indexOf(w as never)}`;
      const detail = entries.map((e) => String(e.message ?? e.reason)).join("; ");
      w.reject(itemError({ ...(error as ApiError).problem, detail, errors: entries }, prefix, route));
    }
    return all.filter((w) => !named.has(w));
  }

  async function settleSet(
    ctx: BatchContext,
    w: CreateWrite | UpdateWrite,
    row: Row | undefined,
    replayed: boolean,
  ): Promise<void> {
    if (w.op === "update") w.resolve();
    else if (!row) w.reject(new Error(`the transaction did not answer ${pairKey(w.body)}`));
    // A replayed answer is as old as its key: the object is read instead of taken from it.
    else await ctx.created(w, String(row.id), replayed, replayed ? undefined : row);
  }

  return {
    family: () => "all",
    updateItem(_kind, live, desired, changes) {
      if (changes.some((c) => tokensOf(c.path)[0] !== setMember)) return undefined;
      return { ...pairOf(live), [setMember]: desired[setMember] };
    },
    async send(ctx, batch) {
      for (const chunk of await chunked(ctx, batch)) await transaction(ctx, chunk);
    },
  };
}

export const batchRoutes: Partial<Record<EngineKind["name"], BatchRoute>> = {
  monitor: monitors,
  contact: contacts,
  alertSubscription: subscriptions("alertTypes", (o) => o.alertSubscriptions),
  reportSubscription: subscriptions("frequencies", (o) => o.reportSubscriptions),
};
