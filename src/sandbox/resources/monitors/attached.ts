import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { monitorTypeNames, monitorTypes } from "../../../kinds/index.ts";
import { type Ctx, defineOperations } from "../../core/operation.ts";
import { ApiProblem } from "../../core/problem.ts";
import { attachedToggles, type MonitorDoc, monitorTable, ownedMonitor } from "./model.ts";

/**
 * Attached sub-checks: their current result per kind, and muting dnsbl
 * listings. No sub-check has run in the sandbox until simulated checks
 * report one, so results start empty (`state: null`).
 */

const muteBody = z.strictObject({
  listings: z.array(z.string().min(1).max(255)).min(1).max(100),
  muted: z.boolean(),
});

/** Types that carry an attached dnsbl check, from the type catalogue. */
const dnsblCarriers = monitorTypeNames.filter((t) => monitorTypes[t].attached.includes("dnsbl"));

function renderAttached(m: MonitorDoc) {
  return {
    monitorId: m.id,
    data: attachedToggles(m).map(({ kind, enabled }) => ({
      kind,
      enabled,
      state: null,
      checkedAt: null,
      ...(kind === "dnsbl" && { listings: [], mutedListings: m.mutedListings ?? [] }),
    })),
  };
}

export const attachedOperations = defineOperations(
  {
    id: "monitor.attached.get",
    method: "GET",
    path: "/monitor/{id}/attached",
    summary: "Current result of each attached sub-check the monitor's type can carry.",
    scope: "monitor:read",
    errors: ["not_found"],
    response: {
      status: 200,
      description:
        "{monitorId, data: [{kind, enabled, state, checkedAt}]}; the dnsbl row adds listings and mutedListings.",
    },
    handle: (ctx: Ctx, req) => ({ status: 200, body: renderAttached(ownedMonitor(ctx, req.params.id!)) }),
  },
  {
    id: "monitor.attached.dnsbl.mute",
    method: "POST",
    path: "/monitor/{id}/attached/dnsbl/mute",
    summary: "Mute or unmute blacklist listings of the attached dnsbl check.",
    scope: "monitor:write",
    body: muteBody,
    errors: ["not_found", "validation_failed"],
    response: {
      status: 200,
      description: "The attached results as GET /monitor/{id}/attached answers them.",
    },
    handle: (ctx: Ctx, req) => {
      const monitor = ownedMonitor(ctx, req.params.id!);
      if (!monitorTypes[monitor.type].attached.includes("dnsbl")) {
        throw new ApiProblem("validation_failed", `${monitor.type} monitors carry no attached dnsbl check.`, {
          errors: [{ pointer: "", reason: "not_allowed", allowed: dnsblCarriers }],
        });
      }
      const { listings, muted } = req.body as z.infer<typeof muteBody>;
      const current = new Set(monitor.mutedListings ?? []);
      for (const listing of listings) {
        if (muted) current.add(listing);
        else current.delete(listing);
      }
      const mutedListings = [...current].sort();
      // A mute that changes nothing leaves the monitor (and `updated`) as it was.
      if (isDeepStrictEqual(mutedListings, monitor.mutedListings ?? []))
        return { status: 200, body: renderAttached(monitor) };
      const updated = ctx.store.put<MonitorDoc>(monitorTable, {
        ...monitor,
        mutedListings,
        updated: ctx.now,
      });
      return { status: 200, body: renderAttached(updated) };
    },
  },
);
