import { type ContactBody, contactKind, contactSchema, contactTypes } from "../../../kinds/index.ts";
import { type Filter, listOperations, parseExpand, pickFields } from "../../core/list.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import { rescheduleOpenIncident } from "../checks/history.ts";
import { alertSubscriptionsOf, removeSubscriptionsOf } from "../subscriptions/model.ts";
import { type ContactDoc, type ContactInput, contactName } from "./doc.ts";
import { emitContactConfirmed, emitContactUpdated } from "./events.ts";
import { removeFromGroups } from "./groups/model.ts";
import {
  assertContactRules,
  confirmationAt,
  findContactByAddress,
  gatewayOf,
  insertContact,
  isConfirmable,
  normalizeAddress,
  requireContact,
  sendConfirmationCode,
} from "./model.ts";
import { contactDefaultExpand, contactExpand, contactFields, renderContact } from "./render.ts";
import { contactCreateBody, contactPatchBody } from "./schemas.ts";

const single = {
  expand: { type: "string", list: true, description: `Blocks: ${contactExpand.join(", ")}.` },
  fields: { type: "string", list: true, description: "Top-level members to keep (id always)." },
} as const;

function duplicate(existing: ContactDoc): ApiProblem {
  return new ApiProblem("duplicate_contact", `A ${existing.type} contact with this address exists.`, {
    errors: [{ pointer: "/address", value: existing.address, reason: "duplicate", existingId: existing.id }],
    extra: { existingId: existing.id },
  });
}

function read(ctx: Ctx, doc: ContactDoc, expand: ReadonlySet<string> = new Set(contactDefaultExpand)) {
  return renderContact(ctx, doc, expand);
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
    if (other && other.id !== doc.id) throw duplicate(other);
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

/** The filters of `GET /contact` and `POST /contact/q`; bulk deletes select with the same ones. */
export const contactListFilters: Record<string, Filter<ContactDoc>> = {
  q: {
    param: { type: "string", description: "Substring of the name or address, any case." },
    match: (c, q: string) => `${contactName(c)}\n${c.address}`.toLowerCase().includes(q.toLowerCase()),
  },
  type: {
    param: { type: "enum", values: contactTypes, list: true, description: "Any of these types." },
    match: (c, types: string[]) => types.includes(c.type),
  },
  confirmed: {
    param: { type: "bool", description: "Confirmed or not." },
    match: (c, confirmed: boolean) => c.confirmed === confirmed,
  },
  id: {
    param: { type: "string", list: true, description: "Any of these ids." },
    match: (c, ids: string[]) => ids.includes(c.id),
  },
};

export const contactRoutes = defineOperations(
  ...listOperations<ContactDoc>({
    id: "contact.list",
    path: "/contact",
    kind: contactKind,
    summary: "List contacts.",
    scope: "contact:read",
    rows: (ctx) => ctx.store.all<ContactDoc>("contact", ctx.account!.id),
    rowId: (c) => c.id,
    filters: contactListFilters,
    sort: {
      columns: {
        created: { key: (c) => c.created, time: true },
        name: { key: (c) => contactName(c).toLowerCase() },
        address: { key: (c) => c.address.toLowerCase() },
      },
      default: "created",
    },
    expand: [...contactExpand, "count"],
    fields: contactFields,
    syncSeq: (c) => c.syncSeq,
    render: (ctx, c, expand) => renderContact(ctx, c, expand),
  }),
  {
    id: "contact.get",
    method: "GET",
    path: "/contact/{id}",
    summary: "Read a contact.",
    scope: "contact:read",
    query: single,
    errors: ["not_found", "unknown_parameter", "unknown_expand", "unknown_field"],
    response: { status: 200, description: "The contact.", schema: contactSchema },
    handle: (ctx, req) => {
      const doc = requireContact(ctx, req.params.id!);
      const expand = parseExpand(req, contactExpand, contactDefaultExpand);
      return { status: 200, body: pickFields(req, read(ctx, doc, expand), contactFields) };
    },
  },
  {
    id: "contact.create",
    method: "POST",
    path: "/contact",
    summary: "Create a contact; email, sms and voiceCall contacts start unconfirmed and receive a code.",
    scope: "contact:write",
    body: contactCreateBody,
    idempotency: (req) => isConfirmable((req.body as ContactInput).type),
    errors: [
      "validation_failed",
      "contact_type_not_creatable",
      "invalid_alert_delay",
      "package_limit",
      "duplicate_contact",
      "idempotency_key_required",
    ],
    response: { status: 201, description: "The contact.", schema: contactSchema },
    handle: (ctx, req) => {
      const body = req.body as ContactInput;
      assertContactRules(ctx, body);
      const existing = findContactByAddress(ctx, body.type, body.address);
      if (existing) throw duplicate(existing);
      const doc = insertContact(ctx, body);
      return { status: 201, headers: { Location: `/contact/${doc.id}` }, body: read(ctx, doc) };
    },
  },
  {
    id: "contact.update",
    method: "PATCH",
    path: "/contact/{id}",
    summary: "Change sent members; null clears a nullable one. A new address must be confirmed again.",
    scope: "contact:write",
    body: contactPatchBody,
    errors: ["not_found", "validation_failed", "type_immutable", "invalid_alert_delay", "duplicate_contact"],
    response: { status: 200, description: "The contact.", schema: contactSchema },
    handle: (ctx, req) => {
      const doc = patchContact(ctx, requireContact(ctx, req.params.id!), req.body as ContactBody);
      return { status: 200, body: read(ctx, doc) };
    },
  },
  {
    id: "contact.delete",
    method: "DELETE",
    path: "/contact/{id}",
    summary: "Delete a contact with its subscriptions and group memberships.",
    scope: "contact:write",
    errors: ["not_found"],
    response: {
      status: 200,
      description:
        "The delete receipt: {id, deleted: true, type, name, address, cascaded: {alertSubscriptions, reportSubscriptions, groups}}.",
    },
    handle: (ctx, req) => ({ status: 200, body: deleteContact(ctx, requireContact(ctx, req.params.id!)) }),
  },
);
