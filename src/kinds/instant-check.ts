import { z } from "zod";
import { checkMetrics } from "./checks.ts";
import { createdAt, readOnlyId, unixTime } from "./common.ts";
import { checkError, checkLocation } from "./events.ts";
import { bodySchema, field } from "./field.ts";
import { defineKind } from "./kind.ts";
import { locations } from "./monitor/index.ts";
import { monitorTypeNames, monitorTypes } from "./monitor/types.ts";

/**
 * Instant checks: one-off checks run outside any schedule (`POST /check`).
 * The spec leaves their shapes open; docs/sandbox-instant-checks.md explains
 * the choices made here.
 */

/** An instant check runs once from the fleet, so only location-based types can be one (`GET /check/type`). */
export const instantCheckTypes = monitorTypeNames.filter(
  (type) => monitorTypes[type].locations === "required",
);
export type InstantCheckType = (typeof instantCheckTypes)[number];

export const instantCheckStates = ["queued", "running", "finished"] as const;
export type InstantCheckState = (typeof instantCheckStates)[number];

const count = z.number().int().min(0);

/** What one location found. */
export const instantCheckResult = z.looseObject({
  location: checkLocation,
  state: z.enum(["up", "down"]),
  time: field(unixTime, { description: "When the location checked." }),
  durationMs: z.number().int().min(0),
  error: checkError.nullable(),
  metrics: field(checkMetrics, { description: "Milliseconds per phase; 0 for phases the type has not." }),
});

export const instantCheckSchema = z
  .strictObject({
    id: readOnlyId,
    dbId: field(z.string(), {
      readOnly: true,
      description: "The storage shard holding the check; with id, its address /check/{dbId}/{id}.",
    }),
    type: field(z.enum(instantCheckTypes), { description: "One of GET /check/type." }),
    url: field(z.string().min(1).max(2048), {
      description: "Target in the type's form, by the rules of a monitor's url.",
    }),
    effectiveUrl: field(z.string(), {
      readOnly: true,
      description: "The normalised address the check used, when it differs from url.",
    }),
    locations: field(locations.pick({ pools: true }), {
      description:
        "Pools to check from (GET /agent/pool); default: the account's defaultAgentPools. Every live location they reach for the type's fleet checks once.",
    }),
    settings: field(z.record(z.string(), z.unknown()), {
      description:
        "The type's monitor settings (GET /monitor/type/{type}), by the same rules; attached and preset are refused. Credentials read back as {set: true, updatedAt}.",
    }),
    state: field(z.enum(instantCheckStates), { readOnly: true }),
    created: createdAt,
    startedAt: field(unixTime.nullable(), { readOnly: true, description: "When the locations started." }),
    finishedAt: field(unixTime.nullable(), { readOnly: true, description: "When every location answered." }),
    expiresAt: field(unixTime, {
      readOnly: true,
      description: "created + 7 days; the check then answers 404.",
    }),
    summary: field(z.strictObject({ total: count, up: count, down: count }), {
      readOnly: true,
      description: "Locations checking (total) and results so far by state.",
    }),
    results: field(z.array(instantCheckResult), {
      readOnly: true,
      description: "One row per location once finished; lists include them with expand=results.",
    }),
  })
  .partial();

/** The body of `POST /check`: the writable members, `type` and `url` required. */
export const instantCheckBody = bodySchema(instantCheckSchema, "create").required({ type: true, url: true });
export type InstantCheckBody = {
  type: InstantCheckType;
  url: string;
  locations?: { pools?: string[] };
  settings?: Record<string, unknown>;
};

export const instantCheckKind = defineKind({
  name: "instantCheck",
  title: "Instant check",
  schema: instantCheckSchema,
  naturalKey: [],
  paths: { collection: "/check", item: "/check/{dbId}/{id}" },
  list: { sort: ["created"], defaultSort: "created", filters: ["type", "state"] },
});
