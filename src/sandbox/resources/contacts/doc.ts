import { type ContactType, contactSchema, traitsOf } from "../../../kinds/index.ts";
import type { Doc } from "../../core/store.ts";

/*
 * The stored contact and what reading it needs. Kept apart from model.ts (the
 * rules and writes, which emit events that render contacts) so that every
 * module that only reads contacts imports no writes, and no cycle forms.
 */

/** A stored contact. Members follow `contactSchema`; the rest is the service's own bookkeeping. */
export interface ContactDoc extends Doc {
  type: ContactType;
  address: string;
  /** null when never sent (or sent null): the name then follows the address (`defaultFrom`). */
  name: string | null;
  language: string;
  alertDelay: number;
  activePeriod: { days: string[]; from: string; to: string } | null;
  gateway: string | null;
  httpHeaders: Array<{ header: string; value: string }>;
  mimeType: string;
  groupedAlerts: boolean;
  templates: Array<{ event: string; content: string }>;
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
