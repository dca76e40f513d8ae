/** The bulk strategies, by kind: kinds without one are written by single calls. */
import type { KindName } from "../../model.ts";
import { contacts } from "./contacts.ts";
import { monitors } from "./monitors.ts";
import type { BulkStrategy } from "./strategy.ts";
import { subscriptions } from "./subscriptions.ts";

export const bulkStrategies: Partial<Record<KindName, BulkStrategy>> = {
  monitor: monitors,
  contact: contacts,
  alertSubscription: subscriptions("alertSubscription", "alertTypes"),
  reportSubscription: subscriptions("reportSubscription", "frequencies"),
};
