/**
 * Before a saved plan is applied: has anything it relied on changed? Checked
 * with delta sync where the kind reports what matters, and otherwise with the
 * fewer of one read per planned object or a full list.
 */
import { ApiError, isoSeconds, type Operations } from "../api/index.ts";
import { engineKind, type Row } from "./kinds/index.ts";
import type { DesiredResource, KindName, Plan, State } from "./model.ts";
import { configDigest, observedOf } from "./plan.ts";
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

export async function checkSavedPlan(
  ops: Operations,
  plan: Plan,
  state: State,
  desired: readonly DesiredResource[],
): Promise<FreshLive> {
  const changed: string[] = [];
  if (plan.lineage !== state.lineage) changed.push("the plan was made from another state (lineage differs)");
  else if (plan.serial !== state.serial)
    changed.push(`the state was written since the plan (serial ${plan.serial}, now ${state.serial})`);
  if (configDigest(state.lineage, desired) !== plan.configDigest)
    changed.push("the config changed since the plan");
  const account = await ops.account.get();
  if (String(account.id) !== plan.accountId)
    changed.push(`the token reaches account ${account.id}, not ${plan.accountId}`);
  if (changed.length > 0) throw new StalePlanError(changed);

  const fresh: FreshLive = {
    live: new Map(),
    complete: new Set(),
    maxBulkItems: (account.limits as { maxBulkItems?: number } | undefined)?.maxBulkItems ?? 100,
  };
  const ids = new Map<string, string>(
    Object.entries(state.resources).flatMap(([a, r]) => (r.id ? [[a, r.id]] : [])),
  );
  const byKind = new Map<KindName, Plan["actions"]>();
  for (const a of plan.actions) {
    if (a.action === "no-op" || a.action === "forget") continue;
    byKind.set(a.kind, [...(byKind.get(a.kind) ?? []), a]);
  }
  const desiredByAddress = new Map(desired.map((d) => [d.address, d]));

  for (const [name, actions] of byKind) {
    const kind = engineKind(name);
    const rows = new Map<string, Row>();
    const observed = actions.filter((a) => a.id && a.observed);
    const creates = actions.filter((a) => a.action === "create" || a.action === "replace");
    const cursor = plan.syncCursors[name];
    const total = plan.liveCounts?.[name] ?? Number.POSITIVE_INFINITY;
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
          try {
            rows.set(
              a.id!,
              await kind.getOne(ops, { id: a.id, ...(state.resources[a.address]?.naturalKey ?? {}) }),
            );
          } catch (error) {
            // Only a 404 means gone (reported below as deleted); any other failure is not an answer.
            if (!(error instanceof ApiError && error.status === 404)) throw error;
          }
        }
      } else {
        for (const row of (await kind.listAll(ops)).rows) rows.set(String(row.id), row);
        listed = true;
      }
    }
    for (const a of observed) {
      const row = rows.get(a.id!);
      if (!row) {
        if (listed || !everyEdit) changed.push(`${a.address}: ${a.id} was deleted`);
        continue;
      }
      const now = observedOf(kind, row);
      const digestMoved = a.observed!.digest !== undefined && now.digest !== a.observed!.digest;
      if (now.updated !== a.observed!.updated || digestMoved)
        changed.push(
          `${a.address}: ${a.id} was changed${now.updated ? ` (updated ${isoSeconds(now.updated)})` : ""}`,
        );
    }
    // An object that appeared with the natural key of a planned create would collide with it.
    for (const a of creates) {
      const d = desiredByAddress.get(a.address);
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
    fresh.live.set(name, rows);
    if (listed) fresh.complete.add(name);
  }
  if (changed.length > 0) throw new StalePlanError(changed);
  return fresh;
}
