import type { Ctx } from "../../core/operation.ts";
import { type AlertSubscriptionDoc, type ReportSubscriptionDoc, subscriptionTable } from "./model.ts";

/** A subscription as every route answers it: its flat id, the pair, its set, and times. */
export function renderSubscription(
  doc: AlertSubscriptionDoc | ReportSubscriptionDoc,
): Record<string, unknown> {
  const { accountId: _, ...row } = doc;
  return row;
}

/** Whose block: a monitor's rows name their contacts, a contact's rows name their monitors. */
export type SubscriptionOwner = { accountId: string } & ({ monitorId: string } | { contactId: string });

type Side = { contactId: string } | { monitorId: string };
export interface SubscriptionBlock<S extends Side> {
  alert: (S & { id: string; alertTypes: string[] })[];
  report: (S & { id: string; frequencies: string[] })[];
}

/**
 * The `subscription` expand block of a monitor or a contact: each pair
 * named by its other side. `accountId` is the owner's, so any reader sees the same block.
 */
export function subscriptionBlock(
  ctx: Ctx,
  of: { accountId: string; monitorId: string },
): SubscriptionBlock<{ contactId: string }>;
export function subscriptionBlock(
  ctx: Ctx,
  of: { accountId: string; contactId: string },
): SubscriptionBlock<{ monitorId: string }>;
export function subscriptionBlock(ctx: Ctx, of: SubscriptionOwner): SubscriptionBlock<Side> {
  const byMonitor = "monitorId" in of;
  const mine = <T extends AlertSubscriptionDoc | ReportSubscriptionDoc>(collection: string) =>
    byMonitor
      ? ctx.store.where<T>(collection, of.accountId, "monitorId", of.monitorId)
      : ctx.store.where<T>(collection, of.accountId, "contactId", of.contactId);
  const other = (s: AlertSubscriptionDoc | ReportSubscriptionDoc): Side =>
    byMonitor ? { contactId: s.contactId } : { monitorId: s.monitorId };
  return {
    alert: mine<AlertSubscriptionDoc>(subscriptionTable.alert).map((s) => ({
      id: s.id,
      ...other(s),
      alertTypes: s.alertTypes,
    })),
    report: mine<ReportSubscriptionDoc>(subscriptionTable.report).map((s) => ({
      id: s.id,
      ...other(s),
      frequencies: s.frequencies,
    })),
  };
}
