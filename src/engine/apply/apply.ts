/**
 * Apply: carries out a plan's actions in dependency order (creates and updates
 * by kind, deletes in reverse), with bulk jobs where they take fewer calls,
 * bounded concurrency elsewhere, and the journal around every write.
 */

import { bulkRoutes } from "../bulk/index.ts";
import { engineKind, engineKinds } from "../kinds/index.ts";
import { Applier } from "./applier.ts";
import { removeInBulk, writeInBulk } from "./bulk.ts";
import { ApplyInterruptedError, StateNotSavedError } from "./journal.ts";
import { type ApplyOptions, type ApplyResult, deposed, stateAddressOf, type Work } from "./model.ts";

/**
 * Applies actions: creates and updates kind by kind, then deletes in reverse order. A state that can no
 * longer be saved stops it (StateNotSavedError), and so does its signal (ApplyInterruptedError), each
 * carrying what was done up to then.
 */
export async function applyActions(options: ApplyOptions): Promise<ApplyResult> {
  const applier = new Applier(options);
  try {
    return await applyWith(applier, options);
  } catch (error) {
    if (error instanceof StateNotSavedError || error instanceof ApplyInterruptedError)
      error.result = applier.result;
    throw error;
  }
}

async function applyWith(applier: Applier, options: ApplyOptions): Promise<ApplyResult> {
  const works: Work[] = options.actions.map((action) => ({
    action,
    kind: engineKind(action.kind),
    desired: applier.desiredOf(action.address),
    ...(action.id && { live: options.live.get(action.kind)?.get(action.id) }),
  }));

  const forgets = works.filter((w) => w.action.action === "forget");
  for (const w of forgets) {
    applier.journal.settle(w.action.address, undefined);
    applier.succeed(w);
  }
  if (forgets.length > 0) await applier.journal.save();

  for (const kind of engineKinds) {
    const mine = works.filter((w) => w.kind === kind && w.action.action !== "no-op");
    // A kind with no work writes nothing, so it saves no state either.
    if (mine.length === 0) continue;
    const route = bulkRoutes[kind.name];
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
    if (route) await writeInBulk(applier, route, creates, updates);
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
    const route = bulkRoutes[kind.name];
    if (route) await removeInBulk(applier, route, ready);
    else await applier.each(ready, (w) => applier.deleteOne(w, stateAddressOf(w)));
  }
  for (const w of cascades) await applier.settleCascade(w);
  return applier.result;
}
