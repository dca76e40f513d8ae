/**
 * The contract of a bulk route (the requests the API offers for many writes of one kind), and what it is
 * given to send and settle them: the CLI's apply (journal around every write, `apply/bulk.ts`) and the
 * providers' batched writes (a caller waiting for each write, `batched-writes.ts`) are its two callers.
 * Each route is declared in its kind's own file and registered in `index.ts` by the kind it declares.
 */
import type { JobRunOptions, Operations, TimeSource } from "../../api/index.ts";
import { touchesSide, updateBody } from "../apply/bodies.ts";
import type { EngineKind, Members, Row } from "../kinds/index.ts";
import type { Change, KindName } from "../model.ts";
import type { BulkPolicy } from "./policy.ts";

export interface BulkCreate {
  op: "create";
  kind: EngineKind;
  /** The create body. */
  body: Members;
}

export interface BulkUpdate {
  op: "update";
  kind: EngineKind;
  live: Row;
  /** The bulk item that carries the changes (the route's `updateItem`). */
  item: Members;
}

export interface BulkDelete {
  op: "delete";
  kind: EngineKind;
  live: Row;
}

/** One write of one object, waiting to go out with others of its kind. */
export type BulkWrite = BulkCreate | BulkUpdate | BulkDelete;

/** How one write's item came out. */
export type ItemOutcome =
  | {
      done: true;
      /** The object's id: a create's new one, as the service answered it. */
      id: string | undefined;
      /** The item's status (`created`, `createdDisabled`, `updated`, `skipped`, `deleted`). */
      status: string;
      /** The whole object, when the service answered it (a subscription transaction's `created`). */
      answer?: Row;
      /** A delete's receipt (what went with the object). */
      receipt?: unknown;
      /** The answer is the stored one of an earlier request with the same key. */
      replayed: boolean;
    }
  | {
      done: false;
      error: unknown;
      /**
       * False: the item certainly changed nothing (refused, or never run). Undefined: nobody can tell (the
       * job did not report it, or the whole request failed, whose journal the context has already undone
       * as far as it can).
       */
      happened?: false;
      /** The id a duplicate refusal names. */
      duplicate?: string;
    };

/** The options of one bulk request: its key, and the job's pace and acceptance. */
export type SendOptions = Pick<JobRunOptions, "onAccepted" | "time"> & { idempotencyKey: string };

/** What a route is given by its caller: the requests' plumbing, and each write's settlement. */
export interface BulkContext<W extends BulkWrite = BulkWrite> {
  readonly ops: Operations;
  readonly time?: TimeSource;
  /** When a bulk request pays, for this caller. */
  readonly policy: BulkPolicy;
  /** Items one request takes at most: the account's `limits.maxBulkItems`. */
  maxItems(): Promise<number>;
  /**
   * The order a request carries writes in: a provider's in content order (its key derives from the content,
   * so it must not depend on the order the writes arrived in), apply's in plan order.
   */
  order<T extends W>(writes: readonly T[], content: (w: T) => unknown): T[];
  /** The kind's live objects, all of them, when known without a call (apply's refresh listed the kind). */
  complete(kind: EngineKind): readonly Row[] | undefined;
  /**
   * Whether a route may read what `complete` does not tell it (the providers, which read as they go).
   * Apply reads nothing after its plan: what it cannot check there takes the single routes.
   */
  readonly reads: boolean;
  /** Throws when no write may start now (an apply told to stop): asked before a phase that costs a write. */
  mayStart?(): void;
  /** An idempotency key for a request about `writes`, derived from `label` and its content. */
  keyFor(label: string, writes: readonly W[], content: unknown): string;
  /**
   * Sends one request carrying `writes` (`bodies`: what each carries, which apply journals first). Answers
   * the answer, or the error after undoing what the write cannot have done.
   */
  send<T>(
    request: { label: string; content: unknown },
    writes: readonly W[],
    bodies: readonly unknown[],
    call: (options: SendOptions) => Promise<T>,
  ): Promise<{ answer: T; replayed: boolean } | { error: unknown }>;
  /** Settles writes from their items' outcomes. */
  settle(outcomes: readonly { write: W; outcome: ItemOutcome }[]): Promise<void>;
  /** Sends writes by their single routes, settling each. */
  single(writes: readonly W[]): Promise<void>;
}

export interface BulkRoute {
  /** The kind it writes: the route is declared in that kind's own file, and registered by this name. */
  kind: KindName;
  /** The writes that may share one request: a provider's batches wait in one queue per name. */
  queueOf(op: BulkWrite["op"]): string;
  /** An update's bulk item; undefined when its changes do not fit one (it takes its single route). */
  updateItem(kind: EngineKind, live: Row, desired: Members, changes: readonly Change[]): Members | undefined;
  /** Sends writes of its kind (any mix of creates, updates and deletes), settling each. */
  send<W extends BulkWrite>(ctx: BulkContext<W>, writes: readonly W[]): Promise<void>;
}

export const byOp = <W extends BulkWrite, T extends BulkWrite["op"]>(writes: readonly W[], op: T) =>
  writes.filter((w): w is Extract<W, { op: T }> => w.op === op);

/** Writes in requests of at most `maxItems`. */
export async function chunked<T>(ctx: Pick<BulkContext, "maxItems">, items: readonly T[]): Promise<T[][]> {
  const size = Math.max(1, await ctx.maxItems());
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The PATCH body of an update, unless it touches members written by a call of their own, or is empty. */
export function patchOf(kind: EngineKind, desired: Members, changes: readonly Change[]): Members | undefined {
  if (touchesSide(kind, changes)) return undefined;
  const body = updateBody(kind, changes, desired, kind.normalizeDesired(desired));
  // Nothing to send: the single route sends nothing either.
  return Object.keys(body).length > 0 ? body : undefined;
}
