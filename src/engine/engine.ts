/**
 * The engine's two entry points for frontends that keep their state with
 * vigil (the GitOps CLI): plan, and apply (a fresh plan, or a saved one).
 * Apply holds the state lock for its whole run; a plan reads without it.
 */
import type { Operations, TimeSource } from "../api/index.ts";
import { AccountAllowances, AccountCheckError, checkPlanAgainstAccount } from "./account-rules.ts";
import { applyActions } from "./apply/apply.ts";
import { StateNotSavedError } from "./apply/journal.ts";
import type { ApplyResult, GeneratedValue, ProgressEvent } from "./apply/model.ts";
import { assertConfigNotEmpty, assertNoMassDelete } from "./guard.ts";
import type { DesiredResource, KindName, Plan, State, StateLock, StateStore } from "./model.ts";
import { makePlan, PlanError } from "./plan.ts";
import { resolvePending, waitForPendingJobs } from "./recover.ts";
import { type Inventory, refresh } from "./refresh.ts";
import { redactDiagnostics, type SecretValues, secretValuesOf } from "./secret-values.ts";
import { checkSavedPlan } from "./stale.ts";
import { newState } from "./state/index.ts";
import type { Diagnostic } from "./validate.ts";

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
  /** See `ApplyOptions.onGenerated`: applies only. */
  onGenerated?: (value: GeneratedValue) => Promise<void>;
  /** See `PlanOptions.targets`. */
  targets?: readonly string[];
  /** See `PlanOptions.refreshOnly`: plans only. */
  refreshOnly?: boolean;
  /** Let a plan delete a whole kind or most of what the state manages (`assertNoMassDelete`). */
  allowMassDelete?: boolean;
  /** Deleting is the point (`vigil destroy`, an empty `desired`): no deletion guard applies. */
  destroy?: boolean;
  /** How a warning of the account checks reads in `plan.warnings` (the CLI adds file:line:column). */
  describeWarning?: (warning: Diagnostic) => string;
  /** Reports the reads the account checks made (the type catalogue, the pools), for read budgets. */
  onAccountReads?: (reads: number) => void;
  /**
   * Secrets the frontend knows beside the desired resources' own (the values `${env:...}` filled in, the
   * API token): no message, warning or error of the run shows them (`secret-values.ts`).
   */
  secrets?: SecretValues;
  /** See `ApplyOptions.signal`: applies only. */
  signal?: AbortSignal;
}

export interface PlanOutcome {
  plan: Plan;
  /** Writes the account accepts but not as written (each also in `plan.warnings`). */
  accountWarnings: Diagnostic[];
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
  let result: T;
  try {
    result = await fn(lock);
  } catch (error) {
    // The run's own error is the one to tell: a release that fails too (the database is gone) would hide it.
    await lock.release().catch(() => {});
    throw error;
  }
  await lock.release();
  return result;
}

function planUnderLock(options: EngineOptions, lock: StateLock): Promise<PlanOutcome & { state: State }> {
  return lock.read().then((saved) => planFrom(options, saved, lock));
}

