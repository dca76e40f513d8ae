import { type ContactBody, type ContactType, contactSchema, traitsOf } from "../../../kinds/index.ts";
import type { Doc } from "../../core/store.ts";
import type { KindMembers } from "../../core/stored.ts";

/*
 * The stored contact and what reading it needs. Kept apart from model.ts (the
 * rules and writes, which emit events that render contacts) so that every
 * module that only reads contacts imports no writes, and no cycle forms.
 */

/**
 * A stored contact: the contact kind's members (which ones a write keeps is the kind's: `storedValues`), with
 * those the sandbox reads itself typed as stored, and the service's own bookkeeping. An unsent name is null:
 * it then follows the address (`defaultFrom`).
 */
export interface ContactDoc extends Doc, KindMembers<ContactBody> {
  type: ContactType;
  address: string;
  alertDelay: number;
  /** The recognised gateway of an http contact. */
  gateway: string | null;
  confirmed: boolean;
  confirmedAt: number | null;
  confirmedVia: "code" | "inherit" | null;
  /** The pending confirmation code, if any (delivered through the outbox). */
  confirmationCode: string | null;
  created: number;
  updated: number;
  syncSeq: number;
}

export type ContactInput = Partial<Omit<ContactDoc, "id" | "accountId">> & {
  type: ContactType;
  address: string;
};

/** The member a defaulted name reads from, as the kind declares it. */
const nameFrom = traitsOf(contactSchema.shape.name).defaultFrom as keyof ContactDoc;

/** The name as the API shows, sorts and searches it. */
export const contactName = (c: ContactDoc): string => c.name ?? String(c[nameFrom]);
