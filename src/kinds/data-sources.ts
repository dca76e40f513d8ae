/**
 * What the data sources answer: the shapes of GET /monitor/type, GET /agent/pool and GET /account as the
 * Terraform data sources and the Pulumi functions present them (one result object each), with descriptions.
 * Neutral ground for every frontend: the Terraform schema, the Pulumi schema and the provider's Invoke.
 */
import { z } from "zod";
import { field, list } from "./field.ts";

const d = (schema: z.ZodType, description: string) => field(schema, { description });

/** A row of `GET /monitor/type` (src/sandbox/resources/catalogue/monitor-type-rows.ts). */
export const monitorTypeRow = z.object({
  type: d(z.string(), "Type name, as `type` takes it."),
  label: d(z.string(), "What the type checks."),
  discontinued: d(z.boolean(), "No longer creatable."),
  replacedBy: d(z.string().nullable(), "Discontinued types: the type that replaces it, if any."),
  minInterval: d(z.number(), "Lowest interval in seconds."),
  fixedInterval: d(z.number().nullable(), "Fixed cadence in seconds (the interval is ignored), or null."),
  requiresPool: d(z.boolean(), "Checks run from location pools."),
  locations: d(z.enum(["required", "refused", "none"]), "Whether the type takes locations."),
  fleet: d(z.string().nullable(), "Which fleet runs its checks: net, waterfall, or null without locations."),
  url: d(z.string(), "How `url` is used: http, httpOrDomain, host, hostPort, hostOrUrl or none."),
  attached: d(list(z.string()), "Attached sub-checks the type can carry."),
  recheck: d(z.boolean(), "Whether recheck has an effect."),
  cron: d(z.boolean(), "Whether a cron schedule may replace the interval."),
  feature: d(z.string().nullable(), "Plan feature that gates the type, or null."),
  aliases: d(list(z.string()), "Other names `type` accepts for it."),
  accountLimits: d(
    z.object({
      minInterval: d(z.number(), "Lowest interval the account's plan allows for the type."),
      available: d(z.boolean(), "Whether the plan includes the type."),
      cron: d(z.boolean(), "Whether the plan allows cron schedules for the type."),
    }),
    "The account's view of the type.",
  ),
});

/** `GET /agent/pool`: pool rows and the summary. */
export const agentPoolsResult = z.object({
  pools: d(
    list(
      z.object({
        id: d(z.string(), "Pool id, as locations.pools takes it."),
        name: d(z.string(), "Display name."),
        agents: d(
          z.object({
            net: d(z.number(), "Live locations for ordinary checks."),
            waterfall: d(z.number(), "Live locations for browser checks."),
          }),
          "Live locations per fleet.",
        ),
        children: d(list(z.string()), "Pools inside this one."),
        parents: d(list(z.string()), "Pools this one is inside."),
        hidden: d(z.boolean(), "Not offered in the application's picker."),
        priority: d(z.number(), "Ordering weight."),
      }),
    ),
    "Every location pool.",
  ),
  minAgents: d(z.number(), "Live locations a pool selection must reach."),
  minIntervals: d(z.record(z.string(), z.number()), "Lowest interval per location-based type."),
  defaults: d(list(z.string()), "The account's default pools."),
});

const usage = z.object({
  used: d(z.number(), "In use."),
  allowed: d(z.number().nullable(), "Allowed; null = no limit."),
});

/** `GET /account` (src/sandbox/resources/accounts.ts renderAccount). */
export const accountResult = z.object({
  id: d(z.string(), "Account id."),
  login: d(z.string(), "Login email."),
  name: d(z.string(), "Account name."),
  company: d(z.string().nullable(), "Company."),
  phone: d(z.string().nullable(), "Phone."),
  country: d(z.string().nullable(), "ISO 3166 alpha-2 country code."),
  timezone: d(z.string(), "IANA time zone name."),
  language: d(z.string(), "Language tag."),
  defaultAgentPools: d(list(z.string()), "Pools used when a monitor names none."),
  flags: d(
    z.object({
      enabled: d(z.boolean(), "The account is enabled."),
      active: d(z.boolean(), "The account is active."),
      overlimited: d(z.boolean(), "Usage is over a plan limit."),
      apiEnabled: d(z.boolean(), "The API is enabled."),
    }),
    "Account flags.",
  ),
  plan: d(z.string(), "The plan (package.name)."),
  features: d(
    z.record(z.string(), z.string()),
    'The plan\'s features (package.features), each value as JSON text: true, 50, ["daily"].',
  ),
  usage: d(z.record(z.string(), usage), "Usage per plan-controlled area."),
  limits: d(
    z.object({
      intervals: d(list(z.number()), "Intervals a monitor may use, in seconds."),
      maxBulkItems: d(z.number(), "Items per bulk request."),
      maxInlineContacts: d(z.number(), "Inline contacts per monitor create."),
    }),
    "Plan limits.",
  ),
  overlimits: d(
    list(
      z.object({
        area: d(z.string(), "Area over its limit."),
        used: d(z.number(), "In use."),
        allowed: d(z.number(), "Allowed."),
        disabled: d(list(z.string()), "Ids disabled for lack of room."),
      }),
    ),
    "Areas over their plan limit.",
  ),
});

/** `GET /monitor/type`: every row, as one result. */
export const monitorTypesResult = z.object({
  types: d(list(monitorTypeRow), "Every monitor type; discontinued types last."),
});

/**
 * The catalogue and account reads, by the engine's catalogue name, that every frontend offers as a data
 * source (Terraform) or a function (Pulumi): what each answers, and what it is.
 */
export const catalogueResults = {
  monitorTypes: {
    result: monitorTypesResult,
    description: "The monitor type catalogue (GET /monitor/type).",
  },
  agentPools: {
    result: agentPoolsResult,
    description: "Location pools with live location counts (GET /agent/pool).",
  },
  account: { result: accountResult, description: "The account the token belongs to (GET /account)." },
} as const satisfies Record<string, { result: z.ZodObject; description: string }>;
