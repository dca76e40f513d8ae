import { reportChannelRefusal } from "../../../kinds/index.ts";
import { newPrefixedId } from "../../core/ids.ts";
import type { Ctx } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import type { Doc } from "../../core/store.ts";
import { accountOf, entitlements } from "../accounts.ts";
import { rescheduleOpenIncident } from "../checks/history.ts";
import type { ContactDoc } from "../contacts/doc.ts";
import { monitorTable } from "../monitors/model.ts";

/** Alert and report subscriptions: one monitor, one contact, and a set. */
export interface AlertSubscriptionDoc extends Doc {
  monitorId: string;
  contactId: string;
  alertTypes: string[];
  created: number;
  updated: number;
}

export interface ReportSubscriptionDoc extends Doc {
  monitorId: string;
  contactId: string;
  frequencies: string[];
  created: number;
  updated: number;
}

/** Whether the account owns the monitor: for checks that report unknown ids as 422 entries, not a 404. */
export const ownsMonitor = (ctx: Ctx, id: string) =>
  ctx.store.owned(monitorTable, ctx.account!.id, id) !== undefined;

export type SubscriptionKind = "alert" | "report";
export const subscriptionTable = { alert: "alertSubscription", report: "reportSubscription" } as const;

export function findSubscription<T extends AlertSubscriptionDoc | ReportSubscriptionDoc>(
  ctx: Ctx,
  kind: SubscriptionKind,
  monitorId: string,
  contactId: string,
): T | undefined {
  return ctx.store
    .where<T>(subscriptionTable[kind], ctx.account!.id, "monitorId", monitorId)
    .find((s) => s.contactId === contactId);
}

/**
 * Refuses report subscriptions of non-email contacts and frequencies the plan
 * lacks (`assertPlanOffers`). `pointer` names the frequencies; `contactPointer`
 * the contact, when the body names it.
 */
export function assertReportable(
  ctx: Ctx,
  contact: ContactDoc,
  frequencies: readonly string[],
  pointer: string,
  contactPointer = pointer,
) {
  // The rule the engine plans with (the report subscription kind's), so both refuse alike.
  const refusal = reportChannelRefusal(contact.type, contactPointer);
  if (refusal) {
    throw new ApiProblem(refusal.code, "Reports are delivered to email contacts only.", {
      errors: [
        {
          pointer: refusal.pointer,
          value: refusal.value,
          ...(contact.id && { contactId: contact.id }),
          reason: refusal.reason!,
          allowed: [...refusal.allowed!],
          message: refusal.message,
        },
      ],
    });
  }
  assertPlanOffers(ctx, frequencies, pointer);
}

/**
 * Refuses report frequencies the plan lacks (403 `package_limit`). The entry's
 * value echoes what `pointer` names: the refused ones of a set, or the one sent.
 */
export function assertPlanOffers(ctx: Ctx, sent: string | readonly string[], pointer: string) {
  const allowed = entitlements(accountOf(ctx)).reportFrequencies;
  const refused = (typeof sent === "string" ? [sent] : sent).filter((f) => !allowed.includes(f));
  if (refused.length > 0) {
    throw new ApiProblem("package_limit", `The plan does not offer ${refused.join(", ")} reports.`, {
      extra: { feature: "reportFrequencies" },
      errors: [
        {
          pointer,
          value: typeof sent === "string" ? sent : refused,
          reason: "not_in_plan",
          allowed: [...allowed],
        },
      ],
    });
  }
}

/** Sets compare without order or repeats; writing an equal set changes nothing (not even `updated`). */
const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

/** A pair's set: its alert types or its report frequencies. */
export const setOf = (doc: AlertSubscriptionDoc | ReportSubscriptionDoc): string[] =>
  "alertTypes" in doc ? doc.alertTypes : doc.frequencies;

/** Writes a pair's set, replacing any previous set (PUT semantics). */
function putSubscription(
  ctx: Ctx,
  kind: SubscriptionKind,
  monitorId: string,
  contactId: string,
  values: readonly string[],
): AlertSubscriptionDoc | ReportSubscriptionDoc {
  const existing = findSubscription(ctx, kind, monitorId, contactId);
  if (existing && sameSet(setOf(existing), values)) return existing;
  const base = {
    id: existing?.id ?? newPrefixedId(kind === "alert" ? "als_" : "rsub_"),
    accountId: ctx.account!.id,
    monitorId,
    contactId,
    created: existing?.created ?? ctx.now,
    updated: ctx.now,
  };
  const set = [...new Set(values)];
  const written = ctx.store.put(
    subscriptionTable[kind],
    kind === "alert" ? { ...base, alertTypes: set } : { ...base, frequencies: set },
  );
  if (kind === "alert") rescheduleOpenIncident(ctx, monitorId);
  return written;
}

/** A contact's alert subscriptions. */
export const alertSubscriptionsOf = (ctx: Ctx, contactId: string) =>
  ctx.store.where<AlertSubscriptionDoc>(subscriptionTable.alert, ctx.account!.id, "contactId", contactId);

/** Deletes one subscription; an alert subscription's monitor may now owe its alerts sooner. */
export function removeSubscription(ctx: Ctx, doc: AlertSubscriptionDoc | ReportSubscriptionDoc): void {
  const alert = "alertTypes" in doc;
  ctx.store.remove(subscriptionTable[alert ? "alert" : "report"], doc.id);
  if (alert) rescheduleOpenIncident(ctx, doc.monitorId);
}

export const putAlertSubscription = (
  ctx: Ctx,
  monitorId: string,
  contactId: string,
  alertTypes: readonly string[],
) => putSubscription(ctx, "alert", monitorId, contactId, alertTypes);

/** Callers check `assertReportable` first. */
export const putReportSubscription = (
  ctx: Ctx,
  monitorId: string,
  contactId: string,
  frequencies: readonly string[],
) => putSubscription(ctx, "report", monitorId, contactId, frequencies);

/** Deletes every subscription of a monitor or of a contact; answers the removed ids for delete receipts. */
export function removeSubscriptionsOf(ctx: Ctx, of: { monitorId: string } | { contactId: string }) {
  const matches = (s: AlertSubscriptionDoc | ReportSubscriptionDoc) =>
    "monitorId" in of ? s.monitorId === of.monitorId : s.contactId === of.contactId;
  const removed = { alertSubscriptions: [] as string[], reportSubscriptions: [] as string[] };
  for (const kind of ["alert", "report"] as const) {
    for (const s of ctx.store.all<AlertSubscriptionDoc | ReportSubscriptionDoc>(
      subscriptionTable[kind],
      ctx.account!.id,
    )) {
      if (!matches(s)) continue;
      removeSubscription(ctx, s);
      removed[kind === "alert" ? "alertSubscriptions" : "reportSubscriptions"].push(s.id);
    }
  }
  return removed;
}
