import { z } from "zod";
import { createdAt, guid, readOnlyId, unixTime, updatedAt } from "./common.ts";
import { field, set } from "./field.ts";
import { defineKind } from "./kind.ts";

export const maintenanceSchema = z
  .strictObject({
    id: readOnlyId,
    name: field(z.string().min(1).max(255), {}),
    from: field(unixTime, { description: "Start, Unix seconds." }),
    to: field(unixTime, { description: "End, Unix seconds; after from." }),
    monitorIds: field(set(guid), {
      default: [],
      description: "Covered monitors; a new list replaces coverage.",
    }),
    repeat: field(z.enum(["none", "weekly"]), {
      default: "none",
      description: "weekly recurs every 7 days from `from`.",
    }),
    suppressAlerts: field(z.boolean(), { default: true, description: "Hold back alerts while active." }),
    excludeFromStats: field(z.boolean(), { default: true, description: "Keep the time out of statistics." }),
    showOnStatusPage: field(z.boolean(), { default: false }),
    state: field(z.enum(["scheduled", "active", "finished"]), { readOnly: true }),
    created: createdAt,
    updated: updatedAt,
  })
  .partial();

export const maintenanceKind = defineKind({
  name: "maintenance",
  title: "Maintenance window",
  schema: maintenanceSchema,
  naturalKey: ["name"],
  paths: { collection: "/maintenance", item: "/maintenance/{id}" },
  list: {
    sort: ["from", "created"],
    defaultSort: "from",
    filters: ["state", "monitor"],
    deltaSync: "every edit",
  },
});
