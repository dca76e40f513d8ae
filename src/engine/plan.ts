/**
 * Plans: the desired state against the state and the live inventory, resource
 * by resource, in dependency order. Makes no call; everything it needs was read
 * by `refresh`.
 */
import { cascadeSourcesOf } from "../kinds/index.ts";
import { diffResource, type ResourceDiff } from "./diff.ts";
import { driftNotes } from "./drift-notes.ts";
import { type EngineKind, engineKind, kindRank, type Row } from "./kinds/index.ts";
import {
  type ActionType,
  type DesiredResource,
  type KindName,
  type Plan,
  type PlanNote,
  type PlannedAction,
  type PlanSummary,
  planFormatVersion,
  type State,
} from "./model.ts";
import { setAt, tokensOf } from "./pointer.ts";
import { type Inventory, liveWithKey } from "./refresh.ts";
import { refsIn, resolveRefs } from "./refs.ts";
import { digestOf, hashSecret } from "./state/index.ts";
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

/** Why a plan cannot be made: a stable `code` and its `data`, for frontends to decide on, and the words. */
export interface PlanProblem {
  /** The resource's address (`""` for a problem of the request, such as an unknown target). */
  address: string;
  /**
   * `unknown_target` `{target}`, `import_not_declared`, `import_not_found` `{kind, id}`,
   * `import_managed_elsewhere` `{id, owner}`, `ambiguous_natural_key` `{kind}`, `import_differs`
   * `{replaceReasons}`, `protected_replace` `{replaceReasons}`, `protected_delete`.
   */
  code: string;
  data: Readonly<Record<string, unknown>>;
  message: string;
}

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

/**
 * What a saved plan records of a live object, so applying it later can tell whether it changed.
 * `updated` has one-second resolution: an edit in the second the plan read the object leaves it
 * unmoved, so the digest of the comparable members is recorded beside it.
 */
export function observedOf(kind: EngineKind, row: Row): { updated?: number; digest?: string } {
  let comparable = kind.normalizeLive(row);
  // The owner reads credentials in full: they stay out of a digest that goes into a plan file
  // (masked on a copy, since normalised rows share nested values with the live row).
  const credentials = kind.credentials(comparable);
  if (credentials.length > 0) {
    comparable = structuredClone(comparable);
    for (const p of credentials) setAt(comparable, p, "(sensitive)");
  }
  return typeof row.updated === "number"
    ? { updated: row.updated, digest: digestOf(comparable) }
    : { digest: digestOf(comparable) };
}

const deletedOutside = "deleted outside vigil";
const alreadyDeletedOutside = "already deleted outside vigil";

const actionOrder: Record<ActionType, number> = {
  forget: 0,
  "no-op": 1,
  import: 2,
  create: 2,
  update: 2,
  replace: 2,
  delete: 3,
};

