import type { KindName } from "../../model.ts";
import { contacts } from "./contacts.ts";
import { monitors } from "./monitors.ts";
import type { BulkStrategy } from "./strategy.ts";
import { alertSubscriptions, reportSubscriptions } from "./subscriptions.ts";

/**
 * The bulk strategies by kind, each declared in its kind's own file and keyed by the name it declares. The
 * table is partial on purpose: a kind without a strategy is written by single calls.
 */
export const bulkStrategies: { readonly [N in KindName]?: BulkStrategy<N> } = {
  [monitors.kind]: monitors,
  [contacts.kind]: contacts,
  [alertSubscriptions.kind]: alertSubscriptions,
  [reportSubscriptions.kind]: reportSubscriptions,
};
