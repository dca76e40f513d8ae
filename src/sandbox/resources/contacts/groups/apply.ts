import type { z } from "zod";
import { defineOperations } from "../../../core/operation.ts";
import { invalid } from "../../../core/problem.ts";
import {
  type AlertSubscriptionDoc,
  assertReportable,
  findSubscription,
  ownsMonitor,
  putAlertSubscription,
  putReportSubscription,
  type ReportSubscriptionDoc,
} from "../../subscriptions/model.ts";
import { renderSubscription } from "../../subscriptions/render.ts";
import type { ContactDoc } from "../doc.ts";
import { alertEventsOf, reportEventsOf, requireGroup } from "./model.ts";
import { applyBody } from "./schemas.ts";

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

export const applyRoutes = defineOperations({
  id: "contact.group.apply",
  method: "POST",
  path: "/contact/group/{id}/apply",
  summary:
    "Write the group's events as ordinary alert and report subscriptions for every member and monitor, merged into each pair's set. No link to the group remains.",
  scope: "contact:write",
  // It writes subscriptions on monitors too: a compound write needs both write scopes.
  extraScopes: () => ["monitor:write"],
  body: applyBody,
  errors: ["not_found", "validation_failed", "unsupported_report_channel", "package_limit"],
  response: {
    status: 200,
    description:
      "{groupId, monitorIds, alertSubscriptions, reportSubscriptions}: every subscription written, with its merged set.",
  },
  handle: (ctx, req) => {
    const group = requireGroup(ctx, req.params.id!);
    const sent = (req.body as z.infer<typeof applyBody>).monitorIds;
    const unknown = sent.flatMap((id, i) =>
      ownsMonitor(ctx, id)
        ? []
        : [{ pointer: `/monitorIds/${i}`, value: id, reason: "unknown_monitor", message: "no such monitor" }],
    );
    if (unknown.length > 0) throw invalid(unknown);
    const monitorIds = [...new Set(sent)];

    const members = group.members.map((m, i) => {
      const contact = ctx.store.get<ContactDoc>("contact", m.contactId)!;
      const reports = reportEventsOf(m.events);
      // The plan may have changed since the group was written; the pointer names the group member.
      if (reports.length > 0) assertReportable(ctx, contact, reports, `/members/${i}/events`);
      return { contact, alerts: alertEventsOf(m.events), reports };
    });
    const alertSubscriptions: Record<string, unknown>[] = [];
    const reportSubscriptions: Record<string, unknown>[] = [];
    for (const monitorId of monitorIds) {
      for (const { contact, alerts, reports } of members) {
        if (alerts.length > 0) {
          const had = findSubscription<AlertSubscriptionDoc>(ctx, "alert", monitorId, contact.id);
          const set = union(had?.alertTypes ?? [], alerts);
          alertSubscriptions.push(renderSubscription(putAlertSubscription(ctx, monitorId, contact.id, set)));
        }
        if (reports.length > 0) {
          const had = findSubscription<ReportSubscriptionDoc>(ctx, "report", monitorId, contact.id);
          const set = union(had?.frequencies ?? [], reports);
          reportSubscriptions.push(
            renderSubscription(putReportSubscription(ctx, monitorId, contact.id, set)),
          );
        }
      }
    }
    return { status: 200, body: { groupId: group.id, monitorIds, alertSubscriptions, reportSubscriptions } };
  },
});
