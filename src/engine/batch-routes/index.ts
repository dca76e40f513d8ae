/**
 * The batch routes of `BatchedWrites`, each declared in its kind's own file: kinds without one are written
 * by single calls.
 */
import type { KindName } from "../model.ts";
import { contacts } from "./contacts.ts";
import { monitors } from "./monitors.ts";
import type { BatchRoute } from "./route.ts";
import { alertSubscriptions, reportSubscriptions } from "./subscriptions.ts";

export const batchRoutes: ReadonlyMap<KindName, BatchRoute> = new Map(
  [monitors, contacts, alertSubscriptions, reportSubscriptions].map((r) => [r.kind, r]),
);
