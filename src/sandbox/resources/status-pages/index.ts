import { subscriberOperations, templateOperations } from "./children.ts";
import { incidentOperations } from "./incidents.ts";
import { pageOperations } from "./routes.ts";

/** Status pages, their incidents and subscribers. */
export const statusPageOperations = [...pageOperations, ...incidentOperations, ...subscriberOperations];

/** A page's incident templates. */
export const statusPageTemplateOperations = templateOperations;
