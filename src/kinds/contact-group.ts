import { z } from "zod";
import { contactRef, createdAt, guid, readOnlyId, updatedAt } from "./common.ts";
import { field, set } from "./field.ts";
import { defineKind } from "./kind.ts";
import { alertTypes, reportFrequencies } from "./monitor/index.ts";

export const groupEvents = [...alertTypes, ...reportFrequencies] as const;

export const contactGroupMember = z.strictObject({
  contactId: contactRef,
  events: set(z.enum(groupEvents)).min(1),
});

/**
 * One group of a contact's membership (`PUT /contact/{id}/group`). Without
 * `events`, a group the contact is in keeps its set and a new one gets the default.
 */
export const contactMembership = z.strictObject({
  id: guid,
  events: field(contactGroupMember.shape.events, {
    default: ["down", "up"],
    description: "Kept for an existing membership when absent; a new one gets down and up.",
  }).optional(),
});

export const contactGroupSchema = z
  .strictObject({
    id: readOnlyId,
    name: field(z.string().min(1).max(100), { description: "Unique within the account." }),
    members: field(set(contactGroupMember), {
      default: [],
      description: "A PATCH replaces the whole member set.",
    }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export const contactGroupKind = defineKind({
  name: "contactGroup",
  title: "Contact group",
  schema: contactGroupSchema,
  naturalKey: ["name"],
  rules: { duplicate: "duplicate_resource" },
  required: ["name"],
  paths: { collection: "/contact/group", item: "/contact/group/{id}" },
  list: { sort: ["name", "created"], defaultSort: "name", filters: [] },
});
