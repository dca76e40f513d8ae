import { defineOperations } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import type { AccountDoc } from "../accounts.ts";
import { requireContact } from "./model.ts";
import { deliver, renderNotification } from "./notifications/model.ts";
import { testBody } from "./schemas.ts";

/** Channels that spend the account's SMS and voice balance. */
const paidChannels = new Set(["sms", "voiceCall"]);

export const testRoutes = defineOperations({
  id: "contact.test",
  method: "POST",
  path: "/contact/{id}/test",
  summary: "Send a test alert (default `down`) to a contact; answers the notification it recorded.",
  scope: "contact:write",
  body: testBody,
  errors: ["not_found", "validation_failed", "insufficient_balance"],
  response: { status: 201, description: "The notification (`alt_` id); outcome `blocked` when unconfirmed." },
  handle: (ctx, req) => {
    const contact = requireContact(ctx, req.params.id!);
    const { alertType = "down" } = req.body as { alertType?: string };
    // An unconfirmed contact is sent nothing, so it spends nothing either.
    const paid = contact.confirmed && paidChannels.has(contact.type);
    const account = ctx.store.get<AccountDoc>("account", contact.accountId)!;
    if (paid && account.smsBalance < 1) {
      throw new ApiProblem(
        "insufficient_balance",
        `A ${contact.type} test needs 1 credit; the balance is ${account.smsBalance}.`,
        {
          errors: [
            {
              reason: "insufficient_balance",
              channel: contact.type,
              balance: account.smsBalance,
              required: 1,
            },
          ],
        },
      );
    }
    const notification = deliver(ctx, contact, {
      kind: "test",
      event: alertType,
      monitorIds: [],
      period: null,
    });
    if (paid)
      ctx.account = ctx.store.put<AccountDoc>("account", { ...account, smsBalance: account.smsBalance - 1 });
    return {
      status: 201,
      headers: { Location: `/contact/notification/${notification.id}` },
      body: renderNotification(notification),
    };
  },
});
