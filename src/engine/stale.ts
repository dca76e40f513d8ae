/**
 * Before a saved plan is applied: has anything it relied on changed? Checked
 * with delta sync where the kind reports what matters, and otherwise with the
 * fewer of one read per planned object or a full list.
 */
import { ApiError, isoSeconds, type Operations } from "../api/index.ts";
import { type EngineKind, engineKind, type Row } from "./kinds/index.ts";
import type { DesiredResource, KindName, Plan, State } from "./model.ts";
import { configDigest, observedOf } from "./plan.ts";
import { assertPlanUntampered, shownValue, TamperedPlanError } from "./plan-trust.ts";
import { resolveRefs } from "./refs.ts";

export class StalePlanError extends Error {
  readonly changes: string[];
  constructor(changes: string[]) {
    super(
      `The saved plan is stale; make a new plan. What changed:\n${changes.map((c) => `  ${c}`).join("\n")}`,
    );
    this.name = "StalePlanError";
    this.changes = changes;
  }
}

export interface FreshLive {
  live: Map<KindName, Map<string, Row>>;
  complete: Set<KindName>;
  maxBulkItems: number;
}

const pageSize = 500;

/** One object, or undefined when it is gone (reported by the caller); any other failure is not an answer. */
async function getIfAny(
  kind: EngineKind,
  ops: Operations,
  id: string,
  context: Record<string, unknown>,
): Promise<Row | undefined> {
  try {
    // The context (a natural key, members) carries the parent ids a nested kind is read under.
    return await kind.getOne(ops, { ...context, id });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
    return undefined;
  }
}

export async function checkSavedPlan(
  ops: Operations,
  plan: Plan,
  state: State,
  desired: readonly DesiredResource[],
  imports: readonly { address: string; id: string }[] = [],
): Promise<FreshLive> {
  const changed = sourceChanges(plan, state, desired);
  // The plan's ids are trusted below: with the state and config it was made from, they must be theirs.
  assertPlanUntampered(plan, state, desired, imports);
  const account = await ops.account.get();
  if (String(account.id) !== plan.accountId)
    changed.push(`the token reaches account ${account.id}, not ${plan.accountId}`);
  if (changed.length > 0) throw new StalePlanError(changed);

  const fresh: FreshLive = {
    live: new Map(),
    complete: new Set(),
    maxBulkItems: (account.limits as { maxBulkItems?: number } | undefined)?.maxBulkItems ?? 100,
  };
  const context: PlanContext = {
    ops,
    plan,
    state,
    desired: new Map(desired.map((d) => [d.address, d])),
    imported: new Set(imports.map((i) => i.address)),
    // The ids references resolve to, as the plan resolved them: none yet for what it creates.
    planned: new Map(
      plan.actions.map((a) => [
        a.address,
        a.action === "create" || a.action === "replace" ? undefined : a.id,
      ]),
    ),
    ids: new Map<string, string>(
      Object.entries(state.resources).flatMap(([a, r]) => (r.id ? [[a, r.id]] : [])),
    ),
  };
  const tampered: string[] = [];
  for (const [name, actions] of actionsByKind(plan)) {
    const kind = engineKind(name);
    const { rows, listed } = await freshRows(context, kind, actions);
    const observed = actions.filter((a) => a.id && a.observed);
    const everyEdit = kind.definition.list?.deltaSync === "every edit";
    changed.push(...observedChanges(kind, observed, rows, listed || !everyEdit));
    tampered.push(...(await adoptionsNotImported(context, kind, actions, rows)));
    changed.push(...collisions(context, kind, actions, observed, rows));
    fresh.live.set(name, rows);
    if (listed) fresh.complete.add(name);
  }
  if (tampered.length > 0) throw new TamperedPlanError(tampered);
  if (changed.length > 0) throw new StalePlanError(changed);
  return fresh;
}

/** What the plan was made from that moved: the state (another lineage, a later serial) or the config. */
export function sourceChanges(plan: Plan, state: State, desired: readonly DesiredResource[]): string[] {
  const changed: string[] = [];
  if (plan.lineage !== state.lineage) changed.push("the plan was made from another state (lineage differs)");
  else if (plan.serial !== state.serial)
    changed.push(`the state was written since the plan (serial ${plan.serial}, now ${state.serial})`);
  if (configDigest(state.lineage, desired) !== plan.configDigest)
    changed.push("the config changed since the plan");
  return changed;
}

/** The plan and what it was checked against, as each kind's checks read them. */
interface PlanContext {
  ops: Operations;
  plan: Plan;
  state: State;
  desired: ReadonlyMap<string, DesiredResource>;
  /** The addresses the configuration imports by id. */
  imported: ReadonlySet<string>;
  /** Address → the id the plan resolved its references to (none for what it creates). */
  planned: ReadonlyMap<string, string | undefined>;
  /** Address → the id the state holds. */
  ids: ReadonlyMap<string, string>;
}

