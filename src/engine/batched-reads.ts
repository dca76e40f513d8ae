/**
 * Single-object reads for the frontends whose host reads one resource per call (Terraform's ReadResource on
 * every plan, Pulumi's Read on refresh). Those calls arrive together, so the reads of one kind that are
 * waiting at the same moment are answered by one listing of the kind (500 objects a read) instead of a read
 * each. A listing answers only the reads that were waiting when it started, never a later one, so an answer
 * is as fresh as the single read it replaces.
 */
import { ApiError, type Operations } from "../api/index.ts";
import type { EngineKind, Row } from "./kinds/index.ts";

interface Waiting {
  row: Row;
  resolve(row: Row | undefined): void;
  reject(error: unknown): void;
}

/** Objects a list page holds. */
const pageSize = 500;

export class BatchedReads {
  readonly #ops: Operations;
  readonly #windowMs: number;
  readonly #waiting = new Map<string, Waiting[]>();
  /** Pages the last listing of a kind took: a listing pays only when more reads than that are waiting. */
  readonly #pages = new Map<string, number>();

  /** `windowMs`: how long the first read of a kind waits for others to join it. */
  constructor(ops: Operations, options: { windowMs?: number } = {}) {
    this.#ops = ops;
    this.#windowMs = options.windowMs ?? 25;
  }

  /** The object as it is now; undefined once it is gone. */
  read(kind: EngineKind, row: Row): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      let waiting = this.#waiting.get(kind.name);
      if (!waiting) {
        waiting = [];
        this.#waiting.set(kind.name, waiting);
        setTimeout(() => void this.#answer(kind), this.#windowMs);
      }
      waiting.push({ row, resolve, reject });
    });
  }

  async #answer(kind: EngineKind): Promise<void> {
    const batch = this.#waiting.get(kind.name) ?? [];
    this.#waiting.delete(kind.name);
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
      if (error instanceof ApiError && (error.status === 404 || error.status === 410)) w.resolve(undefined);
      else w.reject(error);
    }
  }
}
