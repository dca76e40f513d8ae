/**
 * The contract of a batch route (the requests `BatchedWrites` sends for many writes of one kind), and the
 * small helpers every route shares. Each route is declared in its kind's own file and registered in
 * `index.ts` by the kind it declares.
 */
import { touchesSide, updateBody } from "../apply/bodies.ts";
import type { BatchContext, CreateWrite, UpdateWrite, Write } from "../batch-contract.ts";
import type { EngineKind, Members, Row } from "../kinds/index.ts";
import type { Change, KindName } from "../model.ts";
import { canonicalJson } from "../state/index.ts";

export interface BatchRoute<N extends KindName = KindName> {
  /** The kind it writes: the route is declared in that kind's own file, and registered by this name. */
  kind: N;
  /** The queue a write joins: the writes of one family go out in one request. */
  family(op: Write["op"]): string;
  /** An update's bulk item; undefined when its changes do not fit the item (it takes its single route). */
  updateItem?(kind: EngineKind, live: Row, desired: Members, changes: readonly Change[]): Members | undefined;
  /** Sends a batch of two or more writes of one family, settling each. */
  send(ctx: BatchContext, batch: Write[]): Promise<void>;
}

export const itemOf = (w: CreateWrite | UpdateWrite) => (w.op === "create" ? w.body : w.item);
/** The write's own key: a batch's key derives from them too, so an update of another moment never replays. */
export const ownKey = (w: Write) =>
  w.op === "create" ? w.keysFor(w.body, 0)("create") : w.op === "update" ? w.keyFor("update") : w.key;

/** In content order, so a batch's key does not depend on the order its writes arrived in. */
export function sorted<T extends Write>(writes: readonly T[], content: (w: T) => unknown): T[] {
  return writes
    .map((w) => ({ w, text: canonicalJson(content(w)) }))
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map(({ w }) => w);
}

export async function chunked<T>(ctx: BatchContext, items: readonly T[]): Promise<T[][]> {
  const size = Math.max(1, await ctx.maxItems());
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export const jobOptions = (ctx: BatchContext, key: string) => ({
  idempotencyKey: key,
  ...(ctx.time && { time: ctx.time }),
});

export const byOp = <T extends Write["op"]>(batch: readonly Write[], op: T) =>
  batch.filter((w): w is Extract<Write, { op: T }> => w.op === op);

/** The PATCH body of an update, unless it touches members written by a call of their own. */
export function patchOf(kind: EngineKind, desired: Members, changes: readonly Change[]): Members | undefined {
  if (touchesSide(kind, changes)) return undefined;
  const body = updateBody(kind, changes, desired, kind.normalizeDesired(desired));
  // Nothing to send: the single route sends nothing either.
  return Object.keys(body).length > 0 ? body : undefined;
}
