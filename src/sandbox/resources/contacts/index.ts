import type { Operation } from "../../core/operation.ts";
import { confirmationRoutes } from "./confirmation.ts";
import { applyRoutes } from "./groups/apply.ts";
import { membershipRoutes } from "./groups/membership.ts";
import { groupRoutes } from "./groups/routes.ts";
import { resendRoutes } from "./notifications/resend.ts";
import { notificationRoutes } from "./notifications/routes.ts";
import { summaryRoutes } from "./notifications/summary.ts";
import { contactRoutes } from "./routes.ts";
import { testRoutes } from "./test-send.ts";

/** Contacts, their confirmation and test sends, contact groups and notifications. */
export const contactOperations: Operation[] = [
  ...contactRoutes,
  ...confirmationRoutes,
  ...testRoutes,
  ...groupRoutes,
  ...membershipRoutes,
  ...applyRoutes,
  ...notificationRoutes,
  ...summaryRoutes,
  ...resendRoutes,
];
