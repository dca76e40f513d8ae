import type { Operation } from "./core/operation.ts";
import { openapiOperations } from "./openapi/routes.ts";
import { accountOperations } from "./resources/accounts.ts";
import { adminOperations } from "./resources/admin.ts";
import { catalogueOperations } from "./resources/catalogue/index.ts";
import { outcomeOperations } from "./resources/checks/outcome.ts";
import { checkOperations } from "./resources/checks/routes.ts";
import { contactOperations } from "./resources/contacts/index.ts";
import { faultOperations } from "./resources/faults.ts";
import { instantCheckOperations } from "./resources/instant-checks/routes.ts";
import { jobOperations } from "./resources/jobs/routes.ts";
import { maintenanceOperations } from "./resources/maintenance/routes.ts";
import { attachedOperations } from "./resources/monitors/attached.ts";
import { monitorOperations } from "./resources/monitors/routes.ts";
import { problemOperations } from "./resources/problems.ts";
import { reportOperations } from "./resources/reports/routes.ts";
import { statusPageOperations } from "./resources/status-pages/index.ts";
import { subscriptionOperations } from "./resources/subscriptions/index.ts";
import { webhookOperations } from "./resources/webhooks/index.ts";

/** The sandbox's operation table: every route, listed once. The OpenAPI document is built from it. */
export function allOperations(): Operation[] {
  return [
    ...accountOperations,
    ...monitorOperations,
    ...attachedOperations,
    ...problemOperations,
    ...adminOperations,
    ...faultOperations,
    ...catalogueOperations,
    ...openapiOperations(),
    ...contactOperations,
    ...subscriptionOperations,
    ...webhookOperations,
    ...checkOperations,
    ...outcomeOperations,
    ...maintenanceOperations,
    ...statusPageOperations,
    ...jobOperations,
    ...reportOperations,
    ...instantCheckOperations,
  ];
}
