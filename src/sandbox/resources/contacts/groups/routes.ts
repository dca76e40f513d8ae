import { contactGroupKind } from "../../../../kinds/index.ts";
import { crudOperations, rowFieldsOf } from "../../../core/crud.ts";
import { listOperations } from "../../../core/list.ts";
import { defineOperations } from "../../../core/operation.ts";
import { type ContactGroupDoc, groupTable, renderGroup, requireGroup } from "./model.ts";
import { createGroup, deleteGroup, type GroupBody, updateGroup } from "./writes.ts";

export const groupRoutes = defineOperations(
  ...listOperations<ContactGroupDoc>({
    id: "contact.group.list",
    kind: contactGroupKind,
    path: "/contact/group",
    summary: "List contact groups.",
    scope: "contact:read",
    rows: (ctx) => ctx.store.all<ContactGroupDoc>(groupTable, ctx.account!.id),
    rowId: (g) => g.id,
    sort: {
      columns: { name: { key: (g) => g.name.toLowerCase() }, created: { key: (g) => g.created, time: true } },
      default: "name",
    },
    fields: rowFieldsOf(contactGroupKind),
    render: (_ctx, g) => renderGroup(g),
  }),
  ...crudOperations<ContactGroupDoc, GroupBody & { name: string }, GroupBody>({
    kind: contactGroupKind,
    id: "contact.group",
    scopes: { read: "contact:read", write: "contact:write" },
    noun: "The group",
    load: requireGroup,
    render: (_ctx, group) => renderGroup(group),
    get: { summary: "Read a contact group." },
    create: {
      summary: "Create a contact group: a unique name and members with the events each receives.",
      errors: ["unsupported_report_channel", "package_limit"],
      write: createGroup,
    },
    update: {
      summary: "Rename a group or replace its whole member set.",
      errors: ["unsupported_report_channel", "package_limit"],
      write: updateGroup,
    },
    delete: {
      summary: "Delete a group; its contacts and the subscriptions it wrote stay.",
      write: deleteGroup,
      receipt: {
        description:
          "The delete receipt: {id, deleted: true, name, members (how many it had), cascaded: {}}.",
      },
    },
  }),
);
