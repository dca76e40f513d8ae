/**
 * Apply: carries out a plan's actions in dependency order (creates and updates
 * by kind, deletes in reverse), with bulk jobs where they take fewer calls,
 * bounded concurrency elsewhere, and the journal around every write.
 */
import { ApiError, type Operations, type TimeSource } from "../../api/index.ts";
import { generatedValues } from "../../kinds/index.ts";
import { diffResource } from "../diff.ts";
import { type EngineKind, engineKind, engineKinds, type Members, type Row } from "../kinds/index.ts";
import type { DesiredResource, KindName, PlannedAction, ResourceState, State, StateLock } from "../model.ts";
import { refsIn, resolveRefs } from "../refs.ts";
import { hashSecret } from "../state/index.ts";
import { createBody, updateBody } from "./bodies.ts";
import { bulkStrategies } from "./bulk.ts";
import { Journal } from "./journal.ts";
import { explainIdempotencyConflict, finishCreate, patchObject } from "./object.ts";

export interface ApplyFailure {
  address: string;
  action: string;
  message: string;
  /** The API's problem document, when the API refused. */
  problem?: Record<string, unknown>;
}

export interface ApplyResult {
  done: { address: string; action: string; id?: string }[];
  failures: ApplyFailure[];
  /** Planned cascades the delete receipts did not name. */
  cascadeMismatches: string[];
}

export interface ApplyOptions {
  ops: Operations;
  lock: StateLock;
  state: State;
  actions: readonly PlannedAction[];
  desired: readonly DesiredResource[];
  /** Live rows known to the plan, by kind and id (bulk deletes need to know a kind in full). */
  live: Map<KindName, Map<string, Row>>;
  /** Kinds whose live rows are complete. */
  complete: ReadonlySet<KindName>;
  maxBulkItems: number;
  /** Single calls in flight at once. */
  concurrency?: number;
  time?: TimeSource;
  now?: () => number;
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Told, as soon as a create answers, each credential the service generated (a webhook's secret when the
   * config sets none): the answer is the only time it is shown, and the state keeps no credential, so the
   * frontend must hand it to the user now. Awaited before apply goes on.
   */
  onGenerated?: (value: GeneratedValue) => Promise<void>;
}

/** A credential the service generated and showed once. */
export interface GeneratedValue {
  address: string;
  kind: KindName;
  id: string;
  /** The member: `secret`. */
  member: string;
  value: string;
}

/** One resource settled by apply: frontends draw progress bars or log lines from these. */
export interface ProgressEvent {
  address: string;
  action: PlannedAction["action"];
  outcome: "done" | "failed";
  /** Why it failed, or what else happened (`adopted existing <id>`). */
  message?: string;
}

/** One resource on its way through apply. */
export interface Work {
  action: PlannedAction;
  kind: EngineKind;
  desired?: DesiredResource;
  /** Desired members with references resolved (once their targets exist). */
  members?: Members;
  live?: Row;
}

