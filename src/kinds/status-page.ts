import { z } from "zod";
import { createdAt, guid, httpsUrl, readOnlyId, unixTime, updatedAt } from "./common.ts";
import { field, list } from "./field.ts";
import { defineKind } from "./kind.ts";

export const manualStates = ["operational", "degraded", "down"] as const;

/** A component shows either a monitor's live state or a manual one. */
export const statusPageComponent = z.union([
  z.strictObject({
    id: field(z.string(), { readOnly: true }).optional(),
    name: z.string().min(1).max(100),
    monitorId: guid,
  }),
  z.strictObject({
    id: field(z.string(), { readOnly: true }).optional(),
    name: z.string().min(1).max(100),
    manualState: z.enum(manualStates),
  }),
]);

export const statusPageSchema = z
  .strictObject({
    id: readOnlyId,
    slug: field(z.string().regex(/^[a-z0-9][a-z0-9-]{1,62}$/, "lower-case letters, digits and dashes"), {
      immutable: true,
      description: "Public address; permanent.",
    }),
    title: field(z.string().min(1).max(255), {}),
    description: field(z.string().max(2000).nullable(), {}),
    customDomain: field(z.string().max(255).nullable(), {}),
    theme: field(z.enum(["light", "dark", "auto"]), { default: "auto" }),
    components: field(list(statusPageComponent).max(100), {
      default: [],
      description: "Replaced whole by PUT /statuspage/{id}/component.",
    }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export const statusPageIncidentStates = ["investigating", "identified", "monitoring", "resolved"] as const;

export const statusPageIncidentSchema = z
  .strictObject({
    id: readOnlyId,
    kind: field(z.enum(["incident", "maintenance"]), { immutable: true }),
    title: z.string().min(1).max(255),
    impact: z.enum(["minor", "major"]),
    componentIds: field(z.array(z.string()), { collection: "set" }),
    state: z.enum(statusPageIncidentStates),
    message: z.string().min(1).max(5000),
    postmortem: z.string().max(20000).nullable(),
    from: unixTime,
    to: unixTime,
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export const statusPageTemplateSchema = z
  .strictObject({
    id: readOnlyId,
    title: z.string().min(1).max(255),
    message: z.string().min(1).max(5000),
    impact: z.enum(["minor", "major"]),
    created: createdAt,
  })
  .partial();

export const statusPageSubscriberSchema = z
  .strictObject({
    id: readOnlyId,
    kind: field(z.enum(["slack", "teams", "webhook"]), {
      immutable: true,
      description: "email joins only via the public page.",
    }),
    url: field(httpsUrl, { immutable: true }),
    created: createdAt,
  })
  .partial();

export const statusPageKind = defineKind({
  name: "statusPage",
  title: "Status page",
  schema: statusPageSchema,
  naturalKey: ["slug"],
  paths: { collection: "/statuspage", item: "/statuspage/{id}" },
  list: { sort: ["created", "title", "slug"], defaultSort: "created", filters: [] },
});
