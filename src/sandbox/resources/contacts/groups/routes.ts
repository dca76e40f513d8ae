import type { z } from "zod";
import { contactGroupKind, contactGroupSchema, defaultsOf } from "../../../../kinds/index.ts";
import { newGuid } from "../../../core/ids.ts";
import { listOperations } from "../../../core/list.ts";
import { type Ctx, defineOperations } from "../../../core/operation.ts";
import { ApiProblem } from "../../../core/problem.ts";
import {
  assertMembers,
  type ContactGroupDoc,
  findGroupByName,
  type GroupMember,
  groupCollection,
  renderGroup,
  requireGroup,
} from "./model.ts";
import { groupCreateBody, groupPatchBody } from "./schemas.ts";

/** Server defaults of a group create, as the kind declares them. */
const groupDefaults = defaultsOf(contactGroupSchema) as Pick<ContactGroupDoc, "members">;

/** Each member's events as a set: repeats dropped. */
const normalize = (members: readonly GroupMember[]) =>
  members.map((m) => ({ contactId: m.contactId, events: [...new Set(m.events)] }));

function assertNameFree(ctx: Ctx, name: string, self?: string) {
  const other = findGroupByName(ctx, name);
  if (other && other.id !== self) {
    throw new ApiProblem("duplicate_resource", `A contact group named "${other.name}" exists.`, {
      errors: [{ pointer: "/name", value: name, reason: "duplicate", existingId: other.id }],
      extra: { existingId: other.id },
    });
  }
}

const groupFields = ["name", "members", "created", "updated"];

export const groupRoutes = defineOperations(
  ...listOperations<ContactGroupDoc>({
    id: "contact.group.list",
    kind: contactGroupKind,
    path: "/contact/group",
    summary: "List contact groups.",
    scope: "contact:read",
    rows: (ctx) => ctx.store.all<ContactGroupDoc>(groupCollection, ctx.account!.id),
    rowId: (g) => g.id,
    sort: {
      columns: { name: { key: (g) => g.name.toLowerCase() }, created: { key: (g) => g.created, time: true } },
      default: "name",
    },
    fields: groupFields,
    render: (_ctx, g) => renderGroup(g),
  }),
  {
    id: "contact.group.create",
    method: "POST",
    path: "/contact/group",
    summary: "Create a contact group: a unique name and members with the events each receives.",
    scope: "contact:write",
    body: groupCreateBody,
    errors: ["validation_failed", "duplicate_resource", "unsupported_report_channel", "package_limit"],
    response: { status: 201, description: "The group.", schema: contactGroupSchema },
    handle: (ctx, req) => {
      const body = req.body as z.infer<typeof groupCreateBody>;
      const members = normalize(body.members ?? groupDefaults.members);
      assertMembers(ctx, members, "/members");
      assertNameFree(ctx, body.name);
      const group = ctx.store.put<ContactGroupDoc>(groupCollection, {
        id: newGuid(),
        accountId: ctx.account!.id,
        name: body.name,
        members,
        created: ctx.now,
        updated: ctx.now,
      });
      return { status: 201, headers: { Location: `/contact/group/${group.id}` }, body: renderGroup(group) };
    },
  },
  {
    id: "contact.group.get",
    method: "GET",
    path: "/contact/group/{id}",
    summary: "Read a contact group.",
    scope: "contact:read",
    errors: ["not_found"],
    response: { status: 200, description: "The group.", schema: contactGroupSchema },
    handle: (ctx, req) => ({ status: 200, body: renderGroup(requireGroup(ctx, req.params.id!)) }),
  },
  {
    id: "contact.group.update",
    method: "PATCH",
    path: "/contact/group/{id}",
    summary: "Rename a group or replace its whole member set.",
    scope: "contact:write",
    body: groupPatchBody,
    errors: [
      "not_found",
      "validation_failed",
      "duplicate_resource",
      "unsupported_report_channel",
      "package_limit",
    ],
    response: { status: 200, description: "The group.", schema: contactGroupSchema },
    handle: (ctx, req) => {
      const group = requireGroup(ctx, req.params.id!);
      const body = req.body as z.infer<typeof groupPatchBody>;
      const members = body.members ? normalize(body.members) : group.members;
      if (body.members) assertMembers(ctx, members, "/members");
      if (body.name !== undefined) assertNameFree(ctx, body.name, group.id);
      const next = { ...group, name: body.name ?? group.name, members };
      if (JSON.stringify(next) === JSON.stringify(group)) return { status: 200, body: renderGroup(group) };
      const saved = ctx.store.put<ContactGroupDoc>(groupCollection, { ...next, updated: ctx.now });
      return { status: 200, body: renderGroup(saved) };
    },
  },
  {
    id: "contact.group.delete",
    method: "DELETE",
    path: "/contact/group/{id}",
    summary: "Delete a group; its contacts and the subscriptions it wrote stay.",
    scope: "contact:write",
    errors: ["not_found"],
    response: {
      status: 200,
      description: "The delete receipt: {id, deleted: true, name, members (how many it had), cascaded: {}}.",
    },
    handle: (ctx, req) => {
      const group = requireGroup(ctx, req.params.id!);
      ctx.store.remove(groupCollection, group.id);
      return {
        status: 200,
        body: { id: group.id, deleted: true, name: group.name, members: group.members.length, cascaded: {} },
      };
    },
  },
);
