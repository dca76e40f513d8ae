/**
 * Single-object writes for the frontends whose host writes one resource per call (Terraform's
 * ApplyResourceChange, Pulumi's Create, Update and Delete). Those calls arrive together, up to the host's
 * parallelism at once, so the writes of one kind that are waiting at the same moment are sent as one request
 * the API offers for many (a bulk job, or a subscription transaction: the kind's route in `bulk/`), and each caller
 * gets its own item's answer: its object, or its own error with pointers at its own members.
 *
 * The window is adaptive (`waves.ts`). A batch closes once no change has joined it for `quietMs`, or at once
 * when every call the host can have in flight is already here: the most calls ever seen in flight together
 * (the host's parallelism, learned from the first wave) are all waiting or already sent, so no further
 * change can arrive.
 * A batch of one goes through the single-object route, so a lone change costs no job and no polling.
 */
import { createHash } from "node:crypto";
import type { TimeSource } from "../api/index.ts";
import { createBody } from "./apply/bodies.ts";
import {
  type CreateSession,
  createObject,
  finishCreate,
  type KeyFor,
  patchObject,
  removeObject,
  SharedObjectError,
  UnfinishedCreateError,
} from "./apply/object.ts";
import type { BatchedReads } from "./batched-reads.ts";
import { bulkRoutes } from "./bulk/index.ts";
import { batchPolicy } from "./bulk/policy.ts";
import type { BulkContext, BulkCreate, BulkDelete, BulkUpdate, ItemOutcome } from "./bulk/route.ts";
import type { EngineKind, Members, Row } from "./kinds/index.ts";
import type { Change } from "./model.ts";
import { canonicalJson } from "./state/index.ts";
import { Waves } from "./waves.ts";

interface Waiting<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

interface CreateWrite extends BulkCreate, Waiting<Row> {
  desired: Members;
  keysFor: (body: Members, attempt: number) => KeyFor;
}

interface UpdateWrite extends BulkUpdate, Waiting<void> {
  desired: Members;
  changes: readonly Change[];
  keyFor: KeyFor;
}

interface DeleteWrite extends BulkDelete, Waiting<void> {
  key: string;
}

type Write = CreateWrite | UpdateWrite | DeleteWrite;

/** The session the writes go through (`ObjectSession`, whose `writes` this is). */
export type WriteSession = CreateSession & { reads: BatchedReads };

/** The write's own key: a batch's key derives from them too, so an update of another moment never replays. */
const ownKey = (w: Write) =>
  w.op === "create" ? w.keysFor(w.body, 0)("create") : w.op === "update" ? w.keyFor("update") : w.key;

/** In content order, so a batch's key does not depend on the order its writes arrived in. */
function sorted<T>(writes: readonly T[], content: (w: T) => unknown): T[] {
  return writes
    .map((w) => ({ w, text: canonicalJson(content(w)) }))
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map(({ w }) => w);
}

export interface BatchedWritesOptions {
  /** Prefix of the batches' idempotency keys (the frontend's, as for its single writes). */
  keyPrefix: string;
  /** False: every write takes its single-object route, as without batching. */
  enabled?: boolean;
  /**
   * A batch closes once no change joined it for this long, at least; the window grows to twice the longest
   * pause the host has made between the changes of one wave.
   */
  quietMs?: number;
  /** The longest a change waits for others, however many keep arriving. */
  maxWaitMs?: number;
  /** Clock of the job polls' `Retry-After` waits. */
  time?: TimeSource;
}

export class BatchedWrites {
  readonly #session: WriteSession;
  readonly #options: Required<Omit<BatchedWritesOptions, "time">> & { time?: TimeSource };
  readonly #queues = new Map<string, Write[]>();
  readonly #waves: Waves;
  #maxItems: Promise<number> | undefined;

  constructor(session: WriteSession, options: BatchedWritesOptions) {
    this.#session = session;
    this.#options = { enabled: true, quietMs: 100, maxWaitMs: 1500, ...options };
    this.#waves = new Waves(
      this.#options,
      () => [...this.#queues.values()].reduce((n, q) => n + q.length, 0),
      () => this.#flush(),
    );
  }

