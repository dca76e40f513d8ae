import { contactGroupSchema } from "../../../../kinds/index.ts";
import { newGuid } from "../../../core/ids.ts";
import type { Ctx } from "../../../core/operation.ts";
import { ApiProblem } from "../../../core/problem.ts";
import { storedValues } from "../../../core/stored.ts";
import {
  assertMembers,
  type ContactGroupDoc,
  findGroupByName,
  type GroupMember,
  groupTable,
} from "./model.ts";

/** What a group write sends: a create carries `name` (the kind requires it). */
export interface GroupBody {
  name?: string;
  members?: GroupMember[];
}

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

/** `POST /contact/group`: a unique name and members that exist, each with its events. */
export function createGroup(ctx: Ctx, body: GroupBody & { name: string }): ContactGroupDoc {
  // The kind's members as sent, else their defaults; each member's events as a set.
  const kept = storedValues(contactGroupSchema, body, undefined) as Pick<ContactGroupDoc, "name" | "members">;
  const members = normalize(kept.members);
  assertMembers(ctx, members, "/members");
  assertNameFree(ctx, body.name);
  return ctx.store.put<ContactGroupDoc>(groupTable, {
    id: newGuid(),
    accountId: ctx.account!.id,
    ...kept,
    members,
    created: ctx.now,
    updated: ctx.now,
  });
}

/** `PATCH /contact/group/{id}`: a new name, or a whole new member set; `updated` moves only on a change. */
export function updateGroup(ctx: Ctx, group: ContactGroupDoc, body: GroupBody): ContactGroupDoc {
  const members = body.members ? normalize(body.members) : group.members;
  if (body.members) assertMembers(ctx, members, "/members");
  if (body.name !== undefined) assertNameFree(ctx, body.name, group.id);
  const next = { ...group, ...storedValues(contactGroupSchema, body, group), members };
  if (JSON.stringify(next) === JSON.stringify(group)) return group;
  return ctx.store.put<ContactGroupDoc>(groupTable, { ...next, updated: ctx.now });
}

/** Deletes a group; its contacts and the subscriptions it wrote stay. */
export function deleteGroup(ctx: Ctx, group: ContactGroupDoc) {
  ctx.store.remove(groupTable, group.id);
  return { id: group.id, deleted: true, name: group.name, members: group.members.length, cascaded: {} };
}
