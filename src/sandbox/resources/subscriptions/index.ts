import type { Operation } from "../../core/operation.ts";
import { bulkRoutes } from "./bulk.ts";
import { flatRoutes } from "./flat.ts";
import { nestedRoutes } from "./nested.ts";
import { alertVariant, reportVariant, type Variant } from "./variants.ts";

/** One kind of subscription: nested under monitors and contacts, its flat list, and its bulk writes. */
const routesOf = (v: Variant): Operation[] => [...nestedRoutes(v), ...flatRoutes(v), ...bulkRoutes(v)];

export const alertSubscriptionOperations = routesOf(alertVariant);
export const reportSubscriptionOperations = routesOf(reportVariant);
