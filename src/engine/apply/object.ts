/**
 * The writes of one object, with no state or journal around them: what the
 * engine's apply journals, and what frontends that keep their own state
 * (Terraform, Pulumi) call directly. Each step carries its own idempotency key.
 */
import type { Operations } from "../../api/index.ts";
import type { EngineKind, Members, Row } from "../kinds/index.ts";
import type { Change } from "../model.ts";
import { touchesSide, updateBody, updateOnlyMembers } from "./bodies.ts";

/** The write steps of one object, each needing an idempotency key of its own. */
export type WriteStep = "create" | "side" | "update-only" | "update" | "delete";
export type KeyFor = (step: WriteStep) => string;

/**
 * After a create: the members written by calls of their own (components), then the update-only ones.
 * Answers whether it wrote anything, so a caller knows the create's answer is no longer the whole object.
 */
export async function finishCreate(
  ops: Operations,
  kind: EngineKind,
  id: string,
  members: Members,
  keyFor: KeyFor,
): Promise<boolean> {
  let wrote = false;
  if (kind.writeSide && kind.sideMembers.some((m) => members[m] !== undefined)) {
    await kind.writeSide({ ops, idempotencyKey: keyFor("side") }, id, members);
    wrote = true;
  }
  const later = updateOnlyMembers(kind, members);
  if (later.length > 0) {
    await kind.update(
      { ops, idempotencyKey: keyFor("update-only") },
      { id, ...members },
      Object.fromEntries(later.map((m) => [m, members[m]])),
    );
    wrote = true;
  }
  return wrote;
}

/** Applies `changes` to a live object: the minimal PATCH, then the side call when side members changed. */
export async function patchObject(
  ops: Operations,
  kind: EngineKind,
  live: Row,
  members: Members,
  changes: readonly Change[],
  keyFor: KeyFor,
): Promise<void> {
  const body = updateBody(kind, changes, members, kind.normalizeDesired(members));
  if (Object.keys(body).length > 0) await kind.update({ ops, idempotencyKey: keyFor("update") }, live, body);
  if (kind.writeSide && touchesSide(kind, changes))
    await kind.writeSide({ ops, idempotencyKey: keyFor("side") }, String(live.id), members);
}
