import { updateBody } from "../../../src/engine/apply/bodies.ts";
import { diffResource, type ResourceDiff } from "../../../src/engine/diff.ts";
import { engineKind, type Members, type Row } from "../../../src/engine/kinds/index.ts";
import type { KindName, Lifecycle, ResourceState } from "../../../src/engine/model.ts";

export const lineage = "l1";

export type Prior = Pick<ResourceState, "managed" | "secrets">;

export interface DiffCase {
  live?: Row;
  prior?: Prior;
  lifecycle?: Lifecycle;
  sensitive?: string[];
}

export function diff(kind: KindName, desired: Members, c: DiffCase = {}): ResourceDiff {
  return diffResource({ kind: engineKind(kind), desired, lineage, ...c });
}

/** What the state holds once `desired` has been applied: the diff's managed members and credential hashes. */
export function applied(kind: KindName, desired: Members, c: Pick<DiffCase, "sensitive"> = {}): Prior {
  const { managed, secrets } = diff(kind, desired, c);
  return { managed, secrets };
}

/** The PATCH body apply would send for this diff. */
export function patch(kind: KindName, desired: Members, result: ResourceDiff): Members {
  const k = engineKind(kind);
  return updateBody(k, result.changes, desired, k.normalizeDesired(desired));
}

/** A deep copy with `edit` applied, so each case starts from the same row. */
export function edited<T>(value: T, edit: (copy: T) => void): T {
  const copy = structuredClone(value);
  edit(copy);
  return copy;
}
