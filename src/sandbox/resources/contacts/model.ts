import { randomInt } from "node:crypto";
import {
  type AccountView,
  type ContactBody,
  type ContactType,
  confirmableContactTypes,
  contactMemberRefusals,
  contactSchema,
  contactTypeRefusals,
  creatableContactTypes,
  defaultsOf,
  gatewayOf,
  type ProblemDetailEntry,
} from "../../../kinds/index.ts";
import { newGuid } from "../../core/ids.ts";
import type { Ctx } from "../../core/operation.ts";
import { ApiProblem, invalid, notFound } from "../../core/problem.ts";
import { accountOf, entitlements, nextSyncSeq } from "../accounts.ts";
import { rescheduleOpenIncident } from "../checks/history.ts";
import { sendMessage } from "../outbox.ts";
import { alertSubscriptionsOf, removeSubscriptionsOf } from "../subscriptions/model.ts";
import { type ContactDoc, type ContactInput, contactName } from "./doc.ts";
import { emitContactConfirmed, emitContactUpdated } from "./events.ts";
import { removeFromGroups } from "./groups/model.ts";

/** The address as the service compares it: emails case-insensitively, others as given. */
export function normalizeAddress(type: ContactType, address: string): string {
  return type === "email" ? address.trim().toLowerCase() : address.trim();
}

/** The account's contact, or 404 (a missing id and another account's id answer alike). */
export function requireContact(ctx: Ctx, id: string): ContactDoc {
  const contact = ctx.store.owned<ContactDoc>("contact", ctx.account!.id, id);
  if (!contact) throw notFound("contact", id);
  return contact;
}

export const isConfirmable = (type: ContactType) =>
  (confirmableContactTypes as readonly string[]).includes(type);

/** Confirmation is per channel: a phone number confirmed for sms is confirmed for voice calls too. */
const confirmationChannel = (type: ContactType) => (type === "email" ? "email" : "phone");

/** Whether a confirmable contact of the account holds this address, confirmed, on the same channel. */
function confirmedOnChannel(ctx: Ctx, type: ContactType, address: string): boolean {
  const wanted = normalizeAddress(type, address);
  return ctx.store
    .all<ContactDoc>("contact", ctx.account!.id)
    .some(
      (c) =>
        c.confirmed &&
        isConfirmable(c.type) &&
        confirmationChannel(c.type) === confirmationChannel(type) &&
        normalizeAddress(c.type, c.address) === wanted,
    );
}

/** The confirmation members of a contact at `address`: inherited when it is confirmed on the channel, else pending. */
export function confirmationAt(ctx: Ctx, type: ContactType, address: string) {
  const confirmable = isConfirmable(type);
  const inherited = confirmable && confirmedOnChannel(ctx, type, address);
  return {
    confirmed: !confirmable || inherited,
    confirmedAt: !confirmable || inherited ? ctx.now : null,
    confirmedVia: inherited ? ("inherit" as const) : null,
    confirmationCode: null,
  };
}

export function findContactByAddress(ctx: Ctx, type: ContactType, address: string): ContactDoc | undefined {
  const wanted = normalizeAddress(type, address);
  return ctx.store
    .all<ContactDoc>("contact", ctx.account!.id)
    .find((c) => c.type === type && normalizeAddress(c.type, c.address) === wanted);
}

/** Contact rules read only the account's features. */
const noAccount: AccountView = { intervals: [], maxInlineContacts: 0, features: {}, usage: {} };

/**
 * Checks a contact's rules (the schema checked shapes already) and throws what the API answers: a refusal with
 * a code of its own alone, else every `validation_failed` entry at once, with pointers under `prefix`. The rules
 * are the contact kind's own, so plans and `vigil validate` judge contacts as this does.
 */
export function assertContactRules(ctx: Ctx, c: ContactInput, prefix = ""): void {
  const [typeRefusal] = contactTypeRefusals(
    c.type,
    { ...noAccount, features: entitlements(accountOf(ctx)) },
    prefix,
  );
  if (typeRefusal?.code === "contact_type_not_creatable")
    throw new ApiProblem(
      "contact_type_not_creatable",
      `${c.type} contacts are created by connecting them in the app.`,
      {
        errors: [{ pointer: typeRefusal.pointer, value: c.type, allowed: [...creatableContactTypes] }],
      },
    );
  if (typeRefusal)
    throw new ApiProblem("package_limit", `The plan has no ${c.type} contacts.`, {
      extra: { feature: typeRefusal.feature },
    });
  const entries: ProblemDetailEntry[] = [];
  for (const refusal of contactMemberRefusals(c, prefix)) {
    const { code, message, pointer, value, reason, allowed, expected, minimum, maximum } = refusal;
    const entry: ProblemDetailEntry = {
      pointer,
      ...(value !== undefined && { value }),
      ...(reason && { reason }),
      ...(allowed && { allowed: [...allowed] }),
      ...(expected && { expected }),
      ...(minimum !== undefined && { minimum }),
      ...(maximum !== undefined && { maximum }),
    };
    // A refusal with a code of its own answers alone, its message the problem's detail.
    if (code !== "validation_failed") throw new ApiProblem(code, `${message}.`, { errors: [entry] });
    entries.push({ ...entry, message });
  }
  if (entries.length > 0) throw invalid(entries);
}

const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0");

