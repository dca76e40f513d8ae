import { type Agent, agents, poolIds } from "../../core/fleet.ts";
import { listOperations } from "../../core/list.ts";
import type { Operation } from "../../core/operation.ts";

const fleets = ["net", "waterfall"] as const;

/** `allworld` reaches every location; a regional pool its own. */
const inPools = (agent: Agent, selection: string[]) =>
  selection.includes("allworld") || selection.includes(agent.pool);

const poolFilter = {
  param: { type: "enum", values: poolIds, list: true, description: "Pool ids (any of)." },
  match: (agent: Agent, selection: string[]) => inPools(agent, selection),
} as const;

const render = (a: Agent) => ({
  id: a.id,
  country: a.country,
  region: a.region,
  city: a.city,
  pool: a.pool,
  ip: a.ip,
  live: a.live,
  fleets: [...a.fleets],
});

/** Check locations (`GET /agent`), paged, with an anonymous `POST /agent/q` twin. */
export const agentOperations: Operation[] = listOperations<Agent>({
  id: "agent.list",
  path: "/agent",
  summary: "Check locations: country, region, city, pool, address and whether they are live.",
  rowsOf: { title: "check locations {id, country, region, city, pool, ip, live, fleets}" },
  scope: null,
  rows: () => [...agents],
  rowId: (a) => a.id,
  filters: {
    pool: poolFilter,
    country: {
      param: { type: "string", list: true, description: "ISO 3166 country codes (any of)." },
      match: (a: Agent, countries: string[]) => countries.some((c) => c.toUpperCase() === a.country),
    },
    fleet: {
      param: { type: "enum", values: fleets, list: true, description: "net or waterfall (any of)." },
      match: (a: Agent, wanted: string[]) => a.fleets.some((f) => wanted.includes(f)),
    },
    live: {
      param: { type: "bool", description: "Only live (true) or offline (false) locations." },
      match: (a: Agent, live: boolean) => a.live === live,
    },
  },
  sort: {
    columns: {
      pool: { key: (a) => a.pool },
      country: { key: (a) => a.country },
      city: { key: (a) => a.city },
    },
    default: "pool",
  },
  expand: ["count"],
  fields: Object.keys(render(agents[0]!)),
  render: (_ctx, a) => render(a),
  errors: ["invalid_token", "rate_limited"],
}).map((op) => ({ ...op, metering: "catalogue" as const }));

/**
 * Addresses checks originate from (`GET /agent/ip`), for allow-listing.
 * Offline locations are listed too: they come back with the same address.
 */
export const agentIpOperations: Operation[] = listOperations<Agent>({
  id: "agent.ips",
  path: "/agent/ip",
  summary: "Addresses checks originate from. Own throttle: 60 per 5 minutes, with ratelimit-* headers.",
  rowsOf: { title: "check addresses {ip, version, agentId, pool, country, city, live}" },
  scope: null,
  rows: () => [...agents],
  rowId: (a) => a.ip,
  filters: { pool: poolFilter },
  expand: ["count"],
  render: (_ctx, a) => ({
    ip: a.ip,
    version: a.ip.includes(":") ? 6 : 4,
    agentId: a.id,
    pool: a.pool,
    country: a.country,
    city: a.city,
    live: a.live,
  }),
  errors: ["invalid_token", "rate_limited"],
}).map((op) => ({ ...op, metering: "agentIp" as const }));
