/**
 * Single-object writes for the frontends whose host writes one resource per call (Terraform's
 * ApplyResourceChange, Pulumi's Create, Update and Delete). Those calls arrive together, up to the host's
 * parallelism at once, so the writes of one kind that are waiting at the same moment are sent as one request
 * the API offers for many (a bulk job, or a subscription transaction; `batch-routes/`), and each caller
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
  createObject,
  finishCreate,
  type KeyFor,
  patchObject,
  removeObject,
  SharedObjectError,
  UnfinishedCreateError,
} from "./apply/object.ts";
import type { BatchContext, CreateWrite, Write, WriteSession } from "./batch-contract.ts";
import { batchRoutes } from "./batch-routes/index.ts";
import type { EngineKind, Members, Row } from "./kinds/index.ts";
import type { Change } from "./model.ts";
import { canonicalJson } from "./state/index.ts";
import { Waves } from "./waves.ts";

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
    const item = batchRoutes[kind.name]?.updateItem?.(kind, live, desired, changes);
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
      const family = batchRoutes[write.kind.name]?.family(write.op);
      if (!this.#options.enabled || family === undefined || write.alone) {
        this.#single(write).then(() => undefined, write.reject);
        return;
      }
      const queue = `${write.kind.name}/${family}`;
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
    const route = batchRoutes[batch[0]!.kind.name]!;
    try {
      await route.send(this.#context(), batch);
    } catch (error) {
      // Whatever the route had not settled fails with the batch's problem (settled promises ignore it).
      for (const w of batch) w.reject(error);
    }
  }

  #context(): BatchContext {
    return {
      session: this.#session,
      ...(this.#options.time && { time: this.#options.time }),
      maxItems: () => {
        this.#maxItems ??= this.#session.ops.account.get().then((account) => {
          const limits = (account.limits ?? {}) as { maxBulkItems?: unknown };
          return typeof limits.maxBulkItems === "number" ? limits.maxBulkItems : 1;
        });
        return this.#maxItems;
      },
      keyFor: (label, content) =>
        `${this.#options.keyPrefix}-batch-${createHash("sha256")
          .update(canonicalJson([label, content]))
          .digest("hex")
          .slice(0, 40)}`,
      single: (write) => this.#single(write),
      created: (write, id, replayed, row) => this.#created(write, id, replayed, row),
    };
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
