import { newPrefixedId } from "../core/ids.ts";
import type { Ctx } from "../core/operation.ts";

/** A message the service "sent" (confirmation codes, alerts, notices), kept for `GET /_sandbox/outbox`. */
export interface OutboxMessage {
  id: string;
  accountId: string;
  at: number;
  kind: string;
  channel: string;
  to: string;
  [member: string]: unknown;
}

export function sendMessage(
  ctx: Ctx,
  message: Omit<OutboxMessage, "id" | "accountId" | "at">,
): OutboxMessage {
  const full = {
    id: newPrefixedId("msg_"),
    accountId: ctx.account!.id,
    at: ctx.now,
    ...message,
  } as OutboxMessage;
  return ctx.store.put("outbox", full);
}
