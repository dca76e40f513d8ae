import { z } from "zod";
import { createdAt, guid, readOnlyId, unixTime, updatedAt } from "../common.ts";
import { contactSchema } from "../contact.ts";
import { field, set } from "../field.ts";
import { defineKind } from "../kind.ts";
import { monitorRules } from "./account-rules.ts";
import { settingsRuleRefusals } from "./rules.ts";
import { settingsByType } from "./settings.ts";
import { attached } from "./settings-fields.ts";
import { membersRequiredBy } from "./type-rules.ts";
import {
  discontinuedMonitorTypes,
  type MonitorType,
  monitorTypeAliases,
  monitorTypes,
  monitorTypeVocabulary,
} from "./types.ts";

export * from "./account-rules.ts";
export * from "./address.ts";
export * from "./assertions.ts";
export * from "./rules.ts";
export * from "./settings.ts";
export * from "./settings-fields.ts";
export * from "./type-rules.ts";
export * from "./types.ts";

export const monitorStates = ["up", "down", "paused", "maintenance"] as const;
export const alertTypes = ["down", "up", "repeatedlyDown"] as const;
export const reportFrequencies = ["daily", "weekly", "monthly", "quarterly", "yearly"] as const;
export const inlineContactTypes = ["email", "sms", "voiceCall", "http"] as const;

/** `type` as a configuration or a request writes it: the monitor type vocabulary (canonical names and aliases). */
export const monitorTypeInput = z.enum(monitorTypeVocabulary);

/** An inline contact: the contact kind's own members and rules, with a `ref` and the types creatable inline. */
export const inlineContact = contactSchema
  .pick({ type: true, address: true, name: true, language: true, alertDelay: true })
  .required({ type: true, address: true })
  .extend({
    type: contactSchema.shape.type.unwrap().extract(inlineContactTypes),
    ref: z.string().min(1).max(64),
    gateway: z.string().max(64).optional(),
  });

const subscriptionTargets = {
  contactIds: z.array(guid).optional(),
  contactRefs: z.array(z.string().min(1)).optional(),
};

/** A tag: refused when blank with its own reason (a bare pattern check would report `invalid_format`). */
const tag = z
  .string()
  .max(64)
  .refine((v) => /\S/.test(v), { message: "must not be blank", params: { reason: "blank" } });

export const locations = z.strictObject({
  pools: field(set(z.string().min(1)).min(1), {
    description: "Pool ids from `GET /agent/pool`, matched case-insensitively; `allworld` = everywhere.",
  }).optional(),
  fallback: field(z.enum(["geo", "world", "starve"]).nullable(), {
    default: "starve",
    description: "When no chosen location is available: geo, world, or starve (wait and retry).",
  }).optional(),
  excludedAgents: field(set(guid), {
    default: [],
    description: "Location ids kept out even inside a chosen pool.",
  }).optional(),
});

export const recheck = z.strictObject({
  strategy: field(z.enum(["", "noRecheck", "fullAgreement", "downFullAgreement", "minNumDown"]), {
    default: "",
    description: "How a failure is confirmed; empty = majority vote.",
  }).optional(),
  minNumDown: field(z.number().int().min(1).max(10).nullable(), {
    description: "With minNumDown: how many locations must fail; null clears it.",
  }).optional(),
});

