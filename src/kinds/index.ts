export * from "./account.ts";
export * from "./account-rules.ts";
export * from "./checks.ts";
export * from "./common.ts";
export * from "./contact.ts";
export * from "./contact-group.ts";
export * from "./credentials.ts";
export * from "./data-sources.ts";
export * from "./diagnostics.ts";
export * from "./events.ts";
export * from "./field.ts";
export * from "./instant-check.ts";
export * from "./job.ts";
export * from "./json-schema.ts";
export * from "./kind.ts";
export * from "./maintenance.ts";
export * from "./monitor/index.ts";
export * from "./page.ts";
export * from "./problems.ts";
export * from "./scopes.ts";
export * from "./status-page.ts";
export * from "./subscription.ts";
export * from "./variants.ts";
export * from "./webhook.ts";

import { contactKind } from "./contact.ts";
import { contactGroupKind } from "./contact-group.ts";
import { maintenanceKind } from "./maintenance.ts";
import { monitorKind } from "./monitor/index.ts";
import { statusPageKind, statusPageTemplateKind } from "./status-page.ts";
import { alertSubscriptionKind, reportSubscriptionKind } from "./subscription.ts";
import { webhookKind } from "./webhook.ts";

/** Every resource kind vigil manages, in dependency order (targets before what references them). */
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
