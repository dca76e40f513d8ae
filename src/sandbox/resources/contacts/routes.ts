import { type ContactBody, contactKind } from "../../../kinds/index.ts";
import { crudOperations } from "../../core/crud.ts";
import { listOperations } from "../../core/list.ts";
import { defineOperations } from "../../core/operation.ts";
import { type ContactDoc, type ContactInput, contactName } from "./doc.ts";
import { contactListFilters } from "./filters.ts";
import { createContact, deleteContact, isConfirmable, patchContact, requireContact } from "./model.ts";
import { contactDefaultExpand, contactExpand, contactFields, renderContact } from "./render.ts";

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
  ...crudOperations<ContactDoc, ContactInput, ContactBody>({
    kind: contactKind,
    id: "contact",
    scopes: { read: "contact:read", write: "contact:write" },
    load: requireContact,
    render: (ctx, doc) => renderContact(ctx, doc, new Set(contactDefaultExpand)),
    get: {
      summary: "Read a contact.",
      expand: { tokens: contactExpand, defaults: contactDefaultExpand, render: renderContact },
      fields: contactFields,
    },
    create: {
      summary: "Create a contact; email, sms and voiceCall contacts start unconfirmed and receive a code.",
      idempotency: (req) => isConfirmable((req.body as ContactInput).type),
      errors: ["contact_type_not_creatable", "invalid_alert_delay", "package_limit", "duplicate_contact"],
      write: createContact,
    },
    update: {
      summary: "Change sent members; null clears a nullable one. A new address must be confirmed again.",
      errors: ["type_immutable", "invalid_alert_delay", "duplicate_contact"],
      write: patchContact,
    },
    delete: {
      summary: "Delete a contact with its subscriptions and group memberships.",
      write: deleteContact,
      receipt: {
        description:
          "The delete receipt: {id, deleted: true, type, name, address, cascaded: {alertSubscriptions, reportSubscriptions, groups}}.",
      },
    },
  }),
);
