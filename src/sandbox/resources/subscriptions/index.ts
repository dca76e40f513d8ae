import type { Operation } from "../../core/operation.ts";
import { bulkRoutes } from "./bulk.ts";
import { flatRoutes } from "./flat.ts";
import { nestedRoutes } from "./nested.ts";

/** Alert and report subscriptions: nested under monitors and contacts, flat lists, and bulk writes. */
export const subscriptionOperations: Operation[] = [...nestedRoutes, ...flatRoutes, ...bulkRoutes];
