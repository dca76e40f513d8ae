import type { Operation } from "../../core/operation.ts";
import { deliveryRoutes } from "./delivery-routes.ts";
import { webhookRoutes } from "./routes.ts";
import { testRoutes } from "./test-send.ts";

/** Webhooks, their deliveries and sample sends. */
export const webhookOperations: Operation[] = [...webhookRoutes, ...deliveryRoutes, ...testRoutes];
