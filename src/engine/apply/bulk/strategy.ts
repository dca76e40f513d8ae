/**
 * The contract of a bulk strategy: what it asks of apply (a narrow view of the applier), and the small
 * helpers every strategy shares.
 */
import type { Members } from "../../kinds/index.ts";
import type { KindName, ResourceState } from "../../model.ts";
import type { Journal } from "../journal.ts";
import { type ApplyOptions, stateAddressOf, type Work } from "../model.ts";

/**
 * What a bulk strategy needs of apply: its inputs, the journal, each work's bookkeeping, and the single calls
 * it falls back on.
 */
export interface BulkApplier {
  readonly options: Pick<ApplyOptions, "ops" | "maxBulkItems" | "time" | "live" | "complete">;
  readonly journal: Pick<
    Journal,
    "keyFor" | "begin" | "assertMayStart" | "attachJob" | "save" | "settle" | "abandon"
  >;
  /** The state's entry at an address. */
  entryAt(address: string): ResourceState | undefined;
  /** Desired members with references resolved; undefined (and a failure) when a target failed or has no id. */
  resolve(work: Work): Members | undefined;
  /** The state entry for an address once its object matches the config. */
  entryFor(work: Work, id: string): ResourceState;
  /** The entry of an object being created: everything but the id. */
  pendingEntry(work: Work): ResourceState;
  succeed(work: Work, id?: string): void;
  fail(work: Work, error: unknown): void;
  /** A write failed: its journal entry goes back to what it was when the write cannot have happened. */
  undo(address: string, before: ResourceState | undefined, error: unknown): void;
  /** Takes back the failures with this problem code, for a fallback to retry their works; whether there were any. */
  retract(code: string): boolean;
  /** Records the cascaded objects a delete's receipt named. */
  noteCascaded(cascaded: Partial<Record<KindName, string[]>>): void;
  /** Runs `fn` over `items`, a bounded number at once. */
  each<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void>;
  createOne(work: Work): Promise<void>;
  updateOne(work: Work): Promise<void>;
  deleteOne(work: Work, stateAddress?: string): Promise<void>;
  /** A create refused as a duplicate adopts the existing object when no other address manages it. */
  adoptDuplicate(work: Work, error: unknown, before: ResourceState | undefined): Promise<boolean>;
}

export interface BulkStrategy {
  /** The kind it writes: the strategy is declared in that kind's own file, and registered by this name. */
  kind: KindName;
  write(applier: BulkApplier, creates: Work[], updates: Work[]): Promise<void>;
  remove?(applier: BulkApplier, deletes: Work[]): Promise<void>;
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Resolved works with what their write needs; unresolvable ones are already recorded as failed. */
export function resolved(applier: BulkApplier, works: readonly Work[]): Work[] {
  return works.filter((w) => applier.resolve(w) !== undefined);
}

/** Where a bulk item's write is journaled: a delete's object (a replace's deposed half), else the address itself. */
export function journalAddress(work: Work, action: "create" | "update" | "delete"): string {
  return action === "delete" ? stateAddressOf(work) : work.action.address;
}
