import { sweepAtMostEvery } from "../../core/background.ts";
import type { BackgroundTask } from "../../core/state.ts";
import type { Doc, Store } from "../../core/store.ts";
import {
  advanceInstantCheck,
  type InstantCheckDoc,
  instantCheckTable,
  pendingInstantCheckTable,
  removeInstantCheck,
} from "./model.ts";

/** Expired checks are swept at most this often (sandbox seconds); reads refuse them at once anyway. */
const sweepEverySec = 300;
const sweepMeta = "instantChecks.sweep";

/** Removes checks past their 7 days, at most every few minutes of sandbox time. */
function sweep(store: Store, now: number): void {
  sweepAtMostEvery(store, sweepMeta, sweepEverySec, now, () => {
    for (const check of store.scan<InstantCheckDoc>(instantCheckTable)) {
      if (check.expiresAt <= now) removeInstantCheck(store, check.id);
    }
  });
}

/**
 * Runs instant checks by the sandbox clock, reading only the queued and
 * running ones, and purges those past their 7 days.
 */
export const instantCheckTask: BackgroundTask = {
  name: "instantChecks",

  /** Rebuilds the queue from the checks, so a data file written before it existed finishes its checks. */
  start(state) {
    for (const check of state.store.scan<InstantCheckDoc>(instantCheckTable)) {
      if (check.state !== "finished" && !state.store.get(pendingInstantCheckTable, check.id)) {
        state.store.put<Doc>(pendingInstantCheckTable, { id: check.id, accountId: check.accountId });
      }
    }
  },

  due(state, now) {
    for (const entry of state.store.scan<Doc>(pendingInstantCheckTable)) {
      const check = state.store.get<InstantCheckDoc>(instantCheckTable, entry.id)!;
      if (check.expiresAt <= now) removeInstantCheck(state.store, check.id);
      else advanceInstantCheck(state.store, check, now);
    }
    sweep(state.store, now);
  },
};
