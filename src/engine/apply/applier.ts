/**
 * The applier: one object's writes (create, update, delete, adoption of a duplicate, a planned cascade)
 * with the journal around each, and the bookkeeping every write shares (references resolved, failures and
 * successes reported, state entries built).
 */
import { ApiError, isGone } from "../../api/index.ts";
import { generatedValues } from "../../kinds/index.ts";
import { diffResource } from "../diff.ts";
import { keptNaturalKey } from "../kept-natural-key.ts";
import type { Members, Row } from "../kinds/index.ts";
import type { DesiredResource, KindName, PlannedAction, ResourceState, State } from "../model.ts";
import { refsIn, resolveRefs } from "../refs.ts";
import { hashSecret } from "../state/index.ts";
import { createBody, updateBody } from "./bodies.ts";
import { Journal, rethrowIfStateLost } from "./journal.ts";
import { type ApplyFailure, type ApplyOptions, type ApplyResult, deposed, type Work } from "./model.ts";
import { explainIdempotencyConflict, finishCreate, patchObject } from "./object.ts";
import { duplicateOf, isProblem, messageOf } from "./refusals.ts";

export class Applier {
  readonly journal: Journal;
  readonly result: ApplyResult = { done: [], failures: [], cascadeMismatches: [] };
  readonly options: ApplyOptions;
  readonly #failed = new Set<string>();
  readonly #desired: Map<string, DesiredResource>;
  /** Cascaded ids each delete receipt named, per kind. */
  readonly #cascaded = new Map<string, true>();

  constructor(options: ApplyOptions) {
    this.options = options;
    this.journal = new Journal(
      options.lock,
      options.state,
      options.now ?? (() => Math.floor(Date.now() / 1000)),
      options.signal,
    );
    this.#desired = new Map(options.desired.map((d) => [d.address, d]));
  }

  get state(): State {
    return this.journal.state;
  }

  idOf = (address: string): string | undefined => this.state.resources[address]?.id;

  /** Desired members with references resolved; undefined (and a failure) when a target failed or has no id. */
  resolve(work: Work): Members | undefined {
    const desired = work.desired!;
    const missing = refsIn(desired.members).filter((a) => !this.idOf(a));
    if (missing.length > 0) {
      const failed = missing.filter((a) => this.#failed.has(a));
      this.fail(
        work,
        failed.length > 0
          ? `depends on ${failed.join(", ")}, which failed`
          : `depends on ${missing.join(", ")}, which has no id`,
      );
      return undefined;
    }
    work.members = resolveRefs(desired.members, this.idOf) as Members;
    return work.members;
  }

  fail(work: Work, error: unknown): void {
    const address = work.action.address;
    this.#failed.add(address);
    const failure: ApplyFailure = {
      address,
      action: work.action.action,
      message: explainIdempotencyConflict(error) ?? (error instanceof Error ? error.message : String(error)),
    };
    if (error instanceof ApiError) failure.problem = error.problem;
    else if (isProblem(error)) {
      failure.problem = error;
      failure.message = `${error.code}: ${error.detail ?? error.title}`;
    }
    this.result.failures.push(failure);
    this.options.onProgress?.({
      address,
      action: work.action.action,
      outcome: "failed",
      message: failure.message,
    });
  }

  succeed(work: Work, id?: string, message?: string): void {
    this.result.done.push({ address: work.action.address, action: work.action.action, ...(id && { id }) });
    this.options.onProgress?.({
      address: work.action.address,
      action: work.action.action,
      outcome: "done",
      ...(message && { message }),
    });
  }

  /** The state entry for an address once its object matches the config. */
  entryFor(work: Work, id: string): ResourceState {
    const kind = work.kind;
    const members = work.members!;
    const diff = diffResource({
      kind,
      desired: members,
      lineage: this.state.lineage,
      ...(work.desired?.sensitive && { sensitive: work.desired.sensitive }),
    });
    const normalized = kind.normalizeDesired(members);
    const naturalKey = keptNaturalKey(kind, normalized, Object.keys(diff.secrets), this.state.lineage);
    const lifecycle = work.desired?.lifecycle;
    const kept = {
      ...(lifecycle?.protect && { protect: true }),
      ...(lifecycle?.retainOnDelete && { retainOnDelete: true }),
    };
    return {
      kind: kind.name,
      id,
      naturalKey,
      managed: diff.managed,
      ...(Object.keys(diff.secrets).length > 0 && { secrets: diff.secrets }),
      ...(Object.keys(kept).length > 0 && { lifecycle: kept }),
    };
  }

  /** The entry of an object being created: everything but the id, which only the answer gives. */
  pendingEntry(work: Work): ResourceState {
    const { id: _unknown, ...entry } = this.entryFor(work, "");
    return entry;
  }

  failed(address: string): boolean {
    return this.#failed.has(address);
  }

  /**
   * Runs `fn` over `items`, at most `concurrency` at once. After an error no item starts, and the error
   * comes once the items under way have ended: what they did is known before the apply stops.
   */
  async each<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    let stopped = false;
    const worker = async () => {
      while (next < items.length && !stopped)
        await fn(items[next++]!).catch((error: unknown) => {
          stopped = true;
          throw error;
        });
    };
    const ended = await Promise.allSettled(
      Array.from({ length: Math.min(this.options.concurrency ?? 4, items.length) }, worker),
    );
    const failed = ended.find((e): e is PromiseRejectedResult => e.status === "rejected");
    if (failed) throw failed.reason;
  }

