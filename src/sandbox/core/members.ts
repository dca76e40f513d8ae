import type { Account } from "./operation.ts";

/** A shared-access member of an account and the rights it was granted. */
export interface Member {
  id: string;
  login: string;
  rights: string[];
}

/** The member behind a token, or undefined when the account no longer has it. */
export function memberOf(account: Account, memberId: string): Member | undefined {
  return (account.members as Member[] | undefined)?.find((m) => m.id === memberId);
}
