import { z } from "zod";
import { reportFrequencies, unixTime } from "../../../../kinds/index.ts";
import { defineOperations } from "../../../core/operation.ts";
import { invalid } from "../../../core/problem.ts";
import {
  assertPlanOffers,
  type ReportSubscriptionDoc,
  subscriptionTable,
} from "../../subscriptions/model.ts";
import type { ContactDoc } from "../doc.ts";
import { deliver, renderNotification } from "./model.ts";

type Frequency = (typeof reportFrequencies)[number];

const resendBody = z.strictObject({
  frequency: z.enum(reportFrequencies),
  at: unixTime,
});

const day = 86400;
const monthStart = (year: number, month: number) => Date.UTC(year, month, 1) / 1000;

/**
 * The last whole period of a frequency that ended at or before `at` (UTC;
 * weeks start on Monday): the period the report scheduled for `at` covered.
 */
export function reportPeriod(frequency: Frequency, at: number): { from: number; to: number } {
  const d = new Date(at * 1000);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (frequency) {
    case "daily": {
      const to = Math.floor(at / day) * day;
      return { from: to - day, to };
    }
    case "weekly": {
      const days = Math.floor(at / day);
      // Day 0 (1970-01-01) was a Thursday: three days after a Monday.
      const to = (days - ((days + 3) % 7)) * day;
      return { from: to - 7 * day, to };
    }
    case "monthly":
      return { from: monthStart(y, m - 1), to: monthStart(y, m) };
    case "quarterly": {
      const q = m - (m % 3);
      return { from: monthStart(y, q - 3), to: monthStart(y, q) };
    }
    case "yearly":
      return { from: monthStart(y - 1, 0), to: monthStart(y, 0) };
  }
}

export const resendRoutes = defineOperations({
  id: "contact.notification.resend",
  method: "POST",
  path: "/contact/notification/resend",
  summary:
    "Re-send the scheduled report of a frequency for the period that ended at or before `at` to every subscribed email contact.",
  scope: "contact:write",
  body: resendBody,
  errors: ["validation_failed", "package_limit"],
  response: {
    status: 200,
    description:
      "{frequency, period: {from, to}, notifications}: one report notification per subscribed contact.",
  },
  handle: (ctx, req) => {
    const { frequency, at } = req.body as z.infer<typeof resendBody>;
    if (at > ctx.now) {
      throw invalid([
        {
          pointer: "/at",
          value: at,
          reason: "in_future",
          maximum: ctx.now,
          message: "must not be in the future",
        },
      ]);
    }
    assertPlanOffers(ctx, frequency, "/frequency");
    const period = reportPeriod(frequency, at);
    const monitorsByContact = new Map<string, string[]>();
    for (const s of ctx.store.all<ReportSubscriptionDoc>(subscriptionTable.report, ctx.account!.id)) {
      if (!s.frequencies.includes(frequency)) continue;
      monitorsByContact.set(s.contactId, [...(monitorsByContact.get(s.contactId) ?? []), s.monitorId].sort());
    }
    const notifications = [...monitorsByContact]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([contactId, monitorIds]) => {
        const contact = ctx.store.get<ContactDoc>("contact", contactId)!;
        return renderNotification(
          deliver(ctx, contact, { kind: "report", event: frequency, monitorIds, period }),
        );
      });
    return { status: 200, body: { frequency, period, notifications } };
  },
});