  /** Creates an object (and completes it, as `createObject` does); answers it as it now is. */
  create(
    kind: EngineKind,
    desired: Members,
    keysFor: (body: Members, attempt: number) => KeyFor,
  ): Promise<Row> {
    return this.#enter<Row>((resolve, reject) => ({
      op: "create",
      kind,
      desired,
      body: createBody(kind, desired),
      keysFor,
      resolve,
      reject,
    }));
  }

  /** Applies `changes` to a live object, as `patchObject` does. */
  update(
    kind: EngineKind,
    live: Row,
    desired: Members,
    changes: readonly Change[],
    keyFor: KeyFor,
  ): Promise<void> {
    const item = bulkRoutes[kind.name]?.updateItem(kind, live, desired, changes);
    return this.#enter<void>((resolve, reject) => ({
      op: "update",
      kind,
      live,
      desired,
      changes,
      keyFor,
      item: item ?? {},
      resolve,
      reject,
      // An update whose changes do not fit the bulk item takes its single route at once.
      ...(item === undefined && { alone: true }),
    }));
  }

  /** Deletes an object; one already gone is not an error. */
  remove(kind: EngineKind, live: Row, key: string): Promise<void> {
    return this.#enter<void>((resolve, reject) => ({ op: "delete", kind, live, key, resolve, reject }));
  }

  #enter<T>(make: (resolve: (v: T) => void, reject: (e: unknown) => void) => Write & { alone?: true }) {
    this.#waves.entered();
    return new Promise<T>((resolve, reject) => {
      const write = make(resolve, reject);
      const queueName = bulkRoutes[write.kind.name]?.queueOf(write.op);
      if (!this.#options.enabled || queueName === undefined || write.alone) {
        this.#single(write).then(() => undefined, write.reject);
        return;
      }
      const queue = `${write.kind.name}/${queueName}`;
      this.#queues.set(queue, [...(this.#queues.get(queue) ?? []), write]);
      this.#waves.queued();
    }).finally(() => this.#waves.left());
  }

  #flush(): void {
    const queues = [...this.#queues.values()];
    this.#queues.clear();
    for (const batch of queues) void this.#send(batch);
  }

  async #send(batch: Write[]): Promise<void> {
    if (batch.length === 1) {
      await this.#single(batch[0]!).catch(batch[0]!.reject);
      return;
    }
    const route = bulkRoutes[batch[0]!.kind.name]!;
    try {
      await route.send(this.#context(), batch);
    } catch (error) {
      // Whatever the route had not settled fails with the batch's problem (settled promises ignore it).
      for (const w of batch) w.reject(error);
    }
  }

  #context(): BulkContext<Write> {
    const session = this.#session;
    const time = this.#options.time && { time: this.#options.time };
    const keyFor = (label: string, writes: readonly Write[], content: unknown) =>
      `${this.#options.keyPrefix}-batch-${createHash("sha256")
        .update(canonicalJson([label, content, writes.map(ownKey)]))
        .digest("hex")
        .slice(0, 40)}`;
    return {
      ops: session.ops,
      ...time,
      policy: batchPolicy,
      maxItems: () => {
        this.#maxItems ??= session.ops.account.get().then((account) => {
          const limits = (account.limits ?? {}) as { maxBulkItems?: unknown };
          return typeof limits.maxBulkItems === "number" ? limits.maxBulkItems : 1;
        });
        return this.#maxItems;
      },
      order: sorted,
      complete: () => undefined,
      reads: true,
      keyFor,
      async send(request, writes, _bodies, call) {
        const key = keyFor(request.label, writes, request.content);
        try {
          return { answer: await call({ idempotencyKey: key, ...time }), replayed: session.replayed(key) };
        } catch (error) {
          return { error };
        }
      },
      settle: async (outcomes) => {
        await Promise.all(outcomes.map(({ write, outcome }) => this.#settle(write, outcome)));
      },
      single: async (writes) => {
        await Promise.all(writes.map((w) => this.#single(w)));
      },
    };
  }

  /** Settles a write from its item's outcome. A duplicate is refused, never adopted: the object may be another state's. */
  async #settle(write: Write, outcome: ItemOutcome): Promise<void> {
    if (!outcome.done) write.reject(outcome.error);
    else if (write.op !== "create") write.resolve();
    // `createdDisabled`: created, and disabled by the plan's limit, as the object then reads.
    else if (outcome.status === "created" || outcome.status === "createdDisabled")
      // A replayed answer is as old as its key: the object is read instead of taken from it.
      await this.#created(
        write,
        String(outcome.id),
        outcome.replayed,
        outcome.replayed ? undefined : outcome.answer,
      );
    // A create-or-update job that found the address taken (by a contact made since the batch looked).
    else
      write.reject(
        new Error(
          `a ${write.kind.name} with this natural key already existed (${outcome.id}); the bulk write ${outcome.status} it instead of creating one: import it`,
        ),
      );
  }

  /** One write through its single-object route; settles the write. */
  async #single(write: Write): Promise<void> {
    const session = this.#session;
    try {
      if (write.op === "create") {
        write.resolve(await createObject(session, write.kind, write.desired, write.keysFor));
      } else if (write.op === "update") {
        await patchObject(session.ops, write.kind, write.live, write.desired, write.changes, write.keyFor);
        write.resolve();
      } else {
        await removeObject(session.ops, write.kind, write.live, write.key);
        write.resolve();
      }
    } catch (error) {
      write.reject(error);
    }
  }

  async #created(write: CreateWrite, id: string, replayed: boolean, answered?: Row): Promise<void> {
    const session = this.#session;
    if (session.created.has(id)) {
      write.reject(new SharedObjectError(id));
      return;
    }
    const read = () => session.reads.read(write.kind, { ...write.desired, id });
    let row = answered ?? (await read());
    if (!row) {
      // A replayed batch answered an object deleted since: the single route makes a new one.
      if (replayed) await this.#single(write);
      else write.reject(new Error(`${write.kind.name} ${id} was created, then gone before it could be read`));
      return;
    }
    session.created.add(id);
    try {
      if (await finishCreate(session.ops, write.kind, id, write.desired, write.keysFor(write.body, 0)))
        row = (await read()) ?? row;
    } catch (error) {
      write.reject(new UnfinishedCreateError(row, error));
      return;
    }
    write.resolve(row);
  }
}