export function makePlan(options: PlanOptions): Plan {
  const { state, inventory } = options;
  assertValidDesired(options.desired);
  const warnings: string[] = [];
  let actions: PlannedAction[] = [];
  let notes: PlanNote[] = [];
  const desiredByAddress = new Map(options.desired.map((r) => [r.address, r]));
  const targeted = options.targets && targetSet(options.targets, options.desired, state);
  const allProblems: PlanProblem[] = [];
  /** A problem of one address is left out of a targeted plan that does not touch it. */
  const problem = (address: string, code: string, data: PlanProblem["data"], message: string) =>
    allProblems.push({ address, code, data, message });
  for (const t of options.targets ?? []) {
    if (!desiredByAddress.has(t) && !state.resources[t])
      problem("", "unknown_target", { target: t }, `target ${t}: no such address in the config or the state`);
  }
  const imports = new Map((options.imports ?? []).map((i) => [i.address, i.id]));
  for (const address of imports.keys()) {
    if (!desiredByAddress.has(address))
      problem("", "import_not_declared", { address }, `import ${address}: the config does not declare it`);
  }

  // Which address manages each live id, per kind.
  const managedBy = new Map<string, string>();
  for (const [address, r] of Object.entries(state.resources))
    if (r.id) managedBy.set(`${r.kind}/${r.id}`, address);
  const claimed = new Set<string>();
  const plannedIds = new Map<string, string | undefined>();
  const moved = new Map<string, string>(); // old address → new address

  const liveOf = (kind: KindName, id: string | undefined) =>
    id ? inventory.byId.get(kind)?.get(id) : undefined;

  /** A live object with the same natural key that no other address manages (or whose address leaves the config). */
  function adoptable(r: DesiredResource, members: Record<string, unknown>): Row | "ambiguous" | undefined {
    const kind = engineKind(r.kind);
    const key = kind.naturalKey(kind.normalizeDesired(members));
    if (key === undefined) return undefined;
    const matches = liveWithKey(inventory, r.kind, key).filter((row) => {
      const owner = managedBy.get(`${r.kind}/${row.id}`);
      if (owner && (owner === r.address || desiredByAddress.has(owner))) return false;
      return !claimed.has(`${r.kind}/${row.id}`);
    });
    if (matches.length > 1) return "ambiguous";
    return matches[0];
  }

  const ordered = [...options.desired].sort(
    (a, b) => kindRank(a.kind) - kindRank(b.kind) || (a.address < b.address ? -1 : 1),
  );
  for (const r of ordered) {
    const kind = engineKind(r.kind);
    const prior = state.resources[r.address];
    const members = resolveRefs(r.members, (a) => plannedIds.get(a)) as Record<string, unknown>;
    const reasons: string[] = [];
    let action: ActionType;
    let live: Row | undefined;

    // An import the state already holds (the same id at the address) is done: the resource is managed.
    const importId =
      prior?.id !== undefined && imports.get(r.address) === prior.id ? undefined : imports.get(r.address);
    if (importId !== undefined) {
      live = liveOf(r.kind, importId);
      const owner = managedBy.get(`${r.kind}/${importId}`);
      if (!live)
        problem(
          r.address,
          "import_not_found",
          { kind: r.kind, id: importId },
          `import ${r.address}: the account has no ${r.kind} with id ${importId}`,
        );
      else if (owner && owner !== r.address)
        problem(
          r.address,
          "import_managed_elsewhere",
          { id: importId, owner },
          `import ${r.address}: ${importId} is already managed as ${owner}`,
        );
      action = "import";
      reasons.push(`import of ${importId}`);
    } else if (prior?.id) {
      live = liveOf(r.kind, prior.id);
      action = live ? "update" : "create";
      if (!live) reasons.push(deletedOutside);
    } else {
      const found = adoptable(r, members);
      if (found === "ambiguous") {
        problem(
          r.address,
          "ambiguous_natural_key",
          { kind: r.kind },
          `${r.address}: several live ${kind.collection} match its natural key; import one by id`,
        );
        action = "create";
      } else if (found) {
        live = found;
        action = "import";
        const owner = managedBy.get(`${r.kind}/${found.id}`);
        if (owner) {
          moved.set(owner, r.address);
          reasons.push(`moved from ${owner}`);
        } else {
          reasons.push(options.stateMissing ? "adopted by natural key (no state)" : "adopted by natural key");
        }
      } else action = "create";
    }
    if (live) claimed.add(`${r.kind}/${live.id}`);

    const diff: ResourceDiff = diffResource({
      kind,
      desired: members,
      live,
      ...(prior && action !== "import" && { prior }),
      lineage: state.lineage,
      ...(r.lifecycle && { lifecycle: r.lifecycle }),
      ...(r.sensitive && { sensitive: r.sensitive }),
    });
    if (action === "update") {
      if (diff.replaceReasons.length > 0) {
        action = "replace";
        reasons.push(...cascadedReplaceReasons(diff));
      } else if (diff.changes.length === 0) action = "no-op";
      else if (diff.changes.some((c) => c.drift)) reasons.push("drift: changed outside vigil");
    } else if (action === "import" && diff.replaceReasons.length > 0) {
      problem(
        r.address,
        "import_differs",
        { replaceReasons: diff.replaceReasons },
        `${r.address}: the object to import differs in members that cannot change (${diff.replaceReasons.join("; ")})`,
      );
    }
    if (live && diff.unverified.length > 0)
      warnings.push(
        `${r.address}: the API does not read back ${diff.unverified.map((p) => p.slice(1).replaceAll("/", ".")).join(", ")}; vigil takes the configured value${diff.unverified.length === 1 ? "" : "s"} as the live one${diff.unverified.length === 1 ? "" : "s"}. Change ${diff.unverified.length === 1 ? "it" : "them"} in the config to rewrite ${diff.unverified.length === 1 ? "it" : "them"}.`,
      );
    const protect = r.lifecycle?.protect ?? prior?.lifecycle?.protect;
    if (action === "replace" && protect)
      problem(
        r.address,
        "protected_replace",
        { replaceReasons: diff.replaceReasons },
        `${r.address} is protected: the plan would replace it (${diff.replaceReasons.join("; ")})`,
      );

    plannedIds.set(r.address, action === "create" || action === "replace" ? undefined : String(live?.id));
    const planned: PlannedAction = {
      address: r.address,
      kind: r.kind,
      action,
      reasons,
      changes: diff.changes,
      ...(live && { id: String(live.id), observed: observedOf(kind, live) }),
    };
    if (action === "replace") {
      const newKey = kind.naturalKey(kind.normalizeDesired(members));
      const oldKey = live ? kind.naturalKey(kind.normalizeLive(live)) : undefined;
      planned.replaceOrder = newKey !== undefined && newKey === oldKey ? "delete-first" : "create-first";
    }
    actions.push(planned);
    // A replaced object starts over from the defaults: only objects kept in place carry their drift on.
    if (live && action !== "replace")
      notes.push(
        ...driftNotes({
          address: r.address,
          kind,
          desired: members,
          live,
          ...(r.lifecycle && { lifecycle: r.lifecycle }),
        }),
      );
  }

  // Why an object the config does not declare goes: a destroy asked for it (all, or these targets).
  const leaving = options.destroy
    ? targeted
      ? "targeted for destruction"
      : "destroy requested"
    : "not in the config";
  for (const [address, r] of Object.entries(state.resources)) {
    if (desiredByAddress.has(address) || !r.id) continue;
    const live = liveOf(r.kind, r.id);
    const base = { address, kind: r.kind, id: r.id, changes: [] };
    if (moved.has(address))
      actions.push({ ...base, action: "forget", reasons: [`moved to ${moved.get(address)}`] });
    else if (!live) actions.push({ ...base, action: "forget", reasons: [alreadyDeletedOutside] });
    else if (r.lifecycle?.retainOnDelete)
      actions.push({
        ...base,
        action: "forget",
        reasons: [`${leaving}; retainOnDelete keeps the object`],
      });
    else {
      if (r.lifecycle?.protect)
        problem(
          address,
          "protected_delete",
          {},
          `${address} is protected: it is no longer in the config, and the plan would delete it`,
        );
      actions.push({
        ...base,
        action: "delete",
        reasons: [leaving],
        observed: observedOf(engineKind(r.kind), live),
      });
    }
  }
  if (options.stateMissing) {
    warnings.push(
      "No state: resources removed from the config cannot be deleted, since vigil does not know which objects it managed. Live objects matching the config are imported by their natural keys.",
    );
  }

  markCascades(actions, inventory);
  if (targeted) {
    actions = actions.filter(
      (a) => targeted.has(a.address) || (a.cascadedBy !== undefined && targeted.has(a.cascadedBy)),
    );
  }
  // Problems of resources a targeted plan leaves alone do not stop it.
  const blocking = allProblems.filter((p) => !targeted || p.address === "" || targeted.has(p.address));
  if (targeted) notes = notes.filter((n) => targeted.has(n.address));
  if (options.refreshOnly) actions = actions.flatMap(refreshOnlyAction);

  actions.sort((a, b) => {
    const phase = actionOrder[a.action] - actionOrder[b.action];
    if (phase !== 0) return phase;
    const rank = kindRank(a.kind) - kindRank(b.kind);
    return (a.action === "delete" ? -rank : rank) || (a.address < b.address ? -1 : 1);
  });
  const summary = summarize(actions);
  const plan: Plan = {
    format_version: planFormatVersion,
    created: options.now ?? Math.floor(Date.now() / 1000),
    lineage: state.lineage,
    serial: state.serial,
    accountId: inventory.accountId,
    configDigest: configDigest(state.lineage, options.desired),
    syncCursors: inventory.syncCursors,
    liveCounts: Object.fromEntries([...inventory.rows].map(([kind, rows]) => [kind, rows.length])),
    actions,
    summary,
    warnings,
    ...(notes.length > 0 && { notes }),
    ...(options.refreshOnly && { refreshOnly: true as const }),
  };
  if (blocking.length > 0) throw new PlanError(blocking, plan);
  return plan;
}

