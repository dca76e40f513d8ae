import { z } from "zod";
import { createdAt, guid, httpsUrl, isHost, monitorRef, readOnlyId, unixTime, updatedAt } from "./common.ts";
import { bodySchema, field, list, set } from "./field.ts";
import { defineKind } from "./kind.ts";

export const manualStates = ["operational", "degraded", "down"] as const;
/** What a component shows: a manual state, or its monitor's live state mapped (paused reads `unknown`). */
export const componentStates = [...manualStates, "maintenance", "unknown"] as const;

const componentId = field(z.string(), {
  readOnly: true,
  description: "GUID; kept while a component of the same name stays in the set.",
});
const componentName = field(z.string().min(1).max(100), { description: "Unique within the page." });
const componentState = field(z.enum(componentStates), {
  readOnly: true,
  description:
    "manualState, or the monitor's live state: up operational, down down, maintenance maintenance (operational when no active window covering it has showOnStatusPage), paused unknown.",
});

/** A component showing a monitor's live state. */
export const monitorComponent = z.strictObject({
  id: componentId.optional(),
  name: componentName,
  monitorId: monitorRef,
  state: componentState.optional(),
});

/** A component whose state is set by hand. */
export const manualComponent = z.strictObject({
  id: componentId.optional(),
  name: componentName,
  manualState: z.enum(manualStates),
  state: componentState.optional(),
});

/** A component shows either a monitor's live state or a manual one. */
export const statusPageComponent = z.union([monitorComponent, manualComponent]);

/** `PUT /statuspage/{id}/component`: the whole component set. */
export const statusPageComponentsBody = z.strictObject({
  components: list(
    z.union([bodySchema(monitorComponent, "create"), bodySchema(manualComponent, "create")]),
  ).max(100),
});

