/**
 * The natural key a state keeps for an address, so a lost create can be found again: a member holding a
 * secret (a monitor's url with a token from the environment) is kept as its salted hash, never in full,
 * and a live object is compared with it by hashing its own value of that member.
 */
import type { EngineKind, Members, Row } from "./kinds/index.ts";
import type { ResourceState } from "./model.ts";
import { isUnder, pointer } from "./pointer.ts";
import { hashSecret } from "./state/index.ts";

/** The natural key's members that hold a secret: any credential pointer lies at or under them. */
function hiddenMembers(kind: EngineKind, secretPaths: readonly string[]): string[] {
  return kind.definition.naturalKey.filter((k) => secretPaths.some((p) => isUnder(p, pointer([k]))));
}

/** The natural key of `normalized` (desired members, normalised) as the state keeps it. */
export function keptNaturalKey(
  kind: EngineKind,
  normalized: Members,
  secretPaths: readonly string[],
  lineage: string,
): Record<string, unknown> {
  const hidden = hiddenMembers(kind, secretPaths);
  return Object.fromEntries(
    kind.definition.naturalKey.map((k) => [
      k,
      hidden.includes(k) ? hashSecret(lineage, normalized[k] ?? null) : (normalized[k] ?? null),
    ]),
  );
}

/** Whether a state entry keeps any member of its natural key hashed. */
export function hidesNaturalKey(kind: EngineKind, entry: Pick<ResourceState, "secrets">): boolean {
  return hiddenMembers(kind, Object.keys(entry.secrets ?? {})).length > 0;
}

/** The natural key of a live row in the terms of a state entry: each member the entry hides, hashed as it is. */
export function liveKeyAsKept(
  kind: EngineKind,
  entry: Pick<ResourceState, "secrets">,
  row: Row,
  lineage: string,
): string | undefined {
  const live = { ...kind.normalizeLive(row) };
  for (const k of hiddenMembers(kind, Object.keys(entry.secrets ?? {})))
    live[k] = hashSecret(lineage, live[k] ?? null);
  return kind.naturalKey(live);
}
