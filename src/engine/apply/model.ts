/** What apply takes and answers, and the unit of work it carries through a plan's actions. */
import type { Operations, TimeSource } from "../../api/index.ts";
import type { EngineKind, Members, Row } from "../kinds/index.ts";
import type { DesiredResource, KindName, PlannedAction, State, StateLock } from "../model.ts";

export interface ApplyFailure {
  address: string;
  action: string;
  message: string;
  /** The API's problem document, when the API refused. */
  problem?: Record<string, unknown>;
}

export interface ApplyResult {
  done: { address: string; action: string; id?: string }[];
  failures: ApplyFailure[];
  /** Planned cascades the delete receipts did not name. */
  cascadeMismatches: string[];
}

export interface ApplyOptions {
  ops: Operations;
  lock: StateLock;
  state: State;
  actions: readonly PlannedAction[];
  desired: readonly DesiredResource[];
  /** Live rows known to the plan, by kind and id (bulk deletes need to know a kind in full). */
  live: Map<KindName, Map<string, Row>>;
  /** Kinds whose live rows are complete. */
  complete: ReadonlySet<KindName>;
  maxBulkItems: number;
  /** Single calls in flight at once. */
  concurrency?: number;
  time?: TimeSource;
  now?: () => number;
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Told, as soon as a create answers, each credential the service generated (a webhook's secret when the
   * config sets none): the answer is the only time it is shown, and the state keeps no credential, so the
   * frontend must hand it to the user now. Awaited before apply goes on.
   */
  onGenerated?: (value: GeneratedValue) => Promise<void>;
  /**
   * Stops the apply (Ctrl+C): once aborted, no write starts; the writes under way end and are saved as
   * usual, then the apply ends with `ApplyInterruptedError`, carrying what it did.
   */
  signal?: AbortSignal;
}

/** A credential the service generated and showed once. */
export interface GeneratedValue {
  address: string;
  kind: KindName;
  id: string;
  /** The member: `secret`. */
  member: string;
  value: string;
}

/** One resource settled by apply: frontends draw progress bars or log lines from these. */
export interface ProgressEvent {
  address: string;
  action: PlannedAction["action"];
  outcome: "done" | "failed";
  /** Why it failed, or what else happened (`adopted existing <id>`). */
  message?: string;
}

/** One resource on its way through apply. */
export interface Work {
  action: PlannedAction;
  kind: EngineKind;
  desired?: DesiredResource;
  /** Desired members with references resolved (once their targets exist). */
  members?: Members;
  live?: Row;
}

/** Deposed: the old half of a create-first replace, kept in the state until deleted so it is never orphaned. */
export const deposed = (address: string) => `${address}#deposed`;

/** Where the state keeps the object a delete removes. */
export function stateAddressOf(work: Work): string {
  return work.action.action === "replace" ? deposed(work.action.address) : work.action.address;
}
