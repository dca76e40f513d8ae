/**
 * Resolves the operations a crashed run left pending. Each one either
 * happened (its object is found: by its job's results or by its natural key)
 * or never did; nothing is created twice and nothing managed is lost.
 */
import { ApiError, JobInterruptedError, type Operations, type TimeSource } from "../api/index.ts";
import { hidesNaturalKey, liveKeyAsKept } from "./kept-natural-key.ts";
import { engineKind } from "./kinds/index.ts";
import type { KindName, State } from "./model.ts";
import { type Inventory, liveWithKey } from "./refresh.ts";

/** Every job that may still be writing for us: those the journal names, and any unfinished one of the account. */
export async function waitForPendingJobs(
  ops: Operations,
  state: State,
  time?: TimeSource,
): Promise<string[]> {
  const pending = Object.values(state.resources).filter((r) => r.pending);
  if (pending.length === 0) return [];
  const ids = new Set(pending.map((r) => r.pending!.jobId).filter((id): id is string => id !== undefined));
  // A submission whose 202 never reached us left no job id: any unfinished job may be it.
  if (pending.some((r) => !r.pending!.jobId)) {
    const page = await ops.jobs.page({ filters: { state: ["queued", "running", "interrupted"] } });
    for (const job of page.data) ids.add(String(job.id));
  }
  const notes: string[] = [];
  for (const id of ids) {
    try {
      await ops.jobs.wait(id, time ? { time } : {});
    } catch (error) {
      if (error instanceof JobInterruptedError) {
        await ops.jobs.resume(id, { idempotencyKey: `vigil-resume-${id}`, ...(time && { time }) });
      } else if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
    notes.push(`waited for job ${id}, left by an earlier run`);
  }
  return notes;
}

/**
 * Settles each pending operation against the live inventory: a create is
 * adopted by its natural key when its object exists (and no other address
 * manages it), an update is simply planned again, a delete is done when its
 * object is gone.
 */
export function resolvePending(state: State, inventory: Inventory): string[] {
  const notes: string[] = [];
  const managed = new Set(
    Object.values(state.resources)
      .filter((r) => r.id)
      .map((r) => `${r.kind}/${r.id}`),
  );
  for (const [address, entry] of Object.entries(state.resources)) {
    const pending = entry.pending;
    if (!pending) continue;
    const kind = engineKind(entry.kind);
    const rows = inventory.rows.get(entry.kind as KindName);
    if (!rows) continue;
    if (pending.action === "create" && !entry.id) {
      const key = kind.naturalKey(entry.naturalKey);
      // A key member holding a secret is kept hashed: live rows are hashed alike to be compared.
      const candidates =
        key === undefined
          ? []
          : hidesNaturalKey(kind, entry)
            ? rows.filter((row) => liveKeyAsKept(kind, entry, row, state.lineage) === key)
            : liveWithKey(inventory, entry.kind, key);
      const found = candidates.find((row) => !managed.has(`${entry.kind}/${row.id}`));
      if (found) {
        const { pending: _done, ...settled } = entry;
        state.resources[address] = { ...settled, id: String(found.id) };
        managed.add(`${entry.kind}/${found.id}`);
        notes.push(`${address}: the create of an earlier run had succeeded; adopted ${found.id}`);
      } else if (key !== undefined) {
        delete state.resources[address];
        notes.push(`${address}: the create of an earlier run never happened`);
      } else {
        // No natural key to look for: the next create replays the journaled key, so the service answers the first create.
        notes.push(
          `${address}: an earlier create is unconfirmed; it is sent again with the same idempotency key`,
        );
      }
    } else if (pending.action === "delete" && entry.id && !inventory.byId.get(entry.kind)?.has(entry.id)) {
      delete state.resources[address];
      notes.push(`${address}: the delete of an earlier run had succeeded`);
    } else {
      const { pending: _done, ...settled } = entry;
      state.resources[address] = settled;
      notes.push(
        `${address}: the ${pending.action} of an earlier run is planned again from what the account shows`,
      );
    }
  }
  return notes;
}
