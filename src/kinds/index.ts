/**
 * The kinds and what every frontend shares about them. The shapes only the API's other reads need (the
 * account, check results and incidents, events, jobs, instant checks, problem documents, the data sources'
 * results) are not re-exported: they are imported from their own modules, so that a command that loads the
 * kinds to read a configuration (`vigil validate`) does not build their schemas.
 */
export * from "./account-rules.ts";
export * from "./alerting.ts";
export * from "./attributes.ts";
export * from "./common.ts";
export * from "./connection.ts";
export * from "./contact.ts";
export * from "./contact-group.ts";
export * from "./credentials.ts";
export * from "./diagnostics.ts";
export * from "./field.ts";
export * from "./job-states.ts";
export * from "./json-schema.ts";
export * from "./kind.ts";
export * from "./maintenance.ts";
export * from "./monitor/index.ts";
export * from "./names.ts";
export * from "./page.ts";
export * from "./problems.ts";
export * from "./relations.ts";
export * from "./scopes.ts";
export * from "./status-page.ts";
export * from "./subscription.ts";
export * from "./variants.ts";
export * from "./walk.ts";
export * from "./webhook.ts";
export * from "./webhook-destination.ts";

import { contactKind } from "./contact.ts";
import { contactGroupKind } from "./contact-group.ts";
import { maintenanceKind } from "./maintenance.ts";
import { monitorKind } from "./monitor/index.ts";
import { dependencyOrder } from "./relations.ts";
import { statusPageKind, statusPageTemplateKind } from "./status-page.ts";
import { alertSubscriptionKind, reportSubscriptionKind } from "./subscription.ts";
import { webhookKind } from "./webhook.ts";

/**
 * Every resource kind vigil manages: the one registry. Its order only breaks ties between kinds that do not
 * depend on each other; `kindsInOrder` is the order derived from the kinds' references and relations.
 */
export const kinds = [
  contactKind,
  contactGroupKind,
  monitorKind,
  alertSubscriptionKind,
  reportSubscriptionKind,
  maintenanceKind,
  statusPageKind,
  statusPageTemplateKind,
  webhookKind,
] as const;

/** The kinds in dependency order: targets and parents before what references them or lives under them. */
export const kindsInOrder: readonly (typeof kinds)[number][] = dependencyOrder(kinds);
