import { createHash } from "node:crypto";
import { closest, type ProblemDetailEntry } from "../../kinds/index.ts";
import { ApiProblem } from "./problem.ts";

/**
 * The sandbox's fixed fleet of check locations. Regions are sized so tests
 * can reach both sides of the 7-live-location rule: `africa` alone (3) is too
 * few, `africa` + `australia` (3 + 4) is just enough.
 */
export interface Agent {
  id: string;
  pool: string;
  country: string;
  region: string;
  city: string;
  ip: string;
  live: boolean;
  /** Fleets this location serves: `net` for ordinary checks, `waterfall` for browser checks. */
  fleets: Array<"net" | "waterfall">;
}

export interface Pool {
  id: string;
  name: string;
  children: string[];
  parents: string[];
  hidden: boolean;
  priority: number;
}

export const minLiveAgents = 7;

const regions: Array<[string, string, number, Array<[string, string]>]> = [
  [
    "westeurope",
    "West Europe",
    1,
    [
      ["DE", "Frankfurt"],
      ["NL", "Amsterdam"],
      ["GB", "London"],
      ["FR", "Paris"],
      ["ES", "Madrid"],
      ["IE", "Dublin"],
      ["BE", "Brussels"],
      ["CH", "Zurich"],
      ["IT", "Milan"],
      ["PT", "Lisbon"],
    ],
  ],
  [
    "easteurope",
    "East Europe",
    2,
    [
      ["PL", "Warsaw"],
      ["CZ", "Prague"],
      ["RO", "Bucharest"],
      ["HU", "Budapest"],
      ["FI", "Helsinki"],
      ["BG", "Sofia"],
    ],
  ],
  [
    "northamerica",
    "North America",
    1,
    [
      ["US", "New York"],
      ["US", "Ashburn"],
      ["US", "Chicago"],
      ["US", "Dallas"],
      ["US", "Denver"],
      ["US", "Los Angeles"],
      ["US", "Seattle"],
      ["US", "Miami"],
      ["US", "Atlanta"],
      ["CA", "Toronto"],
      ["CA", "Montreal"],
      ["CA", "Vancouver"],
    ],
  ],
  [
    "southamerica",
    "South America",
    3,
    [
      ["BR", "Sao Paulo"],
      ["AR", "Buenos Aires"],
      ["CL", "Santiago"],
      ["CO", "Bogota"],
      ["PE", "Lima"],
    ],
  ],
  [
    "asia",
    "Asia",
    2,
    [
      ["JP", "Tokyo"],
      ["SG", "Singapore"],
      ["IN", "Mumbai"],
      ["HK", "Hong Kong"],
      ["KR", "Seoul"],
      ["IN", "Bangalore"],
      ["TW", "Taipei"],
      ["ID", "Jakarta"],
    ],
  ],
  [
    "australia",
    "Australia",
    3,
    [
      ["AU", "Sydney"],
      ["AU", "Melbourne"],
      ["AU", "Perth"],
      ["NZ", "Auckland"],
    ],
  ],
  [
    "africa",
    "Africa",
    4,
    [
      ["ZA", "Johannesburg"],
      ["ZA", "Cape Town"],
      ["NG", "Lagos"],
    ],
  ],
];

function stableGuid(seed: string): string {
  const h = createHash("sha1").update(seed).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const agents: Agent[] = regions.flatMap(([pool, , , cities], r) =>
  cities.map(([country, city], i) => ({
    id: stableGuid(`agent:${pool}:${city}`),
    pool,
    country,
    region: pool,
    city,
    ip: `198.51.${100 + r}.${10 + i}`,
    // One West Europe location is down for maintenance, so live counts differ from totals.
    live: !(pool === "westeurope" && i === 9),
    fleets: i % 2 === 0 ? ["net", "waterfall"] : ["net"],
  })),
);

export const pools: Pool[] = [
  {
    id: "allworld",
    name: "All locations",
    children: regions.map(([id]) => id),
    parents: [],
    hidden: false,
    priority: 0,
  },
  ...regions.map(([id, name, priority]) => ({
    id,
    name,
    children: [],
    parents: ["allworld"],
    hidden: false,
    priority,
  })),
];

export const poolIds = pools.map((p) => p.id);

/** Live agents reached by a pool selection for a fleet, less excluded ones. */
export function agentsFor(
  poolSelection: readonly string[],
  fleet: "net" | "waterfall",
  excluded: readonly string[] = [],
) {
  const chosen = new Set(poolSelection.map((p) => p.toLowerCase()));
  const all = chosen.has("allworld");
  return agents.filter(
    (a) => a.live && a.fleets.includes(fleet) && (all || chosen.has(a.pool)) && !excluded.includes(a.id),
  );
}

/**
 * Checks a pool selection sent at `pointer` (monitor locations, account
 * defaults): matching is case-insensitive, so pools are stored lower case,
 * once each. Unknown ids answer 422 `unknown_pool`, every one at once.
 */
export function resolvePools(selection: readonly string[], pointer: string): string[] {
  const unknown: ProblemDetailEntry[] = [];
  selection.forEach((p, i) => {
    if (poolIds.includes(p.toLowerCase())) return;
    const entry: ProblemDetailEntry = {
      pointer: `${pointer}/${i}`,
      value: p,
      reason: "unknown",
      allowed: poolIds,
    };
    const hint = closest(p, poolIds);
    if (hint) entry.didYouMean = hint;
    unknown.push(entry);
  });
  if (unknown.length > 0) throw new ApiProblem("unknown_pool", "Unknown location pool.", { errors: unknown });
  return [...new Set(selection.map((p) => p.toLowerCase()))];
}
