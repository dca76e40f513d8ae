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

/** Contacts, their confirmation and test sends, and the notifications sent to them. */
export const contactOperations: Operation[] = [
  ...contactRoutes,
  ...confirmationRoutes,
  ...testRoutes,
  ...notificationRoutes,
  ...summaryRoutes,
  ...resendRoutes,
];

/** Contact groups, a contact's memberships, and applying a group to monitors. */
export const contactGroupOperations: Operation[] = [...groupRoutes, ...membershipRoutes, ...applyRoutes];
