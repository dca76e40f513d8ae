import type { KindName } from "../model.ts";
import { contacts } from "./contacts.ts";
import { monitors } from "./monitors.ts";
import type { BatchRoute } from "./route.ts";
import { alertSubscriptions, reportSubscriptions } from "./subscriptions.ts";

/**
 * The batch routes of `BatchedWrites` by kind, each declared in its kind's own file and keyed by the name it
 * declares. The table is partial on purpose: a kind without a route is written by single calls.
 */
export const batchRoutes: { readonly [N in KindName]?: BatchRoute<N> } = {
  [monitors.kind]: monitors,
  [contacts.kind]: contacts,
  [alertSubscriptions.kind]: alertSubscriptions,
  [reportSubscriptions.kind]: reportSubscriptions,
};
