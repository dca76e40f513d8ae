import type { Operation } from "../../core/operation.ts";
import { agentIpOperations, agentOperations } from "./agents.ts";
import { alertTypeOperations } from "./alert-types.ts";
import { checkTypeOperations } from "./check-types.ts";
import { contactTypeOperations } from "./contact-types.ts";
import { monitorTypeSchemaOperations } from "./monitor-type-schema.ts";
import { monitorTypeOperations } from "./monitor-types.ts";
import { poolOperations } from "./pools.ts";
import { reportTypeOperations } from "./report-types.ts";
import { resolveOperations } from "./resolve.ts";
import { validateCronOperations } from "./validate-cron.ts";

/** Anonymous catalogues (types, locations, devices) and the monitor helper routes. */
export const catalogueOperations: Operation[] = [
  // The static `/monitor/type/schema` is listed before `/monitor/type/{type}` for readers; routing prefers it anyway.
  ...monitorTypeSchemaOperations,
  ...monitorTypeOperations,
  ...agentOperations,
  ...agentIpOperations,
  ...poolOperations,
  ...contactTypeOperations,
  ...alertTypeOperations,
  ...reportTypeOperations,
  ...checkTypeOperations,
  ...validateCronOperations,
  ...resolveOperations,
];
