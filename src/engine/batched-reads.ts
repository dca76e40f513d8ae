/**
 * Single-object reads for the frontends whose host reads one resource per call (Terraform's ReadResource on
 * every plan, Pulumi's Read on refresh). Those calls arrive together, so the reads of one kind that are
 * waiting at the same moment are answered by one listing of the kind (500 objects a read) instead of a read
 * each. A listing answers only the reads that were waiting when it started, never a later one, so an answer
 * is as fresh as the single read it replaces. The reads wait for each other in the adaptive window of the
 * writes (`waves.ts`): a wave goes once the host's whole parallelism of reads is here, or once no read has
 * joined it for the quiet window, so a refresh at Terraform's parallelism of 10 costs a listing per 10 reads.
 */
import { isGone, type Operations } from "../api/index.ts";
import type { EngineKind, Row } from "./kinds/index.ts";
import { Waves } from "./waves.ts";

interface Waiting {
  row: Row;
  resolve(row: Row | undefined): void;
  reject(error: unknown): void;
}

/** Objects a list page holds. */
const pageSize = 500;

export class BatchedReads {
  readonly #ops: Operations;
  readonly #waiting = new Map<string, { kind: EngineKind; reads: Waiting[] }>();
  readonly #waves: Waves;
  /** Pages the last listing of a kind took: a listing pays only when more reads than that are waiting. */
  readonly #pages = new Map<string, number>();

  /**
   * `quietMs`: how long a wave of reads stays open with no read joining it, at least; `maxWaitMs`: the
   * longest a read waits for others.
   */
  constructor(ops: Operations, options: { quietMs?: number; maxWaitMs?: number } = {}) {
    this.#ops = ops;
    this.#waves = new Waves(
      { quietMs: options.quietMs ?? 25, maxWaitMs: options.maxWaitMs ?? 500 },
      () => [...this.#waiting.values()].reduce((n, w) => n + w.reads.length, 0),
      () => this.#flush(),
    );
  }

  /** The object as it is now; undefined once it is gone. */
  read(kind: EngineKind, row: Row): Promise<Row | undefined> {
    this.#waves.entered();
    return new Promise<Row | undefined>((resolve, reject) => {
      const waiting = this.#waiting.get(kind.name) ?? { kind, reads: [] };
      this.#waiting.set(kind.name, waiting);
      waiting.reads.push({ row, resolve, reject });
      this.#waves.queued();
    }).finally(() => this.#waves.left());
  }

  #flush(): void {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const { kind, reads } of waiting) void this.#answer(kind, reads);
  }

  async #answer(kind: EngineKind, batch: Waiting[]): Promise<void> {
    // Until a listing has shown the kind's size, it is taken to fit one page.
    if (batch.length <= (this.#pages.get(kind.name) ?? 1)) {
      await Promise.all(batch.map((w) => this.#readOne(kind, w)));
      return;
    }
    try {
      const { rows } = await kind.listAll(this.#ops);
      this.#pages.set(kind.name, Math.max(1, Math.ceil(rows.length / pageSize)));
      const byId = new Map(rows.map((row) => [String(row.id), row]));
      for (const w of batch) w.resolve(byId.get(String(w.row.id)));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }

  async #readOne(kind: EngineKind, w: Waiting): Promise<void> {
    try {
      w.resolve(await kind.getOne(this.#ops, w.row));
    } catch (error) {
      if (isGone(error)) w.resolve(undefined);
      else w.reject(error);
    }
  }
}
