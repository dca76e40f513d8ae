import { type ContactBody, contactKind, contactSchema } from "../../../kinds/index.ts";
import { listOperations, parseExpand, pickFields } from "../../core/list.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { type ContactDoc, type ContactInput, contactName } from "./doc.ts";
import { contactListFilters } from "./filters.ts";
import {
  assertContactRules,
  deleteContact,
  duplicateContact,
  findContactByAddress,
  insertContact,
  isConfirmable,
  patchContact,
  requireContact,
} from "./model.ts";
import { contactDefaultExpand, contactExpand, contactFields, renderContact } from "./render.ts";
import { contactCreateBody, contactPatchBody } from "./schemas.ts";

const single = {
  expand: { type: "string", list: true, description: `Blocks: ${contactExpand.join(", ")}.` },
  fields: { type: "string", list: true, description: "Top-level members to keep (id always)." },
} as const;

function read(ctx: Ctx, doc: ContactDoc, expand: ReadonlySet<string> = new Set(contactDefaultExpand)) {
  return renderContact(ctx, doc, expand);
}

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
      if (existing) throw duplicateContact(existing);
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