/** Plans from `saved`; with the lock held, settles an interrupted run's journal and saves that first. */
async function planFrom(
  options: EngineOptions,
  saved: State | undefined,
  lock: StateLock | undefined,
): Promise<PlanOutcome & { state: State }> {
  const state = saved ?? newState();
  const guarded = !options.destroy && !options.refreshOnly;
  // Before any call: an empty config is refused whatever else the plan would find.
  if (guarded) assertConfigNotEmpty(options.desired, state);
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
  if (resolved.length > 0 && lock) {
    state.serial++;
    await lock.write(state);
  }
  // A plan with problems of its own is still judged against the account, so one run says both.
  let refused: PlanError | undefined;
  let plan: Plan;
  try {
    plan = makePlan({
      desired: options.desired,
      state,
      stateMissing: saved === undefined,
      inventory,
      ...(options.imports && { imports: options.imports }),
      ...(options.targets && { targets: options.targets }),
      ...(options.refreshOnly && { refreshOnly: true }),
      ...(options.destroy && { destroy: true }),
    });
  } catch (error) {
    if (!(error instanceof PlanError) || !error.plan) throw error;
    refused = error;
    plan = error.plan;
  }
  if (!refused && guarded && !options.allowMassDelete) assertNoMassDelete(plan, options.desired, state);
  let accountWarnings: Diagnostic[] = [];
  if (!options.refreshOnly) {
    // Before any write: what the account would refuse, the plan refuses (docs/engine.md, "Account checks").
    const allowances = new AccountAllowances(options.ops, inventory.account);
    const findings = await checkPlanAgainstAccount(allowances, {
      plan,
      desired: options.desired,
      live: inventory.byId,
      complete: inventory.complete,
    });
    options.onAccountReads?.(allowances.reads);
    if (findings.errors.length > 0) {
      const check = new AccountCheckError(findings.errors, findings.warnings);
      if (!refused) throw check;
      refused.accountCheck = check;
    }
    accountWarnings = findings.warnings;
    const describe = options.describeWarning ?? ((d: Diagnostic) => `${d.address}${d.pointer}: ${d.message}`);
    plan.warnings.push(...accountWarnings.map(describe));
  }
  if (refused) throw refused;
  return { plan, notes, inventory, state, accountWarnings };
}

/**
 * A plan only reads, so it takes no lock: it records the serial it read, and
 * `apply --plan` refuses it once the state moved on. Only a state with an
 * interrupted run's journal is planned under the lock, which settles it first.
 */
export function planChanges(options: EngineOptions): Promise<PlanOutcome> {
  return redacting(options, async (secrets) => {
    const saved = await options.store.read();
    const { state: _state, ...outcome } =
      saved && Object.values(saved.resources).some((r) => r.pending)
        ? await withLock(options.store, (lock) => planUnderLock(options, lock))
        : await planFrom(options, saved, undefined);
    return { ...outcome, ...redactedReport(secrets, outcome) };
  });
}

/**
 * Runs an entry point with every secret in play (the desired resources' and the frontend's) known: `run`
 * redacts its outcome's words with them (`redactedReport`); progress messages and any error it throws are
 * redacted here.
 */
async function redacting<T>(
  options: EngineOptions,
  run: (secrets: SecretValues, options: EngineOptions) => Promise<T>,
): Promise<T> {
  const secrets = secretValuesOf(options.desired).addAll(options.secrets);
  const { onProgress } = options;
  const redacted: EngineOptions = {
    ...options,
    ...(onProgress && {
      onProgress: (event: ProgressEvent) =>
        onProgress(event.message ? { ...event, message: secrets.redact(event.message) } : event),
    }),
  };
  try {
    return await run(secrets, redacted);
  } catch (error) {
    throw secrets.redactError(error);
  }
}

/** The words of an outcome with no secret in them; the plan's actions are masked where values sit (diff.ts). */
function redactedReport(
  secrets: SecretValues,
  outcome: Pick<PlanOutcome, "plan" | "notes" | "accountWarnings">,
): Pick<PlanOutcome, "notes" | "accountWarnings"> {
  outcome.plan.warnings = outcome.plan.warnings.map((w) => secrets.redact(w));
  return {
    notes: outcome.notes.map((n) => secrets.redact(n)),
    accountWarnings: redactDiagnostics(outcome.accountWarnings, secrets),
  };
}

export interface ApplyOutcome {
  plan: Plan;
  result: ApplyResult;
  notes: string[];
  accountWarnings: Diagnostic[];
  /** False when `approve` declined the plan: nothing was applied. */
  approved: boolean;
}

export interface ApplyChangesOptions extends EngineOptions {
  /** A saved plan to apply instead of planning afresh. */
  plan?: Plan;
  /**
   * Asked with the fresh plan before anything is written, still under the
   * state lock, so what is approved is exactly what is applied.
   */
  approve?: (plan: Plan) => Promise<boolean>;
}

