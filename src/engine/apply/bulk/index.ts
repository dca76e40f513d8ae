/** The bulk strategies, each declared in its kind's own file: kinds without one are written by single calls. */
import type { KindName } from "../../model.ts";
import { contacts } from "./contacts.ts";
import { monitors } from "./monitors.ts";
import type { BulkStrategy } from "./strategy.ts";
import { alertSubscriptions, reportSubscriptions } from "./subscriptions.ts";

export const bulkStrategies: ReadonlyMap<KindName, BulkStrategy> = new Map(
  [monitors, contacts, alertSubscriptions, reportSubscriptions].map((s) => [s.kind, s]),
);
