import type { BackgroundTask } from "../../core/background.ts";
import { advanceInstantCheck, type InstantCheckDoc, instantCheckCollection } from "./model.ts";

/** Runs instant checks by the sandbox clock and purges those past their 7 days. */
export const instantCheckTask: BackgroundTask = {
  name: "instantChecks",
  due(state, now) {
    for (const check of state.store.scan<InstantCheckDoc>(instantCheckCollection)) {
      if (check.expiresAt <= now) state.store.remove(instantCheckCollection, check.id);
      else if (check.state !== "finished") advanceInstantCheck(state.store, check, now);
    }
  },
};
