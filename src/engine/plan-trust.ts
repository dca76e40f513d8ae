/**
 * A saved plan is a file: between `plan --out` and `apply --plan` anyone who can write it can edit it.
 * Its staleness checks (stale.ts) trust the ids it carries, so before any of them it must be a plan that
 * vigil could have made from the state at its serial and from the configuration: each action's id is
 * the one the state holds at that address (or, for an import, the one the configuration imports or a
 * live object with the resource's natural key), each address appears once, and the summary counts the
 * actions. Anything else is refused as tampered, before any write (docs/plan-format.md).
 */
import type { DesiredResource, Plan, PlannedAction, State } from "./model.ts";
import { configDigest, summarize } from "./plan.ts";
import { newState } from "./state/index.ts";

export class TamperedPlanError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    super(
      `The saved plan was changed after vigil made it, so it is refused: ${problems[0]}${more}. Nothing was changed; make a new plan.`,
    );
    this.name = "TamperedPlanError";
    this.problems = problems;
  }
}

/**
 * A value of the plan inside a message: as it is when it is a plain name or id, otherwise quoted and cut,
 * every control or format character escaped (an edited file may hold anything).
 */
export function shownValue(value: unknown, max = 80): string {
  const text = String(value);
  if (/^[\w.:#/-]{1,80}$/.test(text)) return text;
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut).replace(
    /[\p{C}\p{Zl}\p{Zp}]/gu,
    (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`,
  );
}

/** Actions that send a call about an existing object: the staleness check must have what the plan saw of it. */
const observing = new Set<PlannedAction["action"]>(["update", "replace", "delete", "import"]);

/**
 * What is wrong with a saved plan made from `state` and `desired`, as sentences; empty when vigil could
 * have made it. Only meaningful when the state is the one the plan was made from (its lineage and serial)
 * and the configuration's digest matches: otherwise the plan is stale, not tampered.
 */
export function planTamperings(
  plan: Plan,
  state: State,
  desired: readonly DesiredResource[],
  imports: readonly { address: string; id: string }[] = [],
): string[] {
  const problems: string[] = [];
  const declared = new Map(desired.map((d) => [d.address, d]));
  const imported = new Map(imports.map((i) => [i.address, i.id]));
  const seen = new Set<string>();
  const removing = new Set(
    plan.actions.filter((a) => a.action === "delete" || a.action === "replace").map((a) => a.address),
  );
  const managedBy = new Map<string, string>();
  for (const [address, r] of Object.entries(state.resources))
    if (r.id) managedBy.set(`${r.kind}/${r.id}`, address);

  for (const a of plan.actions) {
    const at = shownValue(a.address);
    const say = (text: string) => problems.push(`${at}: ${text}`);
    if (seen.has(a.address)) {
      say("has more than one action");
      continue;
    }
    seen.add(a.address);
    const d = declared.get(a.address);
    const held = Object.hasOwn(state.resources, a.address) ? state.resources[a.address] : undefined;
    const kind = d?.kind ?? held?.kind;
    const id = a.id === undefined ? "no id" : shownValue(a.id);
    if (!kind) {
      say(
        `the plan ${verbs[a.action]} ${a.id === undefined ? "it" : id}, but neither the configuration nor the state (serial ${state.serial}) has this address`,
      );
      continue;
    }
    if (a.kind !== kind) say(`is a ${kind}, not a ${a.kind}`);
    const stateId = held?.id === undefined ? "none" : shownValue(held.id);
    const ofState = () => {
      if (a.id === undefined || a.id !== held?.id)
        say(`the plan ${verbs[a.action]} ${id}, but the state (serial ${state.serial}) holds ${stateId}`);
    };
    switch (a.action) {
      case "create":
        if (!d) say("is created, but the configuration does not declare it");
        if (a.id !== undefined) say(`a create carries the id ${id}`);
        break;
      case "update":
      case "replace":
      case "no-op":
        if (!d) say(`the plan ${verbs[a.action]} it, but the configuration does not declare it`);
        // An import the state already holds is done: the plan updates (or keeps) that object.
        if (imported.has(a.address) && imported.get(a.address) !== held?.id)
          say(`the configuration imports it, but the plan ${verbs[a.action]} it`);
        ofState();
        break;
      case "delete":
      case "forget":
        if (d) say(`the plan ${verbs[a.action]} it, but the configuration declares it`);
        ofState();
        break;
      case "import": {
        if (!d) say("is imported, but the configuration does not declare it");
        if (a.id === undefined) {
          say("an import carries no id");
          break;
        }
        const configured = imported.get(a.address);
        if (configured !== undefined && configured !== a.id)
          say(`the plan imports ${id}, but the configuration imports ${shownValue(configured)}`);
        // Without an import in the configuration, only an address with no object yet adopts one.
        if (configured === undefined && held?.id !== undefined)
          say(`the plan imports ${id}, but the state holds ${stateId} there`);
        const owner = managedBy.get(`${kind}/${a.id}`);
        if (owner && owner !== a.address && declared.has(owner))
          say(`the plan imports ${id}, which the state manages as ${shownValue(owner)}`);
        break;
      }
    }
    if (observing.has(a.action) && !a.observed)
      say(`the plan ${verbs[a.action]} it without what it saw of it`);
    if (a.cascadedBy !== undefined) {
      if (a.action !== "delete" && a.action !== "replace") say(`a ${a.action} cannot be cascaded`);
      else if (a.cascadedBy === a.address || !removing.has(a.cascadedBy))
        say(`cascaded by ${shownValue(a.cascadedBy)}, which the plan neither deletes nor replaces`);
    }
    if (a.replaceOrder !== undefined && a.action !== "replace") say(`a ${a.action} carries a replace order`);
  }

  const counted = summarize(plan.actions);
  const off = (Object.keys(counted) as (keyof typeof counted)[]).filter(
    (k) => plan.summary[k] !== counted[k],
  );
  if (off.length > 0)
    problems.push(
      `its summary counts ${off.map((k) => `${plan.summary[k]} ${k}`).join(", ")}, its actions ${off.map((k) => `${counted[k]} ${k}`).join(", ")}`,
    );
  return problems;
}

const verbs: Record<PlannedAction["action"], string> = {
  create: "creates",
  update: "updates",
  replace: "replaces",
  delete: "deletes",
  forget: "forgets",
  import: "imports",
  "no-op": "leaves",
};

/**
 * Refuses a plan vigil could not have made from `state` and `desired` (see `planTamperings`). A plan of
 * another state, serial or configuration is left alone: the staleness check refuses it, naming what moved.
 * No state (undefined) is the empty one a first plan was made from.
 */
export function assertPlanUntampered(
  plan: Plan,
  state: State | undefined,
  desired: readonly DesiredResource[],
  imports?: readonly { address: string; id: string }[],
): void {
  const from = state ?? { ...newState(), lineage: plan.lineage };
  if (from.lineage !== plan.lineage || from.serial !== plan.serial) return;
  if (configDigest(from.lineage, desired) !== plan.configDigest) return;
  const problems = planTamperings(plan, from, desired, imports);
  if (problems.length > 0) throw new TamperedPlanError(problems);
}
