import { contactSchema } from "../../../kinds/index.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import type { ContactDoc } from "./doc.ts";
import { emitContactConfirmed } from "./events.ts";
import { requireContact, sendConfirmationCode } from "./model.ts";
import { contactDefaultExpand, renderContact } from "./render.ts";
import { verifyBody } from "./schemas.ts";

function alreadyConfirmed(doc: ContactDoc): ApiProblem {
  return new ApiProblem("contact_already_confirmed", `Contact ${doc.id} is already confirmed.`, {
    errors: [{ reason: "confirmed", confirmedAt: doc.confirmedAt ?? undefined }],
  });
}

/** Resend and verify: the way an email, sms or voice contact moves from unconfirmed to confirmed. */
export const confirmationRoutes = defineOperations(
  {
    id: "contact.confirmation.send",
    method: "POST",
    path: "/contact/{id}/confirmation",
    summary: "Send a fresh confirmation code; it replaces every earlier one.",
    scope: "contact:write",
    errors: ["not_found", "contact_already_confirmed"],
    response: { status: 202, description: "Where the new code went." },
    handle: (ctx: Ctx, req) => {
      const doc = requireContact(ctx, req.params.id!);
      if (doc.confirmed) throw alreadyConfirmed(doc);
      sendConfirmationCode(ctx, doc);
      return {
        status: 202,
        body: { contactId: doc.id, channel: doc.type, to: doc.address, sentAt: ctx.now },
      };
    },
  },
  {
    id: "contact.confirmation.verify",
    method: "POST",
    path: "/contact/{id}/confirmation/verify",
    summary: "Confirm a contact with the latest code it received.",
    scope: "contact:write",
    body: verifyBody,
    errors: ["not_found", "validation_failed", "invalid_confirmation_code", "contact_already_confirmed"],
    response: { status: 200, description: "The contact, now confirmed.", schema: contactSchema },
    handle: (ctx, req) => {
      const doc = requireContact(ctx, req.params.id!);
      if (doc.confirmed) throw alreadyConfirmed(doc);
      const { code } = req.body as { code: string };
      if (doc.confirmationCode === null || code.trim() !== doc.confirmationCode) {
        throw new ApiProblem("invalid_confirmation_code", "The code does not match the latest one sent.", {
          errors: [
            {
              pointer: "/code",
              value: code,
              reason: "mismatch",
              message: `not the latest code sent to ${doc.address}; a resend replaces earlier codes`,
            },
          ],
        });
      }
      const confirmed = ctx.store.put<ContactDoc>("contact", {
        ...doc,
        confirmed: true,
        confirmedAt: ctx.now,
        confirmedVia: "code",
        confirmationCode: null,
        updated: ctx.now,
      });
      emitContactConfirmed(ctx, confirmed);
      return { status: 200, body: renderContact(ctx, confirmed, new Set(contactDefaultExpand)) };
    },
  },
);
