import type { Ctx } from "../../core/operation.ts";
import type { AccountDoc } from "../accounts.ts";

/** Anonymous catalogue routes: no scope; one throttle bucket per client address, or per account with a token. */
export const anonymous = { scope: null, metering: "catalogue" } as const;

/** The caller's account when a token came along (it adds account-specific members), else undefined. */
export function callerAccount(ctx: Ctx): AccountDoc | undefined {
  return ctx.account as AccountDoc | undefined;
}
