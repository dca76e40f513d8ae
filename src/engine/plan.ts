/**
 * Plans: the desired state against the state and the live inventory, resource
 * by resource, in dependency order. Makes no call; everything it needs was read
 * by `refresh`. Its phases live in `plan/`: the targets and the request's problems
 * (`targets.ts`), each address matched to its live object by import, state or
 * natural key (`match.ts`), diffed and decided (`decide.ts`, `resources.ts`), the
 * objects that leave the config (`leaving.ts`), cascades (`cascades.ts`), and what
 * a targeted or refresh-only plan shows, in apply's order (`select.ts`).
 */
import type { DesiredResource, Plan, PlanNote, PlannedAction, PlanSummary, State } from "./model.ts";
import { planFormatVersion } from "./model.ts";
import { markCascades } from "./plan/cascades.ts";
import { leavingActions } from "./plan/leaving.ts";
import { LiveMatcher } from "./plan/match.ts";
import type { PlanProblem } from "./plan/problem.ts";
import { planResources } from "./plan/resources.ts";
import { refreshOnlyAction, selectTargeted, sortActions } from "./plan/select.ts";
import { requestProblems, targetSet } from "./plan/targets.ts";
import type { Inventory } from "./refresh.ts";
import { hashSecret } from "./state/index.ts";
import { assertValidDesired, type ConfigError, type Diagnostic } from "./validate.ts";

export interface PlanOptions {
  desired: readonly DesiredResource[];
  state: State;
  /** No state existed: nothing can be deleted, and live objects are found by their natural keys. */
  stateMissing?: boolean;
  inventory: Inventory;
  /** Existing objects to bring under an address of the config, by id. */
  imports?: readonly { address: string; id: string }[];
  /** Unix seconds. */
  now?: number;
  /**
   * Plan only these addresses, the resources they reference (transitively),
   * and addresses nested under them (`monitors.web` takes `monitors.web.alerts.*`).
   */
  targets?: readonly string[];
  /** Show only what changed outside vigil: drift and out-of-band deletes. The plan cannot be applied. */
  refreshOnly?: boolean;
  /** A destroy (`vigil destroy`): what goes is asked for, not missing from the config, and the reasons say so. */
  destroy?: boolean;
}

export type { PlanProblem } from "./plan/problem.ts";

export class PlanError extends Error {
  readonly problems: PlanProblem[];
  /** The plan as it would be but for its problems: what the checks that follow judge, so they run too. */
  readonly plan: Plan | undefined;
  /** The account's refusals of that plan, found in the same run (`AccountCheckError`), when there are any. */
  accountCheck?: ConfigError & { readonly warnings: Diagnostic[] };
  constructor(problems: PlanProblem[], plan?: Plan) {
    super(`The plan cannot be made:\n${problems.map((p) => `  ${p.message}`).join("\n")}`);
    this.name = "PlanError";
    this.problems = problems;
    this.plan = plan;
  }
}

/**
 * The digest of the desired config, credentials included (a changed credential makes a saved plan stale).
 * An HMAC rather than a bare hash, though its key (the lineage) is in the plan too: like the state's
 * credential hashes, it is no protection for a guessable credential, so plan files are kept like the state.
 */
export function configDigest(lineage: string, desired: readonly DesiredResource[]): string {
  const sorted = [...desired].sort((a, b) => (a.address < b.address ? -1 : 1));
  return hashSecret(
    lineage,
    sorted.map(({ source: _source, ...r }) => r),
  );
}

export { observedOf } from "./plan/observed.ts";

export function makePlan(options: PlanOptions): Plan {
  const { state, inventory } = options;
  assertValidDesired(options.desired);
  const desired = new Map(options.desired.map((r) => [r.address, r]));
  const targeted = options.targets && targetSet(options.targets, options.desired, state);
  const imports = new Map((options.imports ?? []).map((i) => [i.address, i.id]));
  const matcher = new LiveMatcher({ state, inventory, desired, imports, stateMissing: options.stateMissing });
  const planned = planResources(options.desired, state, matcher);
  const leaving = leavingActions({
    state,
    inventory,
    desired,
    moved: matcher.moved,
    destroy: options.destroy,
    targeted,
  });
  const actions = [...planned.actions, ...leaving.actions];
  markCascades(actions, inventory);
  const selected = selectTargeted(
    {
      actions,
      notes: planned.notes,
      problems: [
        ...requestProblems({ desired, state, targets: options.targets, imports }),
        ...planned.problems,
        ...leaving.problems,
      ],
    },
    targeted,
  );
  const shown = options.refreshOnly ? selected.actions.flatMap(refreshOnlyAction) : selected.actions;
  const warnings = options.stateMissing ? [...planned.warnings, noStateWarning] : planned.warnings;
  const plan = planOf(options, sortActions(shown), warnings, selected.notes);
  if (selected.problems.length > 0) throw new PlanError(selected.problems, plan);
  return plan;
}

const noStateWarning =
  "No state: resources removed from the config cannot be deleted, since vigil does not know which objects it managed. Live objects matching the config are imported by their natural keys.";

/** The plan document of the phases' actions, warnings and notes. */
function planOf(options: PlanOptions, actions: PlannedAction[], warnings: string[], notes: PlanNote[]): Plan {
  const { state, inventory } = options;
  return {
    format_version: planFormatVersion,
    created: options.now ?? Math.floor(Date.now() / 1000),
    lineage: state.lineage,
    serial: state.serial,
    accountId: inventory.accountId,
    configDigest: configDigest(state.lineage, options.desired),
    syncCursors: inventory.syncCursors,
    liveCounts: Object.fromEntries([...inventory.rows].map(([kind, rows]) => [kind, rows.length])),
    actions,
    summary: summarize(actions),
    warnings,
    ...(notes.length > 0 && { notes }),
    ...(options.refreshOnly && { refreshOnly: true as const }),
  };
}

/** How many actions of each type. */
export function summarize(actions: readonly PlannedAction[]): PlanSummary {
  const summary: PlanSummary = {
    create: 0,
    update: 0,
    replace: 0,
    delete: 0,
    forget: 0,
    import: 0,
    "no-op": 0,
  };
  for (const a of actions) summary[a.action]++;
  return summary;
}
