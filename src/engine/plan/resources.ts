/**
 * The plan's per-address phase: each resource of the config in dependency order, matched to its live object,
 * diffed and decided, with the drift it reports but never reverts. References resolve to the ids of the
 * addresses planned before; an object created anew has no id yet.
 */
import { diffResource } from "../diff.ts";
import { driftNotes } from "../drift-notes.ts";
import { engineKind, kindRank } from "../kinds/index.ts";
import type { DesiredResource, PlanNote, PlannedAction, State } from "../model.ts";
import { resolveRefs } from "../refs.ts";
import { decide, replaceOrderOf, unverifiedWarning } from "./decide.ts";
import type { LiveMatcher } from "./match.ts";
import { observedOf } from "./observed.ts";
import type { PlanProblem } from "./problem.ts";

export interface PlannedResources {
  actions: PlannedAction[];
  notes: PlanNote[];
  problems: PlanProblem[];
  warnings: string[];
}

/** Kinds in dependency order, then addresses in order: a reference's target is planned before it. */
export function inPlanOrder(desired: readonly DesiredResource[]): DesiredResource[] {
  return [...desired].sort((a, b) => kindRank(a.kind) - kindRank(b.kind) || (a.address < b.address ? -1 : 1));
}

export function planResources(
  desired: readonly DesiredResource[],
  state: State,
  matcher: LiveMatcher,
): PlannedResources {
  const out: PlannedResources = { actions: [], notes: [], problems: [], warnings: [] };
  const plannedIds = new Map<string, string | undefined>();
  for (const r of inPlanOrder(desired)) {
    const members = resolveRefs(r.members, (a) => plannedIds.get(a)) as Record<string, unknown>;
    const one = planResource(r, members, state, matcher);
    const { action, id } = one.action;
    plannedIds.set(r.address, action === "create" || action === "replace" ? undefined : String(id));
    out.actions.push(one.action);
    out.notes.push(...one.notes);
    out.problems.push(...one.problems);
    if (one.warning !== undefined) out.warnings.push(one.warning);
  }
  return out;
}

/** One address of the config, its references resolved in `members`. */
export function planResource(
  r: DesiredResource,
  members: Record<string, unknown>,
  state: State,
  matcher: LiveMatcher,
): { action: PlannedAction; notes: PlanNote[]; problems: PlanProblem[]; warning?: string } {
  const kind = engineKind(r.kind);
  const prior = state.resources[r.address];
  const match = matcher.match(r, members);
  const { live } = match;
  const diff = diffResource({
    kind,
    desired: members,
    live,
    ...(prior && match.action !== "import" && { prior }),
    lineage: state.lineage,
    ...(r.lifecycle && { lifecycle: r.lifecycle }),
    ...(r.sensitive && { sensitive: r.sensitive }),
  });
  const protect = (r.lifecycle?.protect ?? prior?.lifecycle?.protect) === true;
  const decision = decide(r.address, match.action, diff, protect);
  const action: PlannedAction = {
    address: r.address,
    kind: r.kind,
    action: decision.action,
    reasons: [...match.reasons, ...decision.reasons],
    changes: diff.changes,
    ...(live && { id: String(live.id), observed: observedOf(kind, live) }),
  };
  if (decision.action === "replace") action.replaceOrder = replaceOrderOf(kind, members, live);
  const warning = live ? unverifiedWarning(r.address, diff.unverified) : undefined;
  // A replaced object starts over from the defaults: only objects kept in place carry their drift on.
  const notes =
    live && decision.action !== "replace"
      ? driftNotes({
          address: r.address,
          kind,
          desired: members,
          live,
          ...(r.lifecycle && { lifecycle: r.lifecycle }),
        })
      : [];
  return {
    action,
    notes,
    problems: [...match.problems, ...decision.problems],
    ...(warning !== undefined && { warning }),
  };
}
