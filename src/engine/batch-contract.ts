/**
 * The contract between the batched writes (`batched-writes.ts`) and the bulk routes that carry them
 * (`batch-routes/`): the waiting writes, and what a route is given to send and settle them.
 */
import type { TimeSource } from "../api/index.ts";
import type { CreateSession, KeyFor } from "./apply/object.ts";
import type { BatchedReads } from "./batched-reads.ts";
import type { EngineKind, Members, Row } from "./kinds/index.ts";
import type { Change } from "./model.ts";

interface Waiting<T> {
  kind: EngineKind;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export interface CreateWrite extends Waiting<Row> {
  op: "create";
  desired: Members;
  /** The create body. */
  body: Members;
  keysFor: (body: Members, attempt: number) => KeyFor;
}

export interface UpdateWrite extends Waiting<void> {
  op: "update";
  live: Row;
  desired: Members;
  changes: readonly Change[];
  keyFor: KeyFor;
  /** The bulk item that carries the changes. */
  item: Members;
}

export interface DeleteWrite extends Waiting<void> {
  op: "delete";
  live: Row;
  key: string;
}

export type Write = CreateWrite | UpdateWrite | DeleteWrite;

/** The session the writes go through (`ObjectSession`, whose `writes` this is). */
export type WriteSession = CreateSession & { reads: BatchedReads };

/** What the batch routes of `batch-routes/` are given: the session, and the single routes to fall back on. */
export interface BatchContext {
  session: WriteSession;
  time?: TimeSource;
  /** `limits.maxBulkItems` of the account, read once. */
  maxItems(): Promise<number>;
  /** An idempotency key derived from a batch's content (each item's own key among it). */
  keyFor(label: string, content: unknown): string;
  single(write: Write): Promise<void>;
  /**
   * Settles a create whose object exists: the id joins the session, and the object is completed and read
   * (`row`: the answer, when it is the whole object and fresh).
   */
  created(write: CreateWrite, id: string, replayed: boolean, row?: Row): Promise<void>;
}