/** The actions that write, by kind. */
function actionsByKind(plan: Plan): Map<KindName, Plan["actions"]> {
  const byKind = new Map<KindName, Plan["actions"]>();
  for (const a of plan.actions) {
    if (a.action === "no-op" || a.action === "forget") continue;
    byKind.set(a.kind, [...(byKind.get(a.kind) ?? []), a]);
  }
  return byKind;
}

/**
 * The kind's objects as they are now, read the cheapest way that tells: one delta sync when it reports
 * every edit (or new objects are what matters), else one read per observed object or a full list, whichever
 * takes fewer calls. `listed`: every object of the kind was read.
 */
async function freshRows(
  { ops, plan, state }: PlanContext,
  kind: EngineKind,
  actions: Plan["actions"],
): Promise<{ rows: Map<string, Row>; listed: boolean }> {
  const rows = new Map<string, Row>();
  const observed = actions.filter((a) => a.id && a.observed);
  const creates = actions.filter((a) => a.action === "create" || a.action === "replace");
  const cursor = plan.syncCursors[kind.name];
  const total = plan.liveCounts?.[kind.name] ?? Number.POSITIVE_INFINITY;
  let listed = false;
  // Kinds whose delta sync reports every edit answer everything with one sync; others need their objects read.
  const everyEdit = kind.definition.list?.deltaSync === "every edit";
  if (cursor && kind.sync && (everyEdit || creates.length > 0)) {
    for (const row of (await kind.sync(ops, cursor)).rows) rows.set(String(row.id), row);
  } else if (!cursor || !kind.sync) {
    for (const row of (await kind.listAll(ops)).rows) rows.set(String(row.id), row);
    listed = true;
  }
  if (!listed && !everyEdit && observed.length > 0) {
    if (observed.length <= Math.ceil(total / pageSize)) {
      for (const a of observed) {
        const row = await getIfAny(kind, ops, a.id!, state.resources[a.address]?.naturalKey ?? {});
        if (row) rows.set(a.id!, row);
      }
    } else {
      for (const row of (await kind.listAll(ops)).rows) rows.set(String(row.id), row);
      listed = true;
    }
  }
  return { rows, listed };
}

/**
 * The observed objects that changed since the plan read them: updated later, or with other members. One
 * missing from `rows` was deleted when the rows would hold it (`missingIsDeleted`).
 */
export function observedChanges(
  kind: EngineKind,
  observed: Plan["actions"],
  rows: ReadonlyMap<string, Row>,
  missingIsDeleted: boolean,
): string[] {
  const changed: string[] = [];
  for (const a of observed) {
    const row = rows.get(a.id!);
    if (!row) {
      if (missingIsDeleted) changed.push(`${a.address}: ${a.id} was deleted`);
      continue;
    }
    const now = observedOf(kind, row);
    const digestMoved = a.observed!.digest !== undefined && now.digest !== a.observed!.digest;
    if (now.updated !== a.observed!.updated || digestMoved)
      changed.push(
        `${a.address}: ${a.id} was changed${now.updated ? ` (updated ${isoSeconds(now.updated)})` : ""}`,
      );
  }
  return changed;
}

/** An import the configuration does not name is an adoption: vigil plans one only by natural key. */
async function adoptionsNotImported(
  { ops, desired, imported, planned }: PlanContext,
  kind: EngineKind,
  actions: Plan["actions"],
  rows: ReadonlyMap<string, Row>,
): Promise<string[]> {
  const tampered: string[] = [];
  for (const a of actions) {
    const d = desired.get(a.address);
    if (a.action !== "import" || imported.has(a.address) || !d) continue;
    const members = resolveRefs(d.members, (x) => planned.get(x)) as Row;
    const row = rows.get(a.id!) ?? (await getIfAny(kind, ops, a.id!, members));
    if (!row) continue;
    const key = kind.naturalKey(kind.normalizeDesired(members));
    if (key === undefined || kind.naturalKey(kind.normalizeLive(row)) !== key)
      tampered.push(
        `${shownValue(a.address)}: the plan adopts ${shownValue(a.id)}, which the configuration does not import and whose natural key is not the resource's`,
      );
  }
  return tampered;
}

/** An object that appeared with the natural key of a planned create would collide with it. */
function collisions(
  { desired, ids }: PlanContext,
  kind: EngineKind,
  actions: Plan["actions"],
  observed: Plan["actions"],
  rows: ReadonlyMap<string, Row>,
): string[] {
  const changed: string[] = [];
  for (const a of actions) {
    if (a.action !== "create" && a.action !== "replace") continue;
    const d = desired.get(a.address);
    if (!d) continue;
    const key = kind.naturalKey(kind.normalizeDesired(resolveRefs(d.members, (x) => ids.get(x)) as Row));
    if (key === undefined) continue;
    for (const row of rows.values()) {
      if (
        row.id !== a.id &&
        kind.naturalKey(kind.normalizeLive(row)) === key &&
        !observed.some((o) => o.id === row.id)
      )
        changed.push(`${a.address}: ${kind.name} ${row.id} with the same natural key appeared`);
    }
  }
  return changed;
}
