import type { Operation } from "./core/operation.ts";
import { openapiOperations } from "./openapi/routes.ts";
import { accountOperations } from "./resources/accounts.ts";
import { adminOperations } from "./resources/admin.ts";
import { catalogueOperations } from "./resources/catalogue/index.ts";
import { contactOperations } from "./resources/contacts/index.ts";
import { jobOperations } from "./resources/jobs/routes.ts";
import { attachedOperations } from "./resources/monitors/attached.ts";
import { monitorOperations } from "./resources/monitors/routes.ts";
import { problemOperations } from "./resources/problems.ts";
import { subscriptionOperations } from "./resources/subscriptions/index.ts";

/** The sandbox's operation table: every route, listed once. The OpenAPI document is built from it. */
export function allOperations(): Operation[] {
  return [
    ...accountOperations,
    ...monitorOperations,
    ...attachedOperations,
    ...problemOperations,
    ...adminOperations,
    ...catalogueOperations,
    ...openapiOperations(),
    ...contactOperations,
    ...subscriptionOperations,
    ...jobOperations,
  ];
}
