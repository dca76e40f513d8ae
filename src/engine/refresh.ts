/**
 * Reads the live account the cheap way: each kind is listed in pages of 500
 * (about ceil(N/500) reads) instead of one read per resource. Answers that
 * look like a wrong account or a broken token are errors, never "everything
 * was deleted".
 */
import { ApiError, type Operations } from "../api/index.ts";
import { engineKind, type Row } from "./kinds/index.ts";
import type { KindName, State } from "./model.ts";

export interface Inventory {
  accountId: string;
  /** `GET /account` as read: limits, package features and usage serve the plan's account checks. */
  account?: Row;
  /** `limits.maxBulkItems` of the account. */
  maxBulkItems: number;
  rows: Map<KindName, Row[]>;
  byId: Map<KindName, Map<string, Row>>;
  /** Kinds listed in full: bulk deletes may rely on knowing every object of these. */
  complete: Set<KindName>;
  syncCursors: Partial<Record<KindName, string>>;
}

export class RefreshError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RefreshError";
  }
}

export interface RefreshOptions {
  kinds: readonly KindName[];
  state: State;
  /**
   * `full` lists every kind (the default: delta sync misses edits and deletions);
   * `state` trusts the state and reads only what delta sync reports since the last refresh.
   */
  mode?: "full" | "state";
  /** Accept an empty kind while the state manages objects of it (they really were all deleted). */
  allowEmpty?: boolean;
}

/** A row rebuilt from the state: what vigil last applied, under its id. */
function rowFromState(id: string, managed: Record<string, unknown>): Row {
  return { ...managed, id };
}

export async function refresh(ops: Operations, options: RefreshOptions): Promise<Inventory> {
  const { state } = options;
  let account: Record<string, unknown>;
  try {
    account = await ops.account.get();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      throw new RefreshError(
        `The API refused the token (${error.status} ${error.code}): check the token and its scopes. Nothing was read or changed.`,
        { cause: error },
      );
    }
    throw error;
  }
  const accountId = String(account.id);
  if (state.accountId && state.accountId !== accountId) {
    throw new RefreshError(
      `The state belongs to account ${state.accountId}, but the token reaches account ${accountId}. Use the state of that account.`,
    );
  }
  const limits = (account.limits ?? {}) as { maxBulkItems?: number };
  const inventory: Inventory = {
    accountId,
    account,
    maxBulkItems: limits.maxBulkItems ?? 100,
    rows: new Map(),
    byId: new Map(),
    complete: new Set(),
    syncCursors: { ...state.syncCursors },
  };

  const managedIds = (kind: KindName) =>
    Object.values(state.resources).filter((r) => r.kind === kind && r.id !== undefined);

  for (const name of options.kinds) {
    const kind = engineKind(name);
    let rows: Row[];
    try {
      const cursor = state.syncCursors[name];
      if (options.mode === "state" && (!kind.sync || cursor)) {
        const byId = new Map(managedIds(name).map((r) => [r.id!, rowFromState(r.id!, r.managed)]));
        if (kind.sync && cursor) {
          const delta = await kind.sync(ops, cursor);
          for (const row of delta.rows) byId.set(String(row.id), row);
          if (delta.syncCursor) inventory.syncCursors[name] = delta.syncCursor;
        }
        rows = [...byId.values()];
      } else {
        const listed = await kind.listAll(ops, (k) =>
          inventory.complete.has(k) ? inventory.rows.get(k) : undefined,
        );
        rows = listed.rows;
        if (listed.syncCursor) inventory.syncCursors[name] = listed.syncCursor;
        inventory.complete.add(name);
      }
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        throw new RefreshError(
          `Listing ${kind.section} was refused (${error.status} ${error.code}${error.errors[0]?.required ? `, needs ${error.errors[0].required}` : ""}). A refused read is never taken to mean "nothing exists"; nothing was changed.`,
          { cause: error },
        );
      }
      throw error;
    }
    inventory.rows.set(name, rows);
    inventory.byId.set(name, new Map(rows.map((row) => [String(row.id), row])));
  }
  // The whole account, not one kind: a kind can empty legitimately (the API cascades a monitor's last
  // subscriptions with it), while an account that answers nothing at all is a wrong account or token.
  const held = options.kinds.reduce((n, name) => n + managedIds(name).length, 0);
  const seen = options.kinds.reduce((n, name) => n + (inventory.rows.get(name)?.length ?? 0), 0);
  if (seen === 0 && held > 0 && !options.allowEmpty) {
    throw new RefreshError(
      `The account answered no objects at all, yet the state manages ${held}. That looks like the wrong account or a token that sees nothing, so vigil stops rather than plan to recreate them. If they really were all deleted, refresh with allowEmpty.`,
    );
  }
  return inventory;
}

const naturalKeyIndexes = new WeakMap<Inventory, Map<KindName, Map<string, Row[]>>>();

/**
 * The live objects of a kind with this natural key, from an index built on first use: a plan without
 * state, and the recovery of a whole pending bulk job, look up thousands of keys.
 */
export function liveWithKey(inventory: Inventory, name: KindName, key: string): Row[] {
  let perKind = naturalKeyIndexes.get(inventory);
  if (!perKind) {
    perKind = new Map();
    naturalKeyIndexes.set(inventory, perKind);
  }
  let index = perKind.get(name);
  if (!index) {
    const kind = engineKind(name);
    index = new Map();
    for (const row of inventory.rows.get(name) ?? []) {
      const k = kind.naturalKey(kind.normalizeLive(row));
      if (k !== undefined) index.set(k, [...(index.get(k) ?? []), row]);
    }
    perKind.set(name, index);
  }
  return index.get(key) ?? [];
}
