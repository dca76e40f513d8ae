import { z } from "zod";
import { cronProblem, nextRuns } from "../../../kinds/monitor/cron.ts";
import { defineOperations } from "../../core/operation.ts";
import { accountOf, entitlements } from "../accounts.ts";

const body = z.strictObject({ cronSchedule: z.string().max(255) });

/** How many upcoming runs a valid expression answers with. */
const previewRuns = 5;

/**
 * Judges a cron expression. A well-formed request about an invalid
 * expression is answered, not refused: 200 with `valid: false` and the
 * reason; only a malformed body is 422.
 */
export const validateCronOperations = defineOperations({
  id: "monitor.validateCron",
  method: "POST",
  path: "/monitor/validate-cron",
  summary: "Check a 5-field UTC cron expression and preview its next runs.",
  scope: "monitor:read",
  quotaClass: "read",
  body,
  errors: ["validation_failed", "unknown_parameter"],
  response: {
    status: 200,
    description: "{valid, cronSchedule, error?, nextRuns: [Unix seconds], available}.",
  },
  handle: (ctx, req) => {
    const { cronSchedule } = req.body as z.infer<typeof body>;
    const error = cronProblem(cronSchedule);
    // `available`: whether the plan lets monitors use cronSchedule at all.
    const available = Boolean(entitlements(accountOf(ctx)).cron);
    const answer = error
      ? { valid: false, cronSchedule, error, nextRuns: [], available }
      : { valid: true, cronSchedule, nextRuns: nextRuns(cronSchedule, ctx.now, previewRuns), available };
    return { status: 200, body: answer };
  },
});