/** The monitor as written and read. `settings` is checked per type (see `settingsByType`). */
export const monitorSchema = z
  .strictObject({
    id: readOnlyId,
    type: field(monitorTypeInput, {
      immutable: true,
      description: "Monitor type; cannot change (422 type_immutable).",
    }),
    url: field(z.string().min(1).max(2048), { description: "Target; its form depends on the type." }),
    name: field(z.string().max(255).nullable(), {
      defaultFrom: "url",
      description: "Label in alerts, reports and status pages; absent or null follows the address.",
    }),
    interval: field(z.number().int(), {
      default: 180,
      description: "Seconds; one of the account's limits.intervals.",
    }),
    cronSchedule: field(z.string().max(255).nullable(), {
      description: "5-field cron expression (UTC) replacing interval.",
    }),
    enabled: field(z.boolean(), { default: true, description: "false pauses: no checks, no alerts." }),
    tags: set(tag, { default: [], description: "Replaces the whole set." }),
    addTags: set(tag, {
      updateOnly: true,
      description: "Adds to the tag set; never with tags.",
    }),
    removeTags: set(tag, {
      updateOnly: true,
      description: "Removes from the tag set; never with tags.",
    }),
    locations: field(locations, { description: "Where checks run; location-based types only." }),
    recheck: field(recheck, { description: "How a failure is confirmed." }),
    attached: field(attached, {
      inputOnly: true,
      description: "Alias of settings.attached: write one of the two, never both.",
    }),
    openStat: field(z.boolean(), { default: false, description: "Public statistics page and uptime badge." }),
    fullLog: field(z.boolean(), {
      default: false,
      description: "Plan feature: finer grouping of identical results.",
    }),
    slaTarget: field(z.number().min(0).max(100).nullable(), {
      description: "Uptime percent summaries measure against.",
    }),
    onOverlimit: field(z.enum(["fail", "disable"]), {
      inputOnly: true,
      default: "fail",
      description: "disable creates the monitor disabled when the plan has no room.",
    }),
    contacts: field(z.array(inlineContact), {
      createOnly: true,
      description: "Creates or binds contacts inline.",
    }),
    alertSubscriptions: field(
      z.array(z.strictObject({ ...subscriptionTargets, alertTypes: set(z.enum(alertTypes)).min(1) })),
      { createOnly: true, description: "Without this, an API-created monitor alerts nobody." },
    ),
    reportSubscriptions: field(
      z.array(z.strictObject({ ...subscriptionTargets, frequency: z.enum(reportFrequencies) })),
      { createOnly: true, description: "Report subscriptions of email contacts." },
    ),
    settings: field(z.record(z.string(), z.unknown()), {
      description: "Per type; on update, members merge into the stored settings.",
    }),
    state: field(z.enum(monitorStates), { readOnly: true, changesWith: ["enabled"] }),
    since: field(unixTime, {
      readOnly: true,
      changesWith: ["enabled"],
      description: "Start of the current state.",
    }),
    effectiveUrl: field(z.string(), {
      readOnly: true,
      changesWith: ["url"],
      description: "The normalised address checks use, when it differs from url.",
    }),
    expirationDate: field(unixTime.nullable(), {
      readOnly: true,
      changesWith: ["url"],
      description: "sslExp and domainExp.",
    }),
    certNotBefore: field(unixTime.nullable(), {
      readOnly: true,
      changesWith: ["url"],
      description: "sslExp.",
    }),
    overlimited: field(z.boolean(), {
      readOnly: true,
      changesWith: ["enabled"],
      description: "The plan's monitor limit paused it; read back only when true.",
    }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export type MonitorBody = z.infer<typeof monitorSchema>;

export const monitorKind = defineKind({
  name: "monitor",
  title: "Monitor",
  schema: monitorSchema,
  naturalKey: ["type", "url"],
  required: ["type"],
  rules: monitorRules,
  variants: {
    discriminator: "type",
    member: "settings",
    schemas: settingsByType,
    aliases: monitorTypeAliases,
    label: (type) => monitorTypes[type as MonitorType].label,
    description:
      "Settings of the monitor's type; each member names the types that take it. On update, members merge into the stored settings.",
    discontinued: { values: discontinuedMonitorTypes, code: "monitor_type_discontinued" },
    requires: membersRequiredBy,
    rules: settingsRuleRefusals,
  },
  paths: { collection: "/monitor", item: "/monitor/{id}" },
  list: {
    sort: ["name", "state", "type", "interval", "lastChange", "url", "created", "tags"],
    defaultSort: "created",
    filters: ["q", "type", "tag", "state", "enabled", "url"],
    deltaSync: "creation, up/down changes and plan-limit disabling",
  },
});
