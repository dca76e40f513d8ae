/**
 * The engine's two entry points for frontends that keep their state with
 * vigil (the GitOps CLI): plan, and apply (a fresh plan, or a saved one).
 * Both hold the state lock for their whole run.
 */
import type { Operations, TimeSource } from "../api/index.ts";
import { type ApplyResult, applyActions, type ProgressEvent } from "./apply/apply.ts";
import type { DesiredResource, KindName, Plan, State, StateLock, StateStore } from "./model.ts";
import { makePlan } from "./plan.ts";
import { resolvePending, waitForPendingJobs } from "./recover.ts";
import { type Inventory, refresh } from "./refresh.ts";
import { checkSavedPlan } from "./stale.ts";
import { newState } from "./state/index.ts";

export interface EngineOptions {
  ops: Operations;
  store: StateStore;
  desired: readonly DesiredResource[];
  time?: TimeSource;
  /** `state` skips the full lists and trusts the state (plus delta sync). */
  refresh?: "full" | "state";
  allowEmpty?: boolean;
  imports?: readonly { address: string; id: string }[];
  concurrency?: number;
  onProgress?: (event: ProgressEvent) => void;
}

export interface PlanOutcome {
  plan: Plan;
  /** What was resolved of an earlier, interrupted run. */
  notes: string[];
  inventory: Inventory;
}

/** The kinds worth reading: those the config or the state mentions. */
function kindsOf(desired: readonly DesiredResource[], state: State): KindName[] {
  return [
    ...new Set<KindName>([
      ...desired.map((d) => d.kind),
      ...Object.values(state.resources).map((r) => r.kind),
    ]),
  ];
}

async function withLock<T>(store: StateStore, fn: (lock: StateLock) => Promise<T>): Promise<T> {
  const lock = await store.lock();
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}

async function planUnderLock(
  options: EngineOptions,
  lock: StateLock,
): Promise<PlanOutcome & { state: State }> {
  const saved = await lock.read();
  const state = saved ?? newState();
  const notes = await waitForPendingJobs(options.ops, state, options.time);
  const inventory = await refresh(options.ops, {
    kinds: kindsOf(options.desired, state),
    state,
    mode: options.refresh ?? "full",
    ...(options.allowEmpty && { allowEmpty: true }),
  });
  const resolved = resolvePending(state, inventory);
  notes.push(...resolved);
  state.accountId ??= inventory.accountId;
  if (resolved.length > 0) {
    state.serial++;
    await lock.write(state);
  }
  const plan = makePlan({
    desired: options.desired,
    state,
    stateMissing: saved === undefined,
    inventory,
    ...(options.imports && { imports: options.imports }),
  });
  return { plan, notes, inventory, state };
}

export function planChanges(options: EngineOptions): Promise<PlanOutcome> {
  return withLock(options.store, async (lock) => {
    const { state: _state, ...outcome } = await planUnderLock(options, lock);
    return outcome;
  });
}

export interface ApplyOutcome {
  plan: Plan;
  result: ApplyResult;
  notes: string[];
}

/**
 * Applies a saved plan (after checking nothing it relied on changed), or plans
 * afresh and applies that. The state is saved after every operation.
 */
export function applyChanges(options: EngineOptions & { plan?: Plan }): Promise<ApplyOutcome> {
  return withLock(options.store, async (lock) => {
    if (options.plan) {
      const state = (await lock.read()) ?? newState();
      const fresh = await checkSavedPlan(options.ops, options.plan, state, options.desired);
      state.accountId ??= options.plan.accountId;
      const result = await applyActions({
        ...common(options, lock, state),
        actions: options.plan.actions,
        live: fresh.live,
        complete: fresh.complete,
        maxBulkItems: fresh.maxBulkItems,
      });
      return { plan: options.plan, result, notes: [] };
    }
    const { plan, notes, inventory, state } = await planUnderLock(options, lock);
    const result = await applyActions({
      ...common(options, lock, state),
      actions: plan.actions,
      live: inventory.byId,
      complete: inventory.complete,
      maxBulkItems: inventory.maxBulkItems,
    });
    state.syncCursors = { ...state.syncCursors, ...inventory.syncCursors };
    state.serial++;
    await lock.write(state);
    return { plan, result, notes };
  });
}

function common(options: EngineOptions, lock: StateLock, state: State) {
  return {
    ops: options.ops,
    lock,
    state,
    desired: options.desired,
    ...(options.concurrency && { concurrency: options.concurrency }),
    ...(options.time && { time: options.time }),
    ...(options.onProgress && { onProgress: options.onProgress }),
  };
}
