import type { Account } from "./operation.ts";

/** A shared-access member of an account and the rights it was granted. */
export interface AccountMember {
  id: string;
  login: string;
  rights: string[];
}

/** The member behind a token, or undefined when the account no longer has it. */
export function accountMemberOf(account: Account, memberId: string): AccountMember | undefined {
  return (account.members as AccountMember[] | undefined)?.find((m) => m.id === memberId);
}