/** Deposed: the old half of a create-first replace, kept in the state until deleted so it is never orphaned. */
export const deposed = (address: string) => `${address}#deposed`;

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
    const naturalKey = Object.fromEntries(kind.definition.naturalKey.map((k) => [k, normalized[k] ?? null]));
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

  /** Runs `fn` over `items`, at most `concurrency` at once. */
  async each<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < items.length) await fn(items[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency ?? 4, items.length) }, worker));
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
    try {
      const live = work.live ?? liveStub(before, work.action.id!);
      const cascaded = await work.kind.remove({ ops: this.options.ops, idempotencyKey: key }, live);
      this.noteCascaded(cascaded);
    } catch (error) {
      if (!(error instanceof ApiError && (error.status === 404 || error.status === 410))) {
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

  /** Takes back a failure that a fallback is about to retry. */
  unfail(address: string): void {
    this.#failed.delete(address);
  }

  desiredOf(address: string): DesiredResource | undefined {
    return this.#desired.get(address);
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return isProblem(error) ? `${error.code}: ${error.detail ?? error.title}` : String(error);
}

function liveStub(entry: ResourceState | undefined, id: string): Row {
  return { ...entry?.managed, ...entry?.naturalKey, id };
}

function isProblem(value: unknown): value is { code: string; title: string; detail?: string } {
  return (
    typeof value === "object" && value !== null && typeof (value as { code?: unknown }).code === "string"
  );
}

/** The id a duplicate refusal names (409 duplicate_monitor / duplicate_contact / duplicate_resource). */
export function duplicateOf(error: unknown): string | undefined {
  const problem =
    error instanceof ApiError
      ? error.problem
      : isProblem(error)
        ? (error as Record<string, unknown>)
        : undefined;
  if (problem?.status !== 409 || typeof problem.code !== "string" || !problem.code.startsWith("duplicate"))
    return undefined;
  if (typeof problem.existingId === "string") return problem.existingId;
  const entry = (problem.errors as Record<string, unknown>[] | undefined)?.find(
    (e) => typeof e.existingId === "string",
  );
  return entry?.existingId as string | undefined;
}

/** Applies actions: creates and updates kind by kind, then deletes in reverse order. */
export async function applyActions(options: ApplyOptions): Promise<ApplyResult> {
  const applier = new Applier(options);
  const works: Work[] = options.actions.map((action) => ({
    action,
    kind: engineKind(action.kind),
    desired: applier.desiredOf(action.address),
    ...(action.id && { live: options.live.get(action.kind)?.get(action.id) }),
  }));

  for (const w of works.filter((w) => w.action.action === "forget")) {
    applier.journal.settle(w.action.address, undefined);
    applier.succeed(w);
  }
  await applier.journal.save();

  for (const kind of engineKinds) {
    const mine = works.filter((w) => w.kind === kind);
    const strategy = bulkStrategies[kind.name];
    // Delete-first replaces free their natural key before the new object is created.
    const deleteFirst = mine.filter(
      (w) => w.action.action === "replace" && w.action.replaceOrder === "delete-first",
    );
    await applier.each(deleteFirst, async (w) => {
      if (w.action.cascadedBy) await applier.settleCascade(w);
      else await applier.deleteOne(w);
    });
    // A replace whose old half could not be deleted must not create its new half.
    const creates = mine.filter(
      (w) =>
        (w.action.action === "create" || w.action.action === "replace") && !applier.failed(w.action.address),
    );
    for (const w of creates) {
      if (w.action.action === "replace" && w.action.replaceOrder === "create-first") {
        // The old object stays in the state, under its deposed address, until it is deleted.
        const old = applier.state.resources[w.action.address];
        if (old) {
          applier.state.resources[deposed(w.action.address)] = old;
          delete applier.state.resources[w.action.address];
        }
      }
    }
    await applier.journal.save();
    const updates = mine.filter((w) => w.action.action === "update" || w.action.action === "import");
    if (strategy) await strategy.write(applier, creates, updates);
    else {
      await applier.each(creates, (w) => applier.createOne(w));
      await applier.each(updates, (w) => applier.updateOne(w));
    }
  }

  // Settled once every delete ran: a dependent's cascade comes from a kind deleted after it in reverse order.
  const cascades: Work[] = [];
  for (const kind of [...engineKinds].reverse()) {
    const deletes = works.filter(
      (w) =>
        w.kind === kind &&
        (w.action.action === "delete" ||
          (w.action.action === "replace" && w.action.replaceOrder === "create-first")),
    );
    cascades.push(...deletes.filter((w) => w.action.cascadedBy));
    const ready: Work[] = [];
    for (const w of deletes.filter((d) => !d.action.cascadedBy)) {
      if (w.action.action === "delete") ready.push(w);
      else if (
        applier.state.resources[w.action.address]?.id &&
        !applier.state.resources[w.action.address]?.pending
      ) {
        ready.push(w);
      } else {
        // The new half failed: the old object stays, back under its own address.
        const old = applier.state.resources[deposed(w.action.address)];
        if (old && !applier.state.resources[w.action.address]) {
          applier.state.resources[w.action.address] = old;
          delete applier.state.resources[deposed(w.action.address)];
        }
      }
    }
    const strategy = bulkStrategies[kind.name];
    if (strategy?.remove) await strategy.remove(applier, ready);
    else await applier.each(ready, (w) => applier.deleteOne(w, stateAddressOf(w)));
  }
  for (const w of cascades) await applier.settleCascade(w);
  return applier.result;
}

/** Where the state keeps the object a delete removes. */
export function stateAddressOf(work: Work): string {
  return work.action.action === "replace" ? deposed(work.action.address) : work.action.address;
}
