/**
 * The plan's last phase: what a targeted plan keeps (its actions, notes and blocking problems), what a
 * refresh-only plan shows, and the order apply takes the actions in.
 */
import { kindRank } from "../kinds/index.ts";
import type { ActionType, PlanNote, PlannedAction } from "../model.ts";
import { alreadyDeletedOutside, deletedOutside, type PlanProblem } from "./problem.ts";

export interface Selection {
  actions: PlannedAction[];
  notes: PlanNote[];
  problems: PlanProblem[];
}

/**
 * A targeted plan keeps the targets' actions and those cascaded by a target, their notes, and the problems
 * of the request or of a target: problems of resources it leaves alone do not stop it.
 */
export function selectTargeted(all: Selection, targeted: ReadonlySet<string> | undefined): Selection {
  if (!targeted) return all;
  return {
    actions: all.actions.filter(
      (a) => targeted.has(a.address) || (a.cascadedBy !== undefined && targeted.has(a.cascadedBy)),
    ),
    notes: all.notes.filter((n) => targeted.has(n.address)),
    problems: all.problems.filter((p) => p.address === "" || targeted.has(p.address)),
  };
}

/**
 * What a refresh-only plan shows of an action: its drift, or a delete made
 * outside vigil (which the state will forget). Everything else is left out.
 */
export function refreshOnlyAction(a: PlannedAction): PlannedAction[] {
  if (a.reasons.includes(deletedOutside) || a.reasons.includes(alreadyDeletedOutside))
    return [{ ...a, action: "forget", reasons: [deletedOutside], changes: [] }];
  const drift = a.changes.filter((c) => c.drift);
  if ((a.action === "update" || a.action === "replace") && drift.length > 0)
    return [{ ...a, action: "update", reasons: ["changed outside vigil"], changes: drift }];
  return [];
}

const actionOrder: Record<ActionType, number> = {
  forget: 0,
  "no-op": 1,
  import: 2,
  create: 2,
  update: 2,
  replace: 2,
  delete: 3,
};

/**
 * Forgets first, then no-ops, then the writes in dependency order, then deletes in reverse dependency order;
 * addresses in order within each. Sorts in place.
 */
export function sortActions(actions: PlannedAction[]): PlannedAction[] {
  return actions.sort((a, b) => {
    const phase = actionOrder[a.action] - actionOrder[b.action];
    if (phase !== 0) return phase;
    const rank = kindRank(a.kind) - kindRank(b.kind);
    return (a.action === "delete" ? -rank : rank) || (a.address < b.address ? -1 : 1);
  });
}
