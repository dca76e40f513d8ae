/**
 * The bulk routes, each declared in its kind's own file: the CLI's apply and the providers' batched writes
 * both send through them. A kind without one is written by single calls.
 */
import type { KindName } from "../model.ts";
import { contacts } from "./contacts.ts";
import { monitors } from "./monitors.ts";
import type { BulkRoute } from "./route.ts";
import { alertSubscriptions, reportSubscriptions } from "./subscriptions.ts";

/** The route of each kind that has one. */
export const bulkRoutes: Partial<Record<KindName, BulkRoute>> = Object.fromEntries(
  [monitors, contacts, alertSubscriptions, reportSubscriptions].map((route) => [route.kind, route]),
);
