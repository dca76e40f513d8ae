import type { Operation } from "./core/operation.ts";
import { accountOperations } from "./resources/accounts.ts";
import { adminOperations } from "./resources/admin.ts";
import { monitorOperations } from "./resources/monitors/routes.ts";
import { problemOperations } from "./resources/problems.ts";

/** The sandbox's operation table: every route, listed once. The OpenAPI document is built from it. */
export function allOperations(): Operation[] {
  return [...accountOperations, ...monitorOperations, ...problemOperations, ...adminOperations];
}