/** Sends a fresh confirmation code through the outbox and returns the contact holding it. */
export function sendConfirmationCode(ctx: Ctx, contact: ContactDoc): ContactDoc {
  const code = newCode();
  const updated = ctx.store.put<ContactDoc>("contact", { ...contact, confirmationCode: code });
  sendMessage(ctx, {
    kind: "confirmation",
    channel: contact.type,
    to: contact.address,
    code,
    contactId: contact.id,
  });
  return updated;
}

/** Server defaults of the members a create may leave out, as the kind declares them. */
const contactDefaults = defaultsOf(contactSchema) as Pick<
  ContactDoc,
  "language" | "alertDelay" | "mimeType" | "groupedAlerts"
>;

/**
 * Creates a contact (rules already checked). Email, sms and voice contacts
 * start unconfirmed and get a code, unless the address is already confirmed
 * on the account for their channel, which they inherit.
 */
export function insertContact(ctx: Ctx, input: ContactInput): ContactDoc {
  const contact: ContactDoc = {
    id: newGuid(),
    accountId: ctx.account!.id,
    type: input.type,
    address: input.address,
    name: input.name ?? null,
    language: input.language ?? contactDefaults.language,
    alertDelay: input.alertDelay ?? contactDefaults.alertDelay,
    activePeriod: input.activePeriod ?? null,
    gateway: gatewayOf(input.type, input.address),
    httpHeaders: input.httpHeaders ?? [],
    mimeType: input.mimeType ?? contactDefaults.mimeType,
    groupedAlerts: input.groupedAlerts ?? contactDefaults.groupedAlerts,
    templates: input.templates ?? [],
    ...confirmationAt(ctx, input.type, input.address),
    created: ctx.now,
    updated: ctx.now,
    syncSeq: nextSyncSeq(ctx),
  };
  ctx.store.put("contact", contact);
  if (contact.confirmedVia === "inherit") emitContactConfirmed(ctx, contact);
  return contact.confirmed ? contact : sendConfirmationCode(ctx, contact);
}

/** `POST /contact`: the rules, then the natural key (type, address) must be free. */
export function createContact(ctx: Ctx, body: ContactInput): ContactDoc {
  assertContactRules(ctx, body);
  const existing = findContactByAddress(ctx, body.type, body.address);
  if (existing) throw duplicateContact(existing);
  return insertContact(ctx, body);
}

/** 409 `duplicate_contact`: the account already has a contact of this type at this address. */
export function duplicateContact(existing: ContactDoc): ApiProblem {
  return new ApiProblem("duplicate_contact", `A ${existing.type} contact with this address exists.`, {
    errors: [{ pointer: "/address", value: existing.address, reason: "duplicate", existingId: existing.id }],
    extra: { existingId: existing.id },
  });
}

/**
 * Applies a PATCH body. A changed address of a confirmable contact must be
 * confirmed again, unless it is already confirmed on the account (inherited).
 */
export function patchContact(ctx: Ctx, doc: ContactDoc, body: ContactBody): ContactDoc {
  if (body.type !== undefined && body.type !== doc.type) {
    throw new ApiProblem("type_immutable", "A contact's type cannot change; create a new contact.", {
      errors: [{ pointer: "/type", value: body.type, reason: "immutable", allowed: [doc.type] }],
    });
  }
  const address = body.address ?? doc.address;
  // Type rules read the sent members; http contacts also need the stored template pair to judge mimeType.
  const check: ContactInput = { ...body, type: doc.type, address };
  if (doc.type === "http") {
    check.mimeType = body.mimeType ?? doc.mimeType;
    check.templates = body.templates ?? doc.templates;
  }
  assertContactRules(ctx, check);
  const addressChanged = normalizeAddress(doc.type, address) !== normalizeAddress(doc.type, doc.address);
  if (addressChanged) {
    const other = findContactByAddress(ctx, doc.type, address);
    if (other && other.id !== doc.id) throw duplicateContact(other);
  }
  const { type: _, ...members } = body;
  let next: ContactDoc = {
    ...doc,
    ...(members as Partial<ContactDoc>),
    gateway: gatewayOf(doc.type, address),
  };
  const reconfirm = addressChanged && isConfirmable(doc.type);
  if (reconfirm) next = { ...next, ...confirmationAt(ctx, doc.type, address) };
  if (JSON.stringify(next) === JSON.stringify(doc)) return doc;
  // syncSeq stays: contact delta sync catches creation only.
  next = ctx.store.put<ContactDoc>("contact", { ...next, updated: ctx.now });
  if (reconfirm && !next.confirmed) next = sendConfirmationCode(ctx, next);
  emitContactUpdated(ctx, next);
  if (reconfirm && next.confirmed) emitContactConfirmed(ctx, next);
  // A shorter delay may make this contact's alert of an open incident due now.
  if (next.alertDelay !== doc.alertDelay) {
    for (const s of alertSubscriptionsOf(ctx, next.id)) rescheduleOpenIncident(ctx, s.monitorId);
  }
  return next;
}

/** Deletes a contact with its subscriptions and group memberships, and answers the receipt. */
export function deleteContact(ctx: Ctx, doc: ContactDoc) {
  const subscriptions = removeSubscriptionsOf(ctx, { contactId: doc.id });
  const groups = removeFromGroups(ctx, doc.id);
  ctx.store.remove("contact", doc.id);
  return {
    id: doc.id,
    deleted: true,
    type: doc.type,
    name: contactName(doc),
    address: doc.address,
    cascaded: { ...subscriptions, groups },
  };
}
