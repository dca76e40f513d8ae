import { z } from "zod";
import { type AccountView, packageLimit, type Refusal, type RuleContext } from "./account-rules.ts";
import { contactRef, createdAt, monitorRef, updatedAt } from "./common.ts";
import { field, set } from "./field.ts";
import { defineKind, type KindRelations } from "./kind.ts";
import { alertTypes, reportFrequencies } from "./monitor/index.ts";

const pair = {
  monitorId: field(monitorRef, { immutable: true }),
  contactId: field(contactRef, { immutable: true }),
};

export const alertSubscriptionSchema = z
  .strictObject({
    id: field(z.string(), { readOnly: true, description: "als_ id in the flat list." }),
    ...pair,
    alertTypes: set(z.enum(alertTypes)).min(1),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export const reportSubscriptionSchema = z
  .strictObject({
    id: field(z.string(), { readOnly: true, description: "rsub_ id in the flat list." }),
    ...pair,
    frequencies: field(set(z.enum(reportFrequencies)).min(1), {
      description: "The plan may refuse some (403 package_limit).",
    }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

/** A subscription lives on its monitor, one per contact, and goes with either of them. */
function subscriptionRelations(nestedAs: string, cascadedAs: string): KindRelations {
  return {
    parent: { kind: "monitor", member: "monitorId", nestedAs, keyedBy: "contactId" },
    deletedWith: [{ kind: "contact", member: "contactId" }],
    cascadedAs,
  };
}

export const alertSubscriptionKind = defineKind({
  name: "alertSubscription",
  title: "Alert subscription",
  schema: alertSubscriptionSchema,
  naturalKey: ["monitorId", "contactId"],
  required: ["monitorId", "contactId", "alertTypes"],
  relations: subscriptionRelations("alerts", "alertSubscriptions"),
  paths: { collection: "/alert", item: "/monitor/{monitorId}/alert/{contactId}" },
});

export const reportSubscriptionKind = defineKind({
  name: "reportSubscription",
  title: "Report subscription",
  schema: reportSubscriptionSchema,
  naturalKey: ["monitorId", "contactId"],
  rules: { account: [reportChannelRule, reportFrequencyRule] },
  required: ["monitorId", "contactId", "frequencies"],
  relations: subscriptionRelations("reports", "reportSubscriptions"),
  paths: { collection: "/report", item: "/monitor/{monitorId}/report/{contactId}" },
});

/** Reports go to email contacts only (422 `unsupported_report_channel`); undefined for an email contact. */
export function reportChannelRefusal(contactType: unknown, pointer: string): Refusal | undefined {
  if (contactType === undefined || contactType === "email") return undefined;
  return {
    code: "unsupported_report_channel",
    pointer,
    reason: "not_email",
    value: contactType,
    allowed: ["email"],
    message: `a ${String(contactType)} contact; reports go to email contacts only`,
  };
}

/** The subscribed contact, the reference's target, takes reports: judged when the plan knows its type. */
function reportChannelRule(
  _m: Record<string, unknown>,
  _account: AccountView,
  context: RuleContext,
): Refusal[] {
  const refusal = reportChannelRefusal(context.referenced?.("contactId")?.type, "/contactId");
  return refusal ? [refusal] : [];
}

/** Report frequencies the plan offers (403 `package_limit`, feature `reportFrequencies`). */
function reportFrequencyRule(m: Record<string, unknown>, account: AccountView): Refusal[] {
  const offered = account.features.reportFrequencies;
  if (!Array.isArray(offered) || !Array.isArray(m.frequencies)) return [];
  return m.frequencies.flatMap((f, i) =>
    offered.includes(f)
      ? []
      : [
          {
            ...packageLimit("reportFrequencies", `/frequencies/${i}`, `the plan has no ${String(f)} reports`),
            value: f,
            allowed: offered,
          },
        ],
  );
}
