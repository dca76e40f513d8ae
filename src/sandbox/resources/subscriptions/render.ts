import type { AlertSubscriptionDoc, ReportSubscriptionDoc } from "./model.ts";

/** A subscription as every route answers it: its flat id, the pair, its set, and times. */
export function renderSubscription(
  doc: AlertSubscriptionDoc | ReportSubscriptionDoc,
): Record<string, unknown> {
  const { accountId: _, ...row } = doc;
  return row;
}
