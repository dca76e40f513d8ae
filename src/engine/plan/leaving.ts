/**
 * The plan's leaving phase: the objects the state manages that the config no longer declares. Each is
 * deleted, or forgotten when it moved to another address, had gone already, or is retained on delete.
 */
import { engineKind } from "../kinds/index.ts";
import type { DesiredResource, PlannedAction, State } from "../model.ts";
import type { Inventory } from "../refresh.ts";
import { observedOf } from "./observed.ts";
import { alreadyDeletedOutside, type PlanProblem } from "./problem.ts";

export interface LeavingInput {
  state: State;
  inventory: Inventory;
  desired: ReadonlyMap<string, DesiredResource>;
  /** Old address → new address, for objects adopted elsewhere in the config. */
  moved: ReadonlyMap<string, string>;
  /** A destroy (`vigil destroy`): what goes is asked for, not missing from the config. */
  destroy?: boolean | undefined;
  targeted?: ReadonlySet<string> | undefined;
}

/** Why an object the config does not declare goes: a destroy asked for it (all, or these targets). */
export function leavingReason(destroy: boolean | undefined, targeted: boolean): string {
  if (!destroy) return "not in the config";
  return targeted ? "targeted for destruction" : "destroy requested";
}

export function leavingActions(input: LeavingInput): { actions: PlannedAction[]; problems: PlanProblem[] } {
  const leaving = leavingReason(input.destroy, input.targeted !== undefined);
  const actions: PlannedAction[] = [];
  const problems: PlanProblem[] = [];
  for (const [address, r] of Object.entries(input.state.resources)) {
    if (input.desired.has(address) || !r.id) continue;
    const live = input.inventory.byId.get(r.kind)?.get(r.id);
    const base = { address, kind: r.kind, id: r.id, changes: [] };
    const movedTo = input.moved.get(address);
    if (movedTo !== undefined) actions.push({ ...base, action: "forget", reasons: [`moved to ${movedTo}`] });
    else if (!live) actions.push({ ...base, action: "forget", reasons: [alreadyDeletedOutside] });
    else if (r.lifecycle?.retainOnDelete)
      actions.push({ ...base, action: "forget", reasons: [`${leaving}; retainOnDelete keeps the object`] });
    else {
      if (r.lifecycle?.protect)
        problems.push({
          address,
          code: "protected_delete",
          data: {},
          message: `${address} is protected: it is no longer in the config, and the plan would delete it`,
        });
      actions.push({
        ...base,
        action: "delete",
        reasons: [leaving],
        observed: observedOf(engineKind(r.kind), live),
      });
    }
  }
  return { actions, problems };
}
