import type { Ctx } from "../../core/operation.ts";
import { emitEvent } from "../webhooks/events.ts";
import type { ContactDoc } from "./doc.ts";
import { contactDefaultExpand, renderContact } from "./render.ts";

/** `contact.updated`: the contact as `GET /contact/{id}` answers it; account-wide, scope ignored. */
export function emitContactUpdated(ctx: Ctx, contact: ContactDoc): void {
  emitEvent(ctx, {
    event: "contact.updated",
    data: renderContact(ctx, contact, new Set(contactDefaultExpand)),
    resourceId: contact.id,
    retried: false,
  });
}

/** `contact.confirmed`: a contact became confirmed, by code or inherited from a confirmed address. */
export function emitContactConfirmed(ctx: Ctx, contact: ContactDoc): void {
  emitEvent(ctx, {
    event: "contact.confirmed",
    data: {
      contactId: contact.id,
      type: contact.type,
      address: contact.address,
      confirmedAt: contact.confirmedAt,
      via: contact.confirmedVia,
    },
    resourceId: contact.id,
    retried: false,
  });
}
