import type { KindName } from "../kinds/index.ts";
import type { Operation } from "./core/operation.ts";
import { openapiOperations } from "./openapi/routes.ts";
import { accountOperations } from "./resources/accounts.ts";
import { adminOperations } from "./resources/admin.ts";
import { catalogueOperations } from "./resources/catalogue/index.ts";
import { outcomeOperations } from "./resources/checks/outcome.ts";
import { checkOperations } from "./resources/checks/routes.ts";
import { contactGroupOperations, contactOperations } from "./resources/contacts/index.ts";
import { faultOperations } from "./resources/faults.ts";
import { instantCheckOperations } from "./resources/instant-checks/routes.ts";
import { jobOperations } from "./resources/jobs/routes.ts";
import { maintenanceOperations } from "./resources/maintenance/routes.ts";
import { attachedOperations } from "./resources/monitors/attached.ts";
import { monitorOperations } from "./resources/monitors/routes.ts";
import { problemOperations } from "./resources/problems.ts";
import { reportOperations } from "./resources/reports/routes.ts";
import { statusPageOperations, statusPageTemplateOperations } from "./resources/status-pages/index.ts";
import {
  alertSubscriptionOperations,
  reportSubscriptionOperations,
} from "./resources/subscriptions/index.ts";
import { webhookOperations } from "./resources/webhooks/index.ts";

/**
 * Each kind's routes, by the kind's name. The compiler checks that every kind of the registry has its
 * resource here, so a kind added there fails here until the sandbox serves it.
 */
export const kindOperations = {
  monitor: [...monitorOperations, ...attachedOperations],
  contact: contactOperations,
  contactGroup: contactGroupOperations,
  alertSubscription: alertSubscriptionOperations,
  reportSubscription: reportSubscriptionOperations,
  maintenance: maintenanceOperations,
  statusPage: statusPageOperations,
  statusPageTemplate: statusPageTemplateOperations,
  webhook: webhookOperations,
} satisfies Record<KindName, readonly Operation[]>;

/** The sandbox's operation table: every route, listed once. The OpenAPI document is built from it. */
export function allOperations(): Operation[] {
  return [
    ...Object.values(kindOperations).flat(),
    ...accountOperations,
    ...problemOperations,
    ...adminOperations,
    ...faultOperations,
    ...catalogueOperations,
    ...openapiOperations(),
    ...checkOperations,
    ...outcomeOperations,
    ...jobOperations,
    ...reportOperations,
    ...instantCheckOperations,
  ];
}
