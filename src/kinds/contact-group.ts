import { z } from "zod";
import { createdAt, guid, readOnlyId, updatedAt } from "./common.ts";
import { field, set } from "./field.ts";
import { defineKind } from "./kind.ts";
import { alertTypes, reportFrequencies } from "./monitor/index.ts";

export const groupEvents = [...alertTypes, ...reportFrequencies] as const;

export const contactGroupMember = z.strictObject({
  contactId: guid,
  events: set(z.enum(groupEvents)).min(1),
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
  paths: { collection: "/contact/group", item: "/contact/group/{id}" },
  list: { sort: ["name", "created"], defaultSort: "name", filters: [] },
});
