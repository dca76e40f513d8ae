import { type ContactType, deliveryRefusal, type NoticeKind } from "../../../../kinds/index.ts";
import { newPrefixedId } from "../../../core/ids.ts";
import type { Ctx } from "../../../core/operation.ts";
import { notFound } from "../../../core/problem.ts";
import type { Doc } from "../../../core/store.ts";
import { sendMessage } from "../../outbox.ts";
import type { ContactDoc } from "../doc.ts";

export const notificationKinds = ["alert", "reminder", "test", "report"] as const;
export const notificationOutcomes = ["sent", "blocked", "sendFailed"] as const;

/** One delivered or attempted message to one contact (`alt_` id). */
export interface NotificationDoc extends Doc {
  contactId: string;
  kind: (typeof notificationKinds)[number];
  /** The alert type (`down`, ...) or the report frequency (`weekly`, ...). */
  event: string;
  channel: ContactType;
  address: string;
  monitorIds: string[];
  /** The period a report covers; null for other kinds. */
  period: { from: number; to: number } | null;
  outcome: (typeof notificationOutcomes)[number];
  /** Why a message was not sent (`unconfirmed`, `no_gateway`: `deliveryRefusal`); null when it was. */
  reason: string | null;
  time: number;
}

export const notificationCollection = "notification";

/**
 * Records a notification and, when the contact may receive it, the message
 * in the outbox. Unconfirmed contacts receive nothing, nor do plain http
 * contacts receive a `notice` (`deliveryRefusal`): their notification is
 * `blocked`.
 */
export function deliver(
  ctx: Ctx,
  contact: ContactDoc,
  input: Pick<NotificationDoc, "kind" | "event" | "monitorIds" | "period">,
  notice?: NoticeKind,
): NotificationDoc {
  const refusal = deliveryRefusal(contact, notice);
  const notification = ctx.store.put<NotificationDoc>(notificationCollection, {
    id: newPrefixedId("alt_"),
    accountId: contact.accountId,
    contactId: contact.id,
    ...input,
    channel: contact.type,
    address: contact.address,
    outcome: refusal ? "blocked" : "sent",
    reason: refusal ?? null,
    time: ctx.now,
  });
  if (!refusal) {
    sendMessage(ctx, {
      kind: input.kind,
      channel: contact.type,
      to: contact.address,
      event: input.event,
      contactId: contact.id,
      notificationId: notification.id,
      monitorIds: input.monitorIds,
      ...(input.period && { period: input.period }),
    });
  }
  return notification;
}

export function requireNotification(ctx: Ctx, id: string): NotificationDoc {
  const doc = ctx.store.owned<NotificationDoc>(notificationCollection, ctx.account!.id, id);
  if (!doc) throw notFound("notification", id);
  return doc;
}

export function renderNotification(doc: NotificationDoc): Record<string, unknown> {
  const { accountId: _, ...row } = doc;
  return row;
}

/** Notification log windows: 30 days unless `from` says otherwise, at most 90 days per request. */
export const notificationWindow = { maxSpan: 90 * 86400, defaultSpan: 30 * 86400 };
