/**
 * The writes of one object, with no state or journal around them: what the
 * engine's apply journals, and what frontends that keep their own state
 * (Terraform, Pulumi) call directly. Each step carries its own idempotency key.
 */
import { createHash, randomBytes } from "node:crypto";
import { ApiError, isGone, type Operations } from "../../api/index.ts";
import { generatedValues } from "../../kinds/index.ts";
import type { EngineKind, Members, Row } from "../kinds/index.ts";
import type { Change } from "../model.ts";
import { canonicalJson } from "../state/index.ts";
import { createBody, touchesSide, updateBody, updateOnlyMembers } from "./bodies.ts";

/** The write steps of one object, each needing an idempotency key of its own. */
export type WriteStep = "create" | "side" | "update-only" | "update" | "delete";
/**
 * The key of one step, given what that step sends (`content`: its object and body; absent for a delete, which
 * sends nothing but its object's id), so keys derived from content never name two different requests. Keys
 * that carry a nonce of their run may ignore it.
 */
export type KeyFor = (step: WriteStep, content?: unknown) => string;

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
    await kind.writeSide(
      { ops, idempotencyKey: keyFor("side", sideContent(kind, id, members)) },
      id,
      members,
    );
    wrote = true;
  }
  const later = updateOnlyMembers(kind, members);
  if (later.length > 0) {
    const body = Object.fromEntries(later.map((m) => [m, members[m]]));
    await kind.update({ ops, idempotencyKey: keyFor("update-only", { id, body }) }, { id, ...members }, body);
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
  const id = String(live.id);
  if (Object.keys(body).length > 0)
    await kind.update({ ops, idempotencyKey: keyFor("update", { id, body }) }, live, body);
  if (kind.writeSide && touchesSide(kind, changes))
    await kind.writeSide(
      { ops, idempotencyKey: keyFor("side", sideContent(kind, id, members)) },
      id,
      members,
    );
}

/** What a side write sends: the object and its side members (the call writes them whole). */
function sideContent(kind: EngineKind, id: string, members: Members): unknown {
  return { id, side: Object.fromEntries(kind.sideMembers.map((m) => [m, members[m] ?? null])) };
}

// ---------------------------------------------------------------------------
// Whole objects, for frontends that keep the state themselves

/** What creating whole objects needs of a provider process's session (`ObjectSession`, in `session.ts`). */
export interface CreateSession {
  ops: Operations;
  /** Ids this process created, so two resources never end up holding the same object. */
  created: Set<string>;
  /** Whether the service answered a write under this key with the stored answer of an earlier one. */
  replayed(key: string): boolean;
}

/**
 * The nonce of one intended write of a frontend that keeps its own state (Terraform's planned change,
 * Pulumi's checked step): its keys carry it, so the write's retries share them and no other write (another
 * state declaring the same object, the next run of this one) ever does. `seed`: the host's random bytes for
 * this step (Pulumi's `randomSeed`, fixed by an update plan), so a retry of the step is the same write;
 * without it, random.
 */
export function writeNonce(seed?: Uint8Array): string {
  const bytes = seed && seed.length >= 16 ? createHash("sha256").update(seed).digest() : randomBytes(16);
  return bytes.toString("hex").slice(0, 32);
}

/** Whether a value carried back by the host is a nonce `writeNonce` made. */
export const isWriteNonce = (value: unknown): value is string =>
  typeof value === "string" && /^[0-9a-f]{32}$/.test(value);

/**
 * Idempotency keys derived from what a write is about (`about`: the resource type, operation and the
 * write's nonce; `parts`: the body, or the object and its changes) and from what each step sends, so the
 * client's retries of a write replay instead of writing twice, and two different requests (two copies of
 * one state writing different values, a replayed create completed with other members) never share a key.
 */
export function derivedKeys(prefix: string, about: readonly unknown[], parts: readonly unknown[]): KeyFor {
  return (step, content) =>
    `${prefix}-${createHash("sha256")
      .update(canonicalJson([...about, step, ...parts, content ?? null]))
      .digest("hex")
      .slice(0, 40)}`;
}

/** Another resource of this process already created the object these members describe. */
export class SharedObjectError extends Error {
  readonly id: string;
  constructor(id: string) {
    super(`another resource already created ${id} with the same members; an object has one resource only`);
    this.id = id;
  }
}

/** The object exists, but a write that completes it failed: `created` is what the create answered. */
export class UnfinishedCreateError extends Error {
  readonly created: Row;
  constructor(created: Row, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.created = created;
  }
}

/**
 * Creates one object and completes it (`finishCreate`), answering it as it now is. A retry of the same write
 * sends the same key and is answered with the object the first attempt created; a replayed answer may name
 * an object deleted since, and then a new key (`keysFor`'s attempt) makes a new one.
 */
export async function createObject(
  session: CreateSession,
  kind: EngineKind,
  desired: Members,
  keysFor: (body: Members, attempt: number) => KeyFor,
): Promise<Row> {
  const body = createBody(kind, desired);
  const fetch = (id: string) => kind.getOne(session.ops, { ...desired, id });
  for (let attempt = 0; ; attempt++) {
    const keyFor = keysFor(body, attempt);
    const key = keyFor("create", body);
    const created = await kind.create({ ops: session.ops, idempotencyKey: key }, body);
    const id = String(created.id);
    // A fresh answer is the whole object; a replayed one is as old as its key, so the object is read.
    let row: Row | undefined = created;
    if (session.replayed(key) || session.created.has(id)) {
      row = await fetch(id).catch((error: unknown) => {
        if (isGone(error) && attempt < 2) return undefined;
        throw error;
      });
      if (!row) continue;
      if (session.created.has(id)) throw new SharedObjectError(id);
    }
    session.created.add(id);
    try {
      const wrote = await finishCreate(session.ops, kind, id, desired, keyFor);
      // A read shows a generated credential masked: the create's answer (a replayed one too) alone holds it.
      const revealed = Object.fromEntries(generatedValues(kind.schemaFor(body), body, created));
      return { ...(wrote ? await fetch(id) : row), ...revealed };
    } catch (error) {
      throw new UnfinishedCreateError(row, error);
    }
  }
}

/** Deletes one object; one already gone (deleted outside, or with the monitor it belonged to) is not an error. */
export async function removeObject(ops: Operations, kind: EngineKind, live: Row, idempotencyKey: string) {
  await kind.remove({ ops, idempotencyKey }, live).catch((error: unknown) => {
    if (!isGone(error)) throw error;
  });
}

/**
 * A 409 `idempotency_key_conflict` in plain words: what it means, its likely cause and what to do. vigil's
 * keys never name two different requests, so the cause is outside this run: another one, working from a
 * copy of the same state, or still running. Undefined for any other error.
 */
export function explainIdempotencyConflict(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.code !== "idempotency_key_conflict") return undefined;
  const request = error.requestId ? `; request ${error.requestId}` : "";
  if (error.reason === "in_flight")
    return `${error.route} was refused: the service is still running an earlier request sent with the same Idempotency-Key (409 idempotency_key_conflict, in_flight${request}). Most likely another run is applying a copy of the same state at this moment (a teammate, or CI). Let it finish, then plan again: the plan shows what it changed.`;
  return `${error.route} was refused: its Idempotency-Key was already used, within the service's 24 hours, for a different request (409 idempotency_key_conflict, ${error.reason ?? "different_body"}${request}). This request changed nothing. The likely cause is another run from a copy of the same state (a teammate's checkout, CI, or a state restored from Git) that sent a different change. Bring this copy of the state up to date with the newest one, then plan again and review the plan before applying.`;
}