  // ---- single calls -------------------------------------------------------

  /** Creates one object, then writes what the create cannot carry (components, update-only members). */
  async createOne(work: Work): Promise<void> {
    const members = this.resolve(work);
    if (!members) return;
    const { address } = work.action;
    const before = this.state.resources[address];
    const body = createBody(work.kind, members);
    // An unconfirmed create of an earlier run, with the same body, is sent again under its key: the service replays it.
    const earlier = before?.pending;
    const key =
      earlier?.action === "create" &&
      !before?.id &&
      earlier.bodyDigest === hashSecret(this.state.lineage, body)
        ? earlier.idempotencyKey
        : this.journal.keyFor("create", [address]);
    await this.journal.begin([{ address, entry: this.pendingEntry(work), action: "create", body }], key);
    let row: Row;
    try {
      row = await work.kind.create({ ops: this.options.ops, idempotencyKey: key }, body);
    } catch (error) {
      if (await this.adoptDuplicate(work, error, before)) return;
      await this.failWrite(work, address, before, error);
      return;
    }
    await this.#handOutGenerated(work, body, row);
    await this.#finishCreate(work, String(row.id));
  }

  async #handOutGenerated(work: Work, body: Members, row: Row): Promise<void> {
    const onGenerated = this.options.onGenerated;
    if (!onGenerated) return;
    const schema = work.kind.schemaFor(body);
    for (const [member, value] of generatedValues(schema, body, row))
      await onGenerated({
        address: work.action.address,
        kind: work.kind.name,
        id: String(row.id),
        member,
        value,
      });
  }

  /** After a create: the side writes and update-only members, then the settled entry. */
  async #finishCreate(work: Work, id: string): Promise<void> {
    const { address } = work.action;
    const members = work.members!;
    try {
      await finishCreate(this.options.ops, work.kind, id, members, (step) =>
        this.journal.keyFor(step, [address]),
      );
    } catch (error) {
      // The object exists: keep it under its address; the next plan shows what is still to write.
      this.journal.settle(address, { ...this.entryFor(work, id), managed: {} });
      this.fail(work, error);
      await this.journal.save();
      return;
    }
    this.journal.settle(address, this.entryFor(work, id));
    await this.journal.save();
    this.succeed(work, id);
  }

  /**
   * A create answered with a duplicate (409 naming the existing object) adopts
   * that object, but only when no other address of the state manages it.
   */
  async adoptDuplicate(work: Work, error: unknown, before: ResourceState | undefined): Promise<boolean> {
    const existingId = duplicateOf(error);
    if (!existingId) return false;
    const { address } = work.action;
    const owner = Object.entries(this.state.resources).find(
      ([a, r]) => a !== address && r.kind === work.kind.name && r.id === existingId,
    )?.[0];
    if (owner) {
      this.undo(address, before, error);
      this.fail(work, `${messageOf(error)}: the existing object ${existingId} is managed as ${owner}`);
      await this.journal.save();
      return true;
    }
    try {
      const live = await work.kind.getOne(this.options.ops, { id: existingId, ...work.members });
      work.live = live;
      const diff = diffResource({
        kind: work.kind,
        desired: work.members!,
        live,
        lineage: this.state.lineage,
        ...(work.desired?.sensitive && { sensitive: work.desired.sensitive }),
      });
      if (diff.changes.length > 0) await this.#patch(work, existingId, diff.changes);
      this.journal.settle(address, this.entryFor(work, existingId));
      await this.journal.save();
      this.succeed(work, existingId, `adopted existing ${existingId}`);
    } catch (adoptError) {
      rethrowIfStateLost(adoptError);
      await this.failWrite(work, address, before, adoptError);
    }
    return true;
  }

  async #patch(work: Work, id: string, changes: PlannedAction["changes"]): Promise<void> {
    const members = work.members!;
    await patchObject(
      this.options.ops,
      work.kind,
      work.live ?? { id, ...members },
      members,
      changes,
      (step) => this.journal.keyFor(step, [work.action.address]),
    );
  }

  /** Updates one object (or finishes an import) with the minimal body. */
  async updateOne(work: Work): Promise<void> {
    const members = this.resolve(work);
    if (!members) return;
    const { address, id } = work.action;
    const before = this.state.resources[address];
    const entry = this.entryFor(work, id!);
    // Exactly the planned changes; their values are taken from the members, now that every reference has its id.
    const { changes } = work.action;
    if (changes.length > 0) {
      const body = updateBody(work.kind, changes, members, work.kind.normalizeDesired(members));
      await this.journal.begin(
        [{ address, entry: before ?? entry, action: "update", body }],
        this.journal.keyFor("update", [address]),
      );
      try {
        await this.#patch(work, id!, changes);
      } catch (error) {
        await this.failWrite(work, address, before, error);
        return;
      }
    }
    this.journal.settle(address, entry);
    await this.journal.save();
    this.succeed(work, id);
  }

  /** Deletes one object; a 404 means it is already gone. Records what the receipt cascaded. */
  async deleteOne(work: Work, stateAddress = work.action.address): Promise<void> {
    const before = this.state.resources[stateAddress];
    const key = this.journal.keyFor("delete", [stateAddress]);
    if (before)
      await this.journal.begin([{ address: stateAddress, entry: before, action: "delete", body: null }], key);
    else this.journal.assertMayStart();
    try {
      const live = work.live ?? liveStub(before, work.action.id!);
      const cascaded = await work.kind.remove({ ops: this.options.ops, idempotencyKey: key }, live);
      this.noteCascaded(cascaded);
    } catch (error) {
      if (!isGone(error)) {
        await this.failWrite(work, stateAddress, before, error);
        return;
      }
    }
    this.journal.settle(stateAddress, undefined);
    await this.journal.save();
    this.succeed(work, work.action.id);
  }

  noteCascaded(cascaded: Partial<Record<KindName, string[]>>): void {
    for (const [kind, ids] of Object.entries(cascaded))
      for (const id of ids ?? []) this.#cascaded.set(`${kind}/${id}`, true);
  }

  /** A planned cascade: no call; the receipt of the delete that caused it must have named it. */
  async settleCascade(work: Work): Promise<void> {
    const { address, id, cascadedBy } = work.action;
    const stateAddress = work.action.action === "replace" ? deposed(address) : address;
    if (this.#cascaded.has(`${work.kind.name}/${id}`)) {
      this.journal.settle(stateAddress, undefined);
      await this.journal.save();
      this.succeed(work, id);
      return;
    }
    if (this.#failed.has(cascadedBy!)) return;
    this.result.cascadeMismatches.push(
      `${address}: the plan expected deleting ${cascadedBy} to remove ${work.kind.name} ${id}, but the delete receipt did not name it; it stays in the state for the next plan to check`,
    );
  }

  /** A write failed: undone in the journal when it cannot have happened, reported, and the state saved. */
  async failWrite(
    work: Work,
    address: string,
    before: ResourceState | undefined,
    error: unknown,
  ): Promise<void> {
    this.undo(address, before, error);
    this.fail(work, error);
    await this.journal.save();
  }

  /**
   * A write failed. Only a refusal (4xx) of the first and only attempt changed nothing: after a retry,
   * an earlier attempt may have committed (a 5xx or a reset after the write) before a 429 refused the
   * retry, and an idempotency conflict means the first request is still running. Those stay pending.
   */
  undo(address: string, before: ResourceState | undefined, error: unknown): void {
    if (
      error instanceof ApiError &&
      error.status < 500 &&
      error.attempts <= 1 &&
      error.code !== "idempotency_key_conflict"
    )
      this.journal.abandon(address, before);
  }

  entryAt(address: string): ResourceState | undefined {
    return this.state.resources[address];
  }

  desiredOf(address: string): DesiredResource | undefined {
    return this.#desired.get(address);
  }
}

/** What the state knows of an object no listing showed: enough to address its delete. */
export function liveStub(entry: ResourceState | undefined, id: string): Row {
  return { ...entry?.managed, ...entry?.naturalKey, id };
}
