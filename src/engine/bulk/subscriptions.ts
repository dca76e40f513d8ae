/**
 * Subscriptions in bulk: creates (each replacing its pair's set, as the single PUT does), set changes and
 * deletes of a kind go in one `{create, delete}` transaction (`POST /alert/bulk`, `/report/bulk`), answered
 * at once. It is all or nothing, so the items it refuses (pointers `/create/<i>`, `/delete/<i>`) fail alone
 * and the rest are sent again.
 */
import { ApiError, itemError, type Operations } from "../../api/index.ts";
import { vanished } from "../apply/refusals.ts";
import type { Row } from "../kinds/index.ts";
import type { KindName } from "../model.ts";
import { tokensOf } from "../pointer.ts";
import {
  type BulkContext,
  type BulkCreate,
  type BulkRoute,
  type BulkUpdate,
  type BulkWrite,
  byOp,
  chunked,
  type ItemOutcome,
} from "./route.ts";

function subscriptions(
  name: KindName,
  setMember: string,
  routesOf: (ops: Operations) => Operations["alertSubscriptions"] | Operations["reportSubscriptions"],
): BulkRoute {
  const pairOf = (row: Row) => ({ monitorId: String(row.monitorId), contactId: String(row.contactId) });
  const pairKey = (row: Row) => `${row.monitorId}/${row.contactId}`;
  const setItem = (w: BulkCreate | BulkUpdate) =>
    w.op === "create" ? { ...pairOf(w.body), [setMember]: w.body[setMember] } : w.item;

  async function transaction<W extends BulkWrite>(ctx: BulkContext<W>, writes: readonly W[]): Promise<void> {
    const kind = writes[0]!.kind;
    const route = `POST /${kind.definition.paths.collection.slice(1)}/bulk`;
    let remaining = writes;
    while (remaining.length >= ctx.policy.transaction) {
      const sets = ctx.order(
        remaining.filter((w): w is Extract<W, BulkCreate | BulkUpdate> => w.op !== "delete"),
        setItem,
      );
      const deletes = ctx.order(byOp(remaining, "delete"), (w) => pairOf(w.live));
      const body = {
        ...(sets.length > 0 && { create: sets.map(setItem) }),
        ...(deletes.length > 0 && { delete: deletes.map((w) => pairOf(w.live)) }),
      };
      const sent = await ctx.send(
        { label: route, content: body },
        [...sets, ...deletes],
        [...(body.create ?? []), ...(body.delete ?? [])],
        (options) => routesOf(ctx.ops).bulk(body, { idempotencyKey: options.idempotencyKey }),
      );
      if ("error" in sent) {
        remaining = await refused(ctx, sent.error, sets, deletes, route);
        continue;
      }
      const created = new Map(
        ((sent.answer as { created?: Row[] }).created ?? []).map((r) => [pairKey(r), r]),
      );
      await ctx.settle([
        ...sets.map((write) => ({ write, outcome: setOutcome(write, created, sent.replayed) })),
        ...deletes.map((write) => ({ write, outcome: deleted(write, sent.replayed) })),
      ]);
      return;
    }
    await ctx.single(remaining);
  }

  function setOutcome(w: BulkCreate | BulkUpdate, created: Map<string, Row>, replayed: boolean): ItemOutcome {
    const row = created.get(pairKey(setItem(w)));
    if (w.op === "update")
      return { done: true, id: String(row?.id ?? w.live.id), status: "updated", replayed };
    if (!row) return { done: false, error: new Error(`the transaction did not answer ${pairKey(w.body)}`) };
    return { done: true, id: String(row.id), status: "created", answer: row, replayed };
  }

  return {
    kind: name,
    queueOf: () => "all",
    updateItem(_kind, live, desired, changes) {
      if (changes.length === 0 || changes.some((c) => tokensOf(c.path)[0] !== setMember)) return undefined;
      return { ...pairOf(live), [setMember]: desired[setMember] };
    },
    async send(ctx, writes) {
      for (const chunk of await chunked(ctx, writes)) await transaction(ctx, chunk);
    },
  };
}

const deleted = (w: BulkWrite & { live: Row }, replayed: boolean): ItemOutcome => ({
  done: true,
  id: String(w.live.id),
  status: "deleted",
  replayed,
});

/**
 * A refused transaction: the items its errors name fail (a delete whose pair is already gone is done);
 * answers the rest, to send again. A refusal that names no item fails them all.
 */
async function refused<W extends BulkWrite>(
  ctx: BulkContext<W>,
  error: unknown,
  sets: readonly W[],
  deletes: readonly Extract<W, { op: "delete" }>[],
  route: string,
): Promise<W[]> {
  const named = new Map<W, Record<string, unknown>[]>();
  if (error instanceof ApiError && error.status === 422)
    for (const entry of error.errors) {
      const [side, index] = tokensOf(entry.pointer ?? "");
      const w =
        side === "create" ? sets[Number(index)] : side === "delete" ? deletes[Number(index)] : undefined;
      if (w) named.set(w, [...(named.get(w) ?? []), entry as Record<string, unknown>]);
    }
  const all = [...sets, ...deletes];
  if (named.size === 0) {
    await ctx.settle(all.map((write) => ({ write, outcome: { done: false, error } })));
    return [];
  }
  const outcomes = [...named].map(([write, entries]) => {
    if (write.op === "delete" && entries.every((e) => vanished.has(String(e.reason))))
      return { write, outcome: deleted(write, false) };
    const side = write.op === "delete" ? "delete" : "create";
    const prefix = `/${side}/${(side === "delete" ? deletes : sets).indexOf(write as never)}`;
    const detail = entries.map((e) => String(e.message ?? e.reason)).join("; ");
    const problem = { ...(error as ApiError).problem, detail, errors: entries };
    return { write, outcome: { done: false, error: itemError(problem, prefix, route) } as ItemOutcome };
  });
  await ctx.settle(outcomes);
  return all.filter((w) => !named.has(w));
}

export const alertSubscriptions = subscriptions(
  "alertSubscription",
  "alertTypes",
  (o) => o.alertSubscriptions,
);
export const reportSubscriptions = subscriptions(
  "reportSubscription",
  "frequencies",
  (o) => o.reportSubscriptions,
);
