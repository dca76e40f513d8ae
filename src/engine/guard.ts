/**
 * Guards against deleting by accident. An empty configuration against a state
 * that manages objects, a kind the configuration no longer declares at all, or
 * a plan that deletes most of what the state manages: each looks like a
 * configuration given in part (a file left out, a wrong path, an empty file)
 * rather than an edit, so the plan is refused before anything is written.
 */
import { kinds, ownedKindsOf } from "../kinds/index.ts";
import { engineKind } from "./kinds/index.ts";
import type { DesiredResource, KindName, Plan, State } from "./model.ts";

/** A kind whose every managed object goes counts once it loses at least this many (one is an ordinary edit). */
export const kindVanishMinimum = 2;
/** A plan deleting more than this share of the managed objects, and at least `massDeleteMinimum` of them. */
export const massDeleteShare = 0.5;
export const massDeleteMinimum = 5;

const listed = 10;

/**
 * Kinds whose objects belong to others, as their relations declare (subscriptions belong to a monitor and a
 * contact, and vigil files write them inside the monitor): their last ones going is an edit of their owners,
 * and a file left out shows as its owners going.
 */
const ownedKinds: readonly string[] = ownedKindsOf(kinds).map((k) => k.name);

export class DeletionGuardError extends Error {
  /**
   * Which guard refused, for frontends to decide on: `empty_configuration` `{managed}`, or `mass_delete`
   * `{deletes, managed, vanishedKinds}`.
   */
  readonly code: "empty_configuration" | "mass_delete";
  readonly data: Readonly<Record<string, unknown>>;
  /** The addresses the refused plan would have deleted (none when the config is empty: nothing was planned). */
  readonly addresses: string[];
  constructor(
    code: DeletionGuardError["code"],
    data: DeletionGuardError["data"],
    message: string,
    addresses: string[] = [],
  ) {
    super(message);
    this.name = "DeletionGuardError";
    this.code = code;
    this.data = data;
    this.addresses = addresses;
  }
}

/** The objects the state manages: entries with an id (a create still pending has none). */
function managedCount(state: State): number {
  return Object.values(state.resources).filter((r) => r.id).length;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * An empty configuration against a state that manages objects: refused before any call, whatever the flags.
 * Deleting everything is what `vigil destroy` is for.
 */
export function assertConfigNotEmpty(desired: readonly DesiredResource[], state: State): void {
  const held = managedCount(state);
  if (desired.length > 0 || held === 0) return;
  throw new DeletionGuardError(
    "empty_configuration",
    { managed: held },
    `The configuration declares no resources, yet the state manages ${plural(held, "object")}: applying it would delete every one of them. Nothing was planned or changed. Check that the files or directories given hold the configuration (an empty file, or a wrong path, reads as "no resources"). To delete everything vigil manages, run vigil destroy.`,
  );
}

/**
 * A plan that deletes every managed object of a kind the config no longer declares (at least
 * `kindVanishMinimum` of them), or more than `massDeleteShare` of everything managed (at least
 * `massDeleteMinimum`), is refused unless the caller allows mass deletion.
 */
export function assertNoMassDelete(plan: Plan, desired: readonly DesiredResource[], state: State): void {
  const deletes = plan.actions.filter((a) => a.action === "delete");
  if (deletes.length === 0) return;
  const declared = new Set<KindName>(desired.map((d) => d.kind));
  const byKind = new Map<KindName, number>();
  for (const a of deletes) byKind.set(a.kind, (byKind.get(a.kind) ?? 0) + 1);
  const vanished = [...byKind].filter(
    ([kind, n]) => !declared.has(kind) && !ownedKinds.includes(kind) && n >= kindVanishMinimum,
  );
  const held = managedCount(state);
  const most = deletes.length >= massDeleteMinimum && deletes.length > held * massDeleteShare;
  if (vanished.length === 0 && !most) return;

  const addresses = deletes.map((a) => a.address);
  const shown = addresses.slice(0, listed).join(", ");
  const more = addresses.length > listed ? ` and ${addresses.length - listed} more` : "";
  const kinds = vanished.map(([kind, n]) => `all ${n} ${engineKind(kind).section}`);
  const why = [
    ...(most ? [`${plural(deletes.length, "object")} of the ${held} vigil manages`] : []),
    ...(kinds.length > 0
      ? [
          `${kinds.join(" and ")} (the configuration declares no ${vanished.length === 1 ? "object of that kind" : "objects of those kinds"})`,
        ]
      : []),
  ].join(", including ");
  throw new DeletionGuardError(
    "mass_delete",
    { deletes: deletes.length, managed: held, vanishedKinds: vanished.map(([kind]) => kind) },
    `The plan would delete ${why}: ${shown}${more}. That looks like a configuration given in part (a file or directory left out, or a wrong path) rather than an edit, so vigil stops; nothing was changed. If these deletions are intended, run again with --allow-mass-delete. To delete everything vigil manages, run vigil destroy.`,
    addresses,
  );
}
