import { childOperations } from "./children.ts";
import { incidentOperations } from "./incidents.ts";
import { pageOperations } from "./routes.ts";

export const statusPageOperations = [...pageOperations, ...incidentOperations, ...childOperations];
