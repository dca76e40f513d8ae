/**
 * Subscriptions in batches: the one-transaction `POST /alert/bulk` and `/report/bulk`, answered at once.
 */
import { ApiError, itemError, type Operations } from "../../api/index.ts";
import { vanished } from "../apply/refusals.ts";
import type { BatchContext, CreateWrite, DeleteWrite, UpdateWrite, Write } from "../batch-contract.ts";
import type { Row } from "../kinds/index.ts";
import { tokensOf } from "../pointer.ts";
import { type BatchRoute, byOp, chunked, ownKey, sorted } from "./route.ts";

/**
 * Subscriptions: creates (each replacing its pair's set, as the single PUT does), set changes and deletes
 * of a kind all go in one `{create, delete}` transaction. It is all or nothing, so the items it refuses
 * (pointers `/create/<i>`, `/delete/<i>`) fail alone and the rest are sent again.
 */
function subscriptions<N extends "alertSubscription" | "reportSubscription">(
  name: N,
  setMember: string,
): BatchRoute<N> {
  const routesOf = (ops: Operations): Operations[N] => ops[name];
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
    kind: name,
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

export const alertSubscriptions = subscriptions("alertSubscription", "alertTypes");
export const reportSubscriptions = subscriptions("reportSubscription", "frequencies");