export class RefreshOnlyPlanError extends Error {
  constructor() {
    super("A refresh-only plan shows what changed outside vigil; it cannot be applied.");
    this.name = "RefreshOnlyPlanError";
  }
}

/**
 * Applies a saved plan (after checking nothing it relied on changed), or plans
 * afresh and applies that. The state is saved after every operation.
 */
export function applyChanges(options: ApplyChangesOptions): Promise<ApplyOutcome> {
  if (options.plan?.refreshOnly || options.refreshOnly) return Promise.reject(new RefreshOnlyPlanError());
  return redacting(options, async (secrets, redacted) => {
    const { approve } = options;
    const outcome = await applyUnderLock({
      ...options,
      ...redacted,
      ...(approve && {
        approve: (plan: Plan) => {
          plan.warnings = plan.warnings.map((w) => secrets.redact(w));
          return approve(plan);
        },
      }),
    });
    const { failures, cascadeMismatches } = outcome.result;
    return {
      ...outcome,
      ...redactedReport(secrets, outcome),
      result: {
        ...outcome.result,
        failures: failures.map((f) => secrets.redactValue(f)),
        cascadeMismatches: cascadeMismatches.map((m) => secrets.redact(m)),
      },
    };
  });
}

function applyUnderLock(options: ApplyChangesOptions): Promise<ApplyOutcome> {
  return withLock(options.store, async (lock) => {
    if (options.plan) {
      // A plan made with no state carries the lineage it invented; the state it starts must have that one,
      // or a first plan --out could never be applied (lineage and config digest would always differ).
      const state = (await lock.read()) ?? { ...newState(), lineage: options.plan.lineage };
      const fresh = await checkSavedPlan(options.ops, options.plan, state, options.desired, options.imports);
      state.accountId ??= options.plan.accountId;
      const result = await applyActions({
        ...common(options, lock, state),
        actions: options.plan.actions,
        live: fresh.live,
        complete: fresh.complete,
        maxBulkItems: fresh.maxBulkItems,
      });
      return { plan: options.plan, result, notes: [], accountWarnings: [], approved: true };
    }
    const saved = await lock.read();
    // A run that changes nothing leaves the state as it found it: no new version ("+0 ~0 -0"), no commit.
    const found = saved && withoutCursors(saved);
    const { plan, notes, inventory, state, accountWarnings } = await planFrom(options, saved, lock);
    if (options.approve && !(await options.approve(plan)))
      return {
        plan,
        result: { done: [], failures: [], cascadeMismatches: [] },
        notes,
        accountWarnings,
        approved: false,
      };
    const result = await applyActions({
      ...common(options, lock, state),
      actions: plan.actions,
      live: inventory.byId,
      complete: inventory.complete,
      maxBulkItems: inventory.maxBulkItems,
    });
    const changed =
      found === undefined
        ? result.done.some((d) => d.action !== "no-op") || result.failures.length > 0
        : found !== withoutCursors(state);
    if (changed) {
      state.syncCursors = { ...state.syncCursors, ...inventory.syncCursors };
      state.serial++;
      await lock.write(state).catch((cause: unknown) => {
        // Every write is already recorded, each saved as it ended: only the sync cursors are not.
        const error = new StateNotSavedError(cause, []);
        error.result = result;
        throw error;
      });
    }
    return { plan, result, notes, accountWarnings, approved: true };
  });
}

/**
 * The state as a run would save it, but for the sync cursors (a refresh always moves them): equal before
 * and after, the run changed nothing worth a version.
 */
function withoutCursors(state: State): string {
  return JSON.stringify({ ...state, syncCursors: undefined });
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
    ...(options.onGenerated && { onGenerated: options.onGenerated }),
    ...(options.signal && { signal: options.signal }),
  };
}