/**
 * A replace's reasons, saying when a member changes only because the object it references is itself
 * created anew (a subscription of a replaced monitor): its value then reads the same, by name, on both
 * sides, and the reason is the referenced replace.
 */
function cascadedReplaceReasons(diff: ResourceDiff): string[] {
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

/** The targets, what they reference (transitively), and what is nested under them. */
function targetSet(
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

/**
 * What a refresh-only plan shows of an action: its drift, or a delete made
 * outside vigil (which the state will forget). Everything else is left out.
 */
function refreshOnlyAction(a: PlannedAction): PlannedAction[] {
  if (a.reasons.includes(deletedOutside) || a.reasons.includes(alreadyDeletedOutside))
    return [{ ...a, action: "forget", reasons: [deletedOutside], changes: [] }];
  const drift = a.changes.filter((c) => c.drift);
  if ((a.action === "update" || a.action === "replace") && drift.length > 0)
    return [{ ...a, action: "update", reasons: ["changed outside vigil"], changes: drift }];
  return [];
}

/**
 * The API deletes some objects with others (a monitor's or a contact's subscriptions, as their kinds'
 * relations declare). An object whose old self goes that way is marked cascaded: apply makes no call for it,
 * and checks the delete receipt names it.
 */
function markCascades(actions: PlannedAction[], inventory: Inventory): void {
  const deleting = new Map<string, string>();
  for (const a of actions) {
    if ((a.action === "delete" || a.action === "replace") && a.id)
      deleting.set(`${a.kind}/${a.id}`, a.address);
  }
  for (const a of actions) {
    if (!a.id || (a.action !== "delete" && a.action !== "replace")) continue;
    const sources = cascadeSourcesOf(engineKind(a.kind).definition);
    if (sources.length === 0) continue;
    const live = inventory.byId.get(a.kind)?.get(a.id);
    const by = sources.map((s) => deleting.get(`${s.kind}/${live?.[s.member]}`)).find((d) => d !== undefined);
    if (by) {
      a.cascadedBy = by;
      if (a.action === "replace") a.replaceOrder = "create-first";
    }
  }
}
