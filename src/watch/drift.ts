/**
 * Drift, resource by resource: the live object against what vigil last
 * applied, for the addresses the config declares and the state manages. The
 * same diff `plan --refresh-only` makes, but per address, so an event costs
 * one resource's diff instead of a whole plan.
 */
import { createHash } from "node:crypto";
import {
  type DesiredResource,
  diffResource,
  engineKind,
  type KindName,
  type Row,
  type State,
} from "../engine/index.ts";
import { resolveRefs } from "../engine/refs.ts";

/** One member that moved: `before` is what vigil applied (the config), `after` what is live now. */
export interface MemberDrift {
  member: string;
  before?: unknown;
  after?: unknown;
  sensitive?: true;
}

export interface Drift {
  address: string;
  kind: KindName;
  id: string;
  /** The object is gone: deleted outside vigil. */
  deleted: boolean;
  members: MemberDrift[];
  /** Identifies this drift: the same members with the same values give the same digest. */
  digest: string;
}

/** `/settings/timeout` → `settings.timeout`. */
function memberName(path: string): string {
  return path
    .slice(1)
    .split("/")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"))
    .join(".");
}

/** The live rows the drift is judged against: per kind, by id. */
export type LiveRows = ReadonlyMap<KindName, ReadonlyMap<string, Row>>;

/**
 * The drift of one desired resource, or undefined when it has none, or when
 * vigil does not manage it yet (never applied: that is a plan's business).
 */
export function driftOf(resource: DesiredResource, state: State, live: LiveRows): Drift | undefined {
  const prior = state.resources[resource.address];
  if (!prior?.id || prior.pending) return undefined;
  const row = live.get(resource.kind)?.get(prior.id);
  const base = { address: resource.address, kind: resource.kind, id: prior.id };
  if (!row) return { ...base, deleted: true, members: [], digest: digest({ deleted: true }) };
  const kind = engineKind(resource.kind);
  const desired = resolveRefs(resource.members, (a) => state.resources[a]?.id) as Record<string, unknown>;
  const diff = diffResource({
    kind,
    desired,
    live: row,
    prior,
    lineage: state.lineage,
    ...(resource.lifecycle && { lifecycle: resource.lifecycle }),
    ...(resource.sensitive && { sensitive: resource.sensitive }),
  });
  const members: MemberDrift[] = diff.changes
    .filter((c) => c.drift)
    .map((c) => ({
      member: memberName(c.path),
      ...(c.value !== undefined && { before: c.value }),
      ...(c.before !== undefined && { after: c.before }),
      ...(c.sensitive && { sensitive: true as const }),
    }));
  if (members.length === 0) return undefined;
  return { ...base, deleted: false, members, digest: digest(members) };
}

function digest(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 32);
}