export const statusPageSchema = z
  .strictObject({
    id: readOnlyId,
    slug: field(
      z
        .string()
        .regex(
          /^[a-z0-9][a-z0-9-]{1,62}$/,
          "2 to 63 lower-case letters, digits and dashes, not starting with a dash",
        ),
      {
        immutable: true,
        description: "Public address, unique in the service; permanent.",
      },
    ),
    title: field(z.string().min(1).max(255), {}),
    description: field(z.string().max(2000).nullable(), { default: null }),
    customDomain: field(
      z
        .string()
        .max(253)
        .refine((v) => isHost(v) && v.includes(".") && !/^[\d.]+$/.test(v), {
          message: "must be a host name",
          params: { reason: "invalid_format", expected: "hostname" },
        })
        .nullable(),
      { default: null, description: "Host name the page is also served at; unique in the service." },
    ),
    theme: field(z.enum(["light", "dark", "auto"]), { default: "auto" }),
    publicUrl: field(z.string(), {
      readOnly: true,
      description: "Where the page is public: <base>/status/<slug>.",
    }),
    components: field(list(statusPageComponent).max(100), {
      readOnly: true,
      description: "Written whole by PUT /statuspage/{id}/component.",
    }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export const statusPageIncidentStates = ["investigating", "identified", "monitoring", "resolved"] as const;

/** One timeline post: the message and the state the incident moved to. Append-only. */
export const statusPageTimelineEntrySchema = z
  .strictObject({
    id: readOnlyId,
    message: z.string().min(1).max(5000),
    state: z.enum(statusPageIncidentStates),
    at: field(unixTime, { readOnly: true, description: "When it was posted, Unix seconds." }),
  })
  .partial();

/** `POST /statuspage/{id}/incident/{incidentId}/timeline`. */
export const statusPageTimelineBody = bodySchema(statusPageTimelineEntrySchema, "create").required({
  message: true,
  state: true,
});

export const statusPageIncidentSchema = z
  .strictObject({
    id: readOnlyId,
    pageId: field(z.string(), { readOnly: true, description: "The page it belongs to." }),
    kind: field(z.enum(["incident", "maintenance"]), { immutable: true, default: "incident" }),
    title: z.string().min(1).max(255),
    impact: field(z.enum(["minor", "major"]), { default: "minor" }),
    componentIds: set(z.string(), { default: [], description: "Components of the same page." }),
    state: field(z.enum(statusPageIncidentStates), {
      default: "investigating",
      description: "Set on create; then moved only by timeline posts, in any order.",
    }),
    message: field(z.string().min(1).max(5000), {
      createOnly: true,
      description: "The first timeline entry.",
    }),
    postmortem: field(z.string().max(20000).nullable(), { default: null }),
    from: field(unixTime.nullable(), {
      description: "Maintenance kind only (required there): window start.",
    }),
    to: field(unixTime.nullable(), {
      description: "Maintenance kind only (required there): window end, after from.",
    }),
    timeline: field(list(statusPageTimelineEntrySchema), {
      readOnly: true,
      description: "Oldest first; the create's message is the first entry.",
    }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export const statusPageIncidentCreateBody = bodySchema(statusPageIncidentSchema, "create").required({
  title: true,
  message: true,
});
/** An incident's state moves only through its timeline, so PATCH does not take it. */
export const statusPageIncidentPatchBody = bodySchema(statusPageIncidentSchema, "update").omit({
  state: true,
});

/** Templates have no PATCH: every member the config sets is immutable, so any change replaces the template. */
export const statusPageTemplateSchema = z
  .strictObject({
    id: readOnlyId,
    pageId: field(guid, {
      references: "statusPage",
      immutable: true,
      description: "The page it belongs to.",
    }),
    title: field(z.string().min(1).max(255), { immutable: true }),
    message: field(z.string().min(1).max(5000), { immutable: true }),
    impact: field(z.enum(["minor", "major"]), {
      default: "minor",
      immutable: true,
      description: "Default impact of the incidents declared from it.",
    }),
    created: createdAt,
  })
  .partial();

/** `POST /statuspage/{id}/template`: the page is the route's, so the body has no `pageId`. */
export const statusPageTemplateCreateBody = bodySchema(statusPageTemplateSchema, "create")
  .omit({ pageId: true })
  .required({ title: true, message: true });

export const statusPageSubscriberSchema = z
  .strictObject({
    id: readOnlyId,
    pageId: field(z.string(), { readOnly: true, description: "The page it belongs to." }),
    kind: field(
      z.enum(["slack", "teams", "webhook", "email"]).refine((k) => k !== "email", {
        message: "email subscribers join only through the public page's double opt-in",
        params: { reason: "double_opt_in_only", allowed: ["slack", "teams", "webhook"] },
      }),
      {
        immutable: true,
        description: "slack, teams or webhook through the API; email joins only via the public page.",
      },
    ),
    url: field(httpsUrl, { immutable: true }),
    created: createdAt,
  })
  .partial();

export const statusPageSubscriberCreateBody = bodySchema(statusPageSubscriberSchema, "create").required({
  kind: true,
  url: true,
});

/** What `DELETE /statuspage/{id}` answers: the page and every child removed with it. */
export const statusPageDeleteReceipt = z.looseObject({
  id: z.string(),
  deleted: z.literal(true),
  slug: z.string(),
  cascaded: z.looseObject({
    components: z.array(z.string()),
    incidents: z.array(z.string()),
    subscribers: z.array(z.string()),
    templates: z.array(z.string()),
  }),
});

export const statusPageKind = defineKind({
  name: "statusPage",
  title: "Status page",
  schema: statusPageSchema,
  naturalKey: ["slug"],
  rules: {
    quotas: [{ feature: "statusPages", usage: "statusPages", counts: () => true, describe: "status pages" }],
    duplicate: "duplicate_resource",
  },
  required: ["slug", "title"],
  side: { members: ["components"], body: statusPageComponentsBody },
  paths: { collection: "/statuspage", item: "/statuspage/{id}" },
  list: { sort: ["created", "title", "slug"], defaultSort: "created", filters: [] },
});

/** A page's saved incident text: listed per page (no account-wide list), never patched, deleted with its page. */
export const statusPageTemplateKind = defineKind({
  name: "statusPageTemplate",
  title: "Status page template",
  schema: statusPageTemplateSchema,
  naturalKey: ["pageId", "title"],
  required: ["pageId", "title", "message"],
  relations: {
    parent: { kind: "statusPage", member: "pageId", nestedAs: "templates" },
    cascadedAs: "templates",
  },
  paths: { collection: "/statuspage/{id}/template", item: "/statuspage/{id}/template/{templateId}" },
  list: { sort: ["created"], defaultSort: "created", filters: [] },
});
