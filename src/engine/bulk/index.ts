/**
 * The bulk routes, each declared in its kind's own file: the CLI's apply and the providers' batched writes
 * both send through them.
 */
import {
  contactGroupKind,
  maintenanceKind,
  statusPageKind,
  statusPageTemplateKind,
  webhookKind,
} from "../../kinds/index.ts";
import type { KindName } from "../model.ts";
import { contacts } from "./contacts.ts";
import { monitors } from "./monitors.ts";
import type { BulkRoute } from "./route.ts";
import { alertSubscriptions, reportSubscriptions } from "./subscriptions.ts";

/**
 * The route of each kind, keyed by the name it declares. The compiler checks that every kind of the registry
 * has a line, so a kind added there fails here until someone decides whether it has bulk requests.
 */
export const bulkRoutes: { readonly [N in KindName]: BulkRoute<N> | undefined } = {
  [monitors.kind]: monitors,
  [contacts.kind]: contacts,
  [alertSubscriptions.kind]: alertSubscriptions,
  [reportSubscriptions.kind]: reportSubscriptions,
  // The API has no bulk requests for these: they are written by single calls.
  [contactGroupKind.name]: undefined,
  [maintenanceKind.name]: undefined,
  [statusPageKind.name]: undefined,
  [statusPageTemplateKind.name]: undefined,
  [webhookKind.name]: undefined,
};
