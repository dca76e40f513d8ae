/** Subscriptions in bulk: `POST /alert/bulk` and `/report/bulk`, one transaction each, answered at once. */
import { ApiError, itemError } from "../../../api/index.ts";
import type { Members, Row } from "../../kinds/index.ts";
import { isUnder } from "../../pointer.ts";
import { rethrowIfStateLost } from "../journal.ts";
import { stateAddressOf, type Work } from "../model.ts";
import { vanished } from "../refusals.ts";
import { type BulkApplier, type BulkStrategy, chunks, journalAddress, resolved } from "./strategy.ts";

/** A subscription bulk answers at once: two objects already save a call. */
const syncBulkMinimum = 2;

/** Subscriptions: `POST /alert/bulk` (or `/report/bulk`), one transaction, each create replacing its pair's set. */
function subscriptions<N extends "alertSubscription" | "reportSubscription">(
  name: N,
  setMember: string,
): BulkStrategy<N> {
  const routes = (applier: BulkApplier) => applier.options.ops[name];
  const pair = (m: Row) => ({ monitorId: String(m.monitorId), contactId: String(m.contactId) });
  const pairKey = (m: Row) => `${m.monitorId}/${m.contactId}`;

  /** Sends one transaction; refused items (pointers `/create/<i>`, `/delete/<i>`) are set aside and the rest sent again once. */
  async function send(
    applier: BulkApplier,
    side: "create" | "delete",
    works: Work[],
    itemOf: (w: Work) => Members,
    done: (w: Work, created?: Row) => void,
  ): Promise<void> {
    for (const chunk of chunks(works, applier.options.maxBulkItems)) {
      let remaining = chunk;
      for (let attempt = 0; attempt < 2 && remaining.length > 0; attempt++) {
        const items = remaining.map(itemOf);
        const action = side === "delete" ? "delete" : "update";
        // As in runChunk: a replace's new pair is journaled at its address, never over the deposed old one.
        const addresses = remaining.map((work) => journalAddress(work, action));
        const submitted = remaining.map((work, i) => ({
          work,
          before: applier.entryAt(addresses[i]!),
        }));
        const key = applier.journal.keyFor(`${name}-bulk-${side}-${attempt}`, addresses);
        await applier.journal.begin(
          submitted.map(({ work, before }, i) => ({
            address: addresses[i]!,
            entry: before ?? applier.pendingEntry(work),
            action: before ? action : "create",
            body: items[i],
          })),
          key,
        );
        try {
          const answer = (await routes(applier).bulk({ [side]: items }, { idempotencyKey: key })) as {
            created?: Row[];
          };
          const created = new Map((answer.created ?? []).map((row) => [pairKey(row), row]));
          for (const w of remaining) done(w, created.get(pairKey(itemOf(w))));
          await applier.journal.save();
          remaining = [];
        } catch (error) {
          rethrowIfStateLost(error);
          const refused = new Set<number>();
          const gone = new Set<number>();
          if (error instanceof ApiError && error.status === 422) {
            for (const entry of error.errors) {
              const m = new RegExp(`^/${side}/(\\d+)`).exec(entry.pointer ?? "");
              if (!m) continue;
              refused.add(Number(m[1]));
              // A pair whose subscription, monitor or contact no longer exists is already deleted.
              if (side === "delete" && vanished.has(String(entry.reason))) gone.add(Number(m[1]));
            }
          }
          for (const [i, { before }] of submitted.entries()) applier.undo(addresses[i]!, before, error);
          if (refused.size === 0) {
            for (const w of remaining) applier.fail(w, error);
            await applier.journal.save();
            break;
          }
          const next: Work[] = [];
          remaining.forEach((w, i) => {
            if (!refused.has(i)) next.push(w);
            else if (gone.has(i)) done(w);
            else {
              const prefix = `/${side}/${i}`;
              const entries = (error as ApiError).errors.filter((e) => isUnder(e.pointer ?? "", prefix));
              applier.fail(
                w,
                itemError(
                  { ...(error as ApiError).problem, errors: entries },
                  prefix,
                  (error as ApiError).route,
                ),
              );
            }
          });
          await applier.journal.save();
          remaining = next;
        }
      }
    }
  }

  return {
    kind: name,
    async write(applier, creates, updates) {
      const works = resolved(applier, [...creates, ...updates]);
      if (works.length < syncBulkMinimum) {
        await applier.each(
          works.filter((w) => creates.includes(w)),
          (w) => applier.createOne(w),
        );
        await applier.each(
          works.filter((w) => updates.includes(w)),
          (w) => applier.updateOne(w),
        );
        return;
      }
      const needed = works.filter((w) => creates.includes(w) || w.action.changes.length > 0);
      for (const w of works.filter((w) => !needed.includes(w))) {
        applier.journal.settle(w.action.address, applier.entryFor(w, w.action.id!));
        applier.succeed(w, w.action.id);
      }
      await send(
        applier,
        "create",
        needed,
        (w) => ({ ...pair(w.members!), [setMember]: w.members![setMember] }),
        (w, row) => {
          const id = String(row?.id ?? w.action.id);
          applier.journal.settle(w.action.address, applier.entryFor(w, id));
          applier.succeed(w, id);
        },
      );
    },
    async remove(applier, deletes) {
      if (deletes.length < syncBulkMinimum) {
        await applier.each(deletes, (w) => applier.deleteOne(w, stateAddressOf(w)));
        return;
      }
      await send(
        applier,
        "delete",
        deletes,
        (w) => pair(w.live ?? { ...applier.entryAt(stateAddressOf(w))?.naturalKey }),
        (w) => {
          applier.journal.settle(stateAddressOf(w), undefined);
          applier.succeed(w, w.action.id);
        },
      );
    },
  };
}

export const alertSubscriptions = subscriptions("alertSubscription", "alertTypes");
export const reportSubscriptions = subscriptions("reportSubscription", "frequencies");
