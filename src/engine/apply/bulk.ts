/**
 * Apply's side of the bulk routes (`engine/bulk/`): the planned writes of a kind that has a route become
 * its bulk writes, each journaled before its request goes and settled in the state from its item's outcome.
 */
import { applyPolicy } from "../bulk/policy.ts";
import type { BulkContext, BulkRoute, BulkWrite, ItemOutcome } from "../bulk/route.ts";
import { cascadedOf } from "../kinds/index.ts";
import type { ResourceState } from "../model.ts";
import { type Applier, liveStub } from "./applier.ts";
import { createBody } from "./bodies.ts";
import { rethrowIfStateLost } from "./journal.ts";
import { stateAddressOf, type Work } from "./model.ts";

type ApplyWrite = BulkWrite & {
  work: Work;
  /** Where the journal records the write: a delete's object (a replace's deposed half), else the address. */
  address: string;
  /** The entry at `address` when the write was sent. */
  before?: ResourceState | undefined;
};

/** Creates and updates of one kind through its route; an update whose changes fit no bulk item goes alone. */
export async function writeInBulk(
  applier: Applier,
  route: BulkRoute,
  creates: readonly Work[],
  updates: readonly Work[],
): Promise<void> {
  const writes: ApplyWrite[] = [];
  // A write whose references have no id (their target failed) is failed here, and sent nowhere.
  for (const work of creates) {
    const members = applier.resolve(work);
    if (members)
      writes.push({
        op: "create",
        kind: work.kind,
        body: createBody(work.kind, members),
        work,
        address: address(work),
      });
  }
  const alone: Work[] = [];
  for (const work of updates) {
    const members = applier.resolve(work);
    if (!members) continue;
    const live = work.live ?? { id: work.action.id };
    const item = route.updateItem(work.kind, live, members, work.action.changes);
    if (item) writes.push({ op: "update", kind: work.kind, live, item, work, address: address(work) });
    else alone.push(work);
  }
  await applier.each(alone, (w) => applier.updateOne(w));
  await route.send(contextOf(applier), writes);
}

/** Deletes of one kind through its route. */
export async function removeInBulk(
  applier: Applier,
  route: BulkRoute,
  deletes: readonly Work[],
): Promise<void> {
  const writes = deletes.map(
    (work): ApplyWrite => ({
      op: "delete",
      kind: work.kind,
      live: work.live ?? liveStub(applier.entryAt(stateAddressOf(work)), work.action.id!),
      work,
      address: stateAddressOf(work),
    }),
  );
  await route.send(contextOf(applier), writes);
}

const address = (work: Work) => work.action.address;

function contextOf(applier: Applier): BulkContext<ApplyWrite> {
  const { options, journal } = applier;
  const time = options.time && { time: options.time };
  return {
    ops: options.ops,
    ...time,
    policy: applyPolicy,
    maxItems: async () => options.maxBulkItems,
    order: (writes) => [...writes],
    complete: (kind) =>
      options.complete.has(kind.name) ? [...(options.live.get(kind.name)?.values() ?? [])] : undefined,
    reads: false,
    mayStart: () => journal.assertMayStart(),
    keyFor: (label, writes) =>
      journal.keyFor(
        label,
        writes.map((w) => w.address),
      ),
    async send(request, writes, bodies, call) {
      const addresses = writes.map((w) => w.address);
      const key = journal.keyFor(request.label, addresses);
      for (const w of writes) w.before = applier.entryAt(w.address);
      // Each item is journaled as what it is: a contact job mixes creates and updates, and a create-first
      // replace's create must not overwrite the deposed entry that still holds the old object.
      await journal.begin(
        writes.map((w, i) => ({
          address: w.address,
          entry: w.op === "create" || !w.before ? applier.pendingEntry(w.work) : w.before,
          action: w.op,
          body: bodies[i],
        })),
        key,
      );
      try {
        const onAccepted = (accepted: { jobId: string }) => journal.attachJob(addresses, accepted.jobId);
        return { answer: await call({ idempotencyKey: key, onAccepted, ...time }), replayed: false };
      } catch (error) {
        rethrowIfStateLost(error);
        for (const w of writes) applier.undo(w.address, w.before, error);
        return { error };
      }
    },
    async settle(outcomes) {
      for (const { write, outcome } of outcomes) await settle(applier, write, outcome);
      await journal.save();
    },
    async single(writes) {
      const works = (op: BulkWrite["op"]) => writes.filter((w) => w.op === op).map((w) => w.work);
      await applier.each(works("create"), (w) => applier.createOne(w));
      await applier.each(works("update"), (w) => applier.updateOne(w));
      await applier.each(works("delete"), (w) => applier.deleteOne(w, stateAddressOf(w)));
    },
  };
}

async function settle(applier: Applier, w: ApplyWrite, outcome: ItemOutcome): Promise<void> {
  const { journal } = applier;
  if (outcome.done) {
    if (w.op === "delete") {
      applier.noteCascaded(cascadedOf(w.kind.name, outcome.receipt));
      journal.settle(w.address, undefined);
      applier.succeed(w.work, w.work.action.id);
    } else {
      // A contact job that found the key taken since the plan updated that contact: it is this address's now.
      const id = outcome.id ?? w.work.action.id!;
      journal.settle(w.address, applier.entryFor(w.work, id));
      applier.succeed(w.work, id);
    }
    return;
  }
  // A create refused as a duplicate adopts the existing object, when no other address manages it.
  if (outcome.duplicate && w.op !== "delete") {
    await applier.adoptDuplicate(w.work, outcome.error, w.before);
    return;
  }
  if (outcome.happened === false) journal.abandon(w.address, w.before);
  applier.fail(w.work, outcome.error);
}
