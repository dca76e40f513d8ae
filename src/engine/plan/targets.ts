/**
 * The plan's first phase: what a targeted plan covers, and the request's own problems (a target or an
 * import naming no address).
 */
import type { DesiredResource, State } from "../model.ts";
import { refsIn } from "../refs.ts";
import type { PlanProblem } from "./problem.ts";

/** The targets, what they reference (transitively), and what is nested under them. */
export function targetSet(
  targets: readonly string[],
  desired: readonly DesiredResource[],
  state: State,
): Set<string> {
  const byAddress = new Map(desired.map((r) => [r.address, r]));
  const all = [...byAddress.keys(), ...Object.keys(state.resources)];
  const out = new Set<string>();
  const add = (address: string) => {
    if (out.has(address)) return;
    out.add(address);
    for (const target of refsIn(byAddress.get(address)?.members ?? {})) add(target);
  };
  for (const t of targets) {
    add(t);
    for (const a of all) if (a.startsWith(`${t}.`)) add(a);
  }
  return out;
}

/** Targets that are neither in the config nor in the state, then imports of addresses the config lacks. */
export function requestProblems(request: {
  desired: ReadonlyMap<string, DesiredResource>;
  state: State;
  targets?: readonly string[] | undefined;
  imports: ReadonlyMap<string, string>;
}): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const target of request.targets ?? []) {
    if (!request.desired.has(target) && !request.state.resources[target])
      problems.push({
        address: "",
        code: "unknown_target",
        data: { target },
        message: `target ${target}: no such address in the config or the state`,
      });
  }
  for (const address of request.imports.keys()) {
    if (!request.desired.has(address))
      problems.push({
        address: "",
        code: "import_not_declared",
        data: { address },
        message: `import ${address}: the config does not declare it`,
      });
  }
  return problems;
}
