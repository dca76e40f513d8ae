import { z } from "zod";
import { windowRefusals } from "./account-rules.ts";
import { createdAt, monitorRef, readOnlyId, unixTime, updatedAt } from "./common.ts";
import { field, set } from "./field.ts";
import { defineKind } from "./kind.ts";

export const maintenanceSchema = z
  .strictObject({
    id: readOnlyId,
    name: field(z.string().min(1).max(255), {}),
    from: field(unixTime, { description: "Start, Unix seconds." }),
    to: field(unixTime, { description: "End, Unix seconds; after from." }),
    monitorIds: field(set(monitorRef).max(500), {
      default: [],
      description: "Covered monitors of the account (up to 500); a new list replaces coverage.",
    }),
    repeat: field(z.enum(["none", "weekly"]), {
      default: "none",
      description: "weekly recurs every 7 days from `from` (an occurrence may last at most 7 days).",
    }),
    suppressAlerts: field(z.boolean(), { default: true, description: "Hold back alerts while active." }),
    excludeFromStats: field(z.boolean(), { default: true, description: "Keep the time out of statistics." }),
    showOnStatusPage: field(z.boolean(), { default: false }),
    state: field(z.enum(["scheduled", "active", "finished"]), {
      readOnly: true,
      description: "By the clock: before, inside or after the occurrence shown in `occurrence`.",
    }),
    occurrence: field(z.object({ from: unixTime, to: unixTime }), {
      readOnly: true,
      description: "The occurrence active now, else the next one; the last one once finished.",
    }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export const maintenanceKind = defineKind({
  name: "maintenance",
  title: "Maintenance window",
  schema: maintenanceSchema,
  naturalKey: ["name"],
  rules: { offline: [windowRefusals] },
  required: ["name", "from", "to"],
  paths: { collection: "/maintenance", item: "/maintenance/{id}" },
  list: {
    sort: ["from", "created"],
    defaultSort: "from",
    filters: ["state", "monitor"],
    deltaSync: "every edit",
  },
});
