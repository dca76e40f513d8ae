/**
 * The plan's deciding phase: what the diff makes of a matched address (an update that cannot happen in place
 * is a replace, one that changes nothing a no-op), and what stops it (an import that differs where it cannot
 * change, a protected replace).
 */
import type { ResourceDiff } from "../diff.ts";
import type { EngineKind, Members, Row } from "../kinds/index.ts";
import type { ActionType, PlannedAction } from "../model.ts";
import { tokensOf } from "../pointer.ts";
import type { Match } from "./match.ts";
import type { PlanProblem } from "./problem.ts";

export interface Decision {
  action: ActionType;
  /** The reasons the diff adds to the match's. */
  reasons: string[];
  problems: PlanProblem[];
}

/** The action once the diff is known, with its reasons and the problems that stop it. */
export function decide(
  address: string,
  match: Match["action"],
  diff: ResourceDiff,
  protect: boolean,
): Decision {
  const problems: PlanProblem[] = [];
  let action: ActionType = match;
  const reasons: string[] = [];
  if (match === "update") {
    if (diff.replaceReasons.length > 0) {
      action = "replace";
      reasons.push(...cascadedReplaceReasons(diff));
    } else if (diff.changes.length === 0) action = "no-op";
    else if (diff.changes.some((c) => c.drift)) reasons.push("drift: changed outside vigil");
  } else if (match === "import" && diff.replaceReasons.length > 0)
    problems.push({
      address,
      code: "import_differs",
      data: { replaceReasons: diff.replaceReasons },
      message: `${address}: the object to import differs in members that cannot change (${diff.replaceReasons.join("; ")})`,
    });
  if (action === "replace" && protect)
    problems.push({
      address,
      code: "protected_replace",
      data: { replaceReasons: diff.replaceReasons },
      message: `${address} is protected: the plan would replace it (${diff.replaceReasons.join("; ")})`,
    });
  return { action, reasons, problems };
}

/**
 * A replace's reasons, saying when a member changes only because the object it references is itself
 * created anew (a subscription of a replaced monitor): its value then reads the same, by name, on both
 * sides, and the reason is the referenced replace.
 */
export function cascadedReplaceReasons(diff: ResourceDiff): string[] {
  const byMember = new Map<string, string>();
  for (const c of diff.changes) {
    const target = (c.value as { $unknown?: unknown } | undefined)?.$unknown;
    if (c.before !== undefined && typeof target === "string") byMember.set(tokensOf(c.path)[0]!, target);
  }
  return diff.replaceReasons.map((reason) => {
    const member = reason.split(" ", 1)[0]!;
    const target = byMember.get(member);
    return target ? `${target} is replaced, and ${reason}` : reason;
  });
}

/** The warning for credentials read back masked with no recorded hash: the configured values are taken. */
export function unverifiedWarning(address: string, unverified: readonly string[]): string | undefined {
  if (unverified.length === 0) return undefined;
  const one = unverified.length === 1;
  return `${address}: the API does not read back ${unverified.map((p) => p.slice(1).replaceAll("/", ".")).join(", ")}; vigil takes the configured value${one ? "" : "s"} as the live one${one ? "" : "s"}. Change ${one ? "it" : "them"} in the config to rewrite ${one ? "it" : "them"}.`;
}

/** Which half of a replace goes first: the delete, when the new object's natural key would collide. */
export function replaceOrderOf(
  kind: EngineKind,
  members: Members,
  live: Row | undefined,
): NonNullable<PlannedAction["replaceOrder"]> {
  const newKey = kind.naturalKey(kind.normalizeDesired(members));
  const oldKey = live ? kind.naturalKey(kind.normalizeLive(live)) : undefined;
  return newKey !== undefined && newKey === oldKey ? "delete-first" : "create-first";
}
