import { monitorTypeNames, monitorTypes } from "../../../kinds/index.ts";
import { agentsFor, minLiveAgents, pools } from "../../core/fleet.ts";
import { defineOperations } from "../../core/operation.ts";
import { anonymous, callerAccount } from "./anonymous.ts";

/** Lowest interval of each location-based type: what a pool selection can be checked at. */
function minIntervals(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const type of monitorTypeNames) {
    if (monitorTypes[type].locations === "required") out[type] = monitorTypes[type].minInterval;
  }
  return out;
}

export const poolOperations = defineOperations({
  ...anonymous,
  id: "agent.pools",
  method: "GET",
  path: "/agent/pool",
  summary:
    "Location pools with live location counts per fleet; a token adds the account's defaults and presets.",
  errors: ["unknown_parameter", "invalid_token", "rate_limited"],
  response: { status: 200, description: "{data: [pool rows], summary}." },
  handle: (ctx) => {
    // Counts are live locations: those are what the 7-location rule counts.
    const data = pools.map((p) => ({
      id: p.id,
      name: p.name,
      agents: { net: agentsFor([p.id], "net").length, waterfall: agentsFor([p.id], "waterfall").length },
      children: [...p.children],
      parents: [...p.parents],
      hidden: p.hidden,
      priority: p.priority,
    }));
    const summary: Record<string, unknown> = { minAgents: minLiveAgents, minIntervals: minIntervals() };
    const account = callerAccount(ctx);
    if (account) {
      summary.defaults = [...account.defaultAgentPools];
      // Presets are saved in the application; the API reads them but has no route to write them.
      summary.presets = [];
    }
    return { status: 200, body: { data, summary } };
  },
});
