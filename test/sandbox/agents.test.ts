import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const anon = { token: null } as const;
const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("GET /agent", () => {
  it("pages the fleet anonymously", async () => {
    const res = await sb.client.get("/agent", anon);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(48);
    expect(res.body).toMatchObject({ hasMore: false, nextCursor: null });
    const frankfurt = res.body.data.find((a: { city: string }) => a.city === "Frankfurt");
    expect(frankfurt).toEqual({
      id: expect.stringMatching(guid),
      country: "DE",
      region: "westeurope",
      city: "Frankfurt",
      pool: "westeurope",
      ip: expect.stringMatching(/^198\.51\.\d+\.\d+$/),
      live: true,
      fleets: ["net", "waterfall"],
    });
    // Default sort: pool A to Z.
    const poolsInOrder = res.body.data.map((a: { pool: string }) => a.pool);
    expect(poolsInOrder).toEqual([...poolsInOrder].sort());
  });

  it("pages with limit and cursor, and the cursor is bound to its query", async () => {
    const first = await sb.client.get("/agent?limit=20&sort=city", anon);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await sb.client.get(`/agent?limit=20&sort=city&cursor=${first.body.nextCursor}`, anon);
    const third = await sb.client.get(`/agent?limit=20&sort=city&cursor=${second.body.nextCursor}`, anon);
    expect(third.body).toMatchObject({ hasMore: false, nextCursor: null });
    const cities = [...first.body.data, ...second.body.data, ...third.body.data].map(
      (a: { city: string }) => a.city,
    );
    expect(cities).toHaveLength(48);
    expect(cities).toEqual([...cities].sort((a, b) => a.localeCompare(b)));

    const foreign = await sb.client.get(`/agent?limit=20&sort=country&cursor=${first.body.nextCursor}`, anon);
    expect(foreign.status).toBe(422);
    expect(foreign.body.code).toBe("invalid_cursor");
    const tampered = await sb.client.get(`/agent?cursor=${first.body.nextCursor}x`, anon);
    expect(tampered.body.code).toBe("invalid_cursor");
  });

  it("filters by pool, country, fleet and live, and counts", async () => {
    const africa = await sb.client.get("/agent?pool=africa&expand=count", anon);
    expect(africa.body.data.map((a: { city: string }) => a.city).sort()).toEqual([
      "Cape Town",
      "Johannesburg",
      "Lagos",
    ]);
    expect(africa.body.count).toEqual({ total: 48, matched: 3 });

    const both = await sb.client.get("/agent?pool=africa,australia", anon);
    expect(both.body.data).toHaveLength(7);
    const repeated = await sb.client.get("/agent?pool=africa&pool=australia", anon);
    expect(repeated.body.data).toHaveLength(7);

    const everywhere = await sb.client.get("/agent?pool=allworld&limit=500", anon);
    expect(everywhere.body.data).toHaveLength(48);

    const us = await sb.client.get("/agent?country=us", anon);
    expect(us.body.data).toHaveLength(9);
    expect(us.body.data.every((a: { country: string }) => a.country === "US")).toBe(true);

    const offline = await sb.client.get("/agent?live=false", anon);
    expect(offline.body.data).toHaveLength(1);
    expect(offline.body.data[0]).toMatchObject({ pool: "westeurope", city: "Lisbon", live: false });

    const browsers = await sb.client.get("/agent?fleet=waterfall&pool=africa", anon);
    expect(browsers.body.data.every((a: { fleets: string[] }) => a.fleets.includes("waterfall"))).toBe(true);
    expect(browsers.body.data).toHaveLength(2);
  });

  it("keeps only asked fields", async () => {
    const res = await sb.client.get("/agent?fields=city&limit=1", anon);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(["city", "id"]);
  });

  it("refuses what is not in its vocabulary", async () => {
    const unknown = await sb.client.get("/agent?region=asia", anon);
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe("unknown_parameter");
    expect(unknown.body.errors[0].allowed).toEqual(
      expect.arrayContaining([
        "limit",
        "cursor",
        "sort",
        "pool",
        "country",
        "fleet",
        "live",
        "expand",
        "fields",
      ]),
    );

    const badPool = await sb.client.get("/agent?pool=europe", anon);
    expect(badPool.body.code).toBe("unknown_enum_value");
    expect(badPool.body.errors[0].allowed).toContain("westeurope");

    const badSort = await sb.client.get("/agent?sort=ip", anon);
    expect(badSort.body.code).toBe("unknown_enum_value");

    const empty = await sb.client.get("/agent?country=", anon);
    expect(empty.body.code).toBe("validation_failed");
    expect(empty.body.errors[0].reason).toBe("empty");

    const badLimit = await sb.client.get("/agent?limit=501", anon);
    expect(badLimit.body.code).toBe("invalid_limit");

    const badExpand = await sb.client.get("/agent?expand=pool", anon);
    expect(badExpand.body.code).toBe("unknown_expand");

    const badField = await sb.client.get("/agent?fields=name", anon);
    expect(badField.body.code).toBe("unknown_field");

    const badBool = await sb.client.get("/agent?live=yes", anon);
    expect(badBool.body.code).toBe("unknown_enum_value");
  });

  it("has an anonymous POST /agent/q twin with the same parameters", async () => {
    const res = await sb.client.post(
      "/agent/q",
      { pool: ["africa", "australia"], sort: "city", limit: 5 },
      anon,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(5);
    expect(res.body.data[0].city).toBe("Auckland");
    const next = await sb.client.post(
      "/agent/q",
      { pool: ["africa", "australia"], sort: "city", limit: 5, cursor: res.body.nextCursor },
      anon,
    );
    expect(next.body.data).toHaveLength(2);
    expect(next.body.hasMore).toBe(false);

    const bad = await sb.client.post("/agent/q", { region: "asia" }, anon);
    expect(bad.body.code).toBe("unknown_parameter");
  });
});

describe("GET /agent/pool", () => {
  it("lists pools with live location counts per fleet", async () => {
    const res = await sb.client.get("/agent/pool", anon);
    expect(res.status).toBe(200);
    const ids = res.body.data.map((p: { id: string }) => p.id);
    expect(ids).toEqual([
      "allworld",
      "westeurope",
      "easteurope",
      "northamerica",
      "southamerica",
      "asia",
      "australia",
      "africa",
    ]);
    const [allworld, westeurope] = res.body.data;
    // Browser checks run on every other location.
    expect(allworld).toEqual({
      id: "allworld",
      name: "All locations",
      agents: { net: 47, waterfall: 25 },
      children: ids.slice(1),
      parents: [],
      hidden: false,
      priority: 0,
    });
    // Ten West Europe locations, one of them offline.
    expect(westeurope).toMatchObject({
      agents: { net: 9, waterfall: 5 },
      parents: ["allworld"],
      children: [],
    });
    const africa = res.body.data.find((p: { id: string }) => p.id === "africa");
    expect(africa.agents).toEqual({ net: 3, waterfall: 2 });
  });

  it("summarises the location rule; defaults and presets only with a token", async () => {
    const anonymous = await sb.client.get("/agent/pool", anon);
    expect(anonymous.body.summary).toEqual({
      minAgents: 7,
      minIntervals: { http: 10, api: 30, waterfall: 600, cntCheck: 300, tran: 300, ping: 10, port: 10 },
    });

    const owner = await sb.client.get("/agent/pool");
    expect(owner.body.summary).toMatchObject({ minAgents: 7, defaults: ["allworld"], presets: [] });
  });

  it("reads the account's defaultAgentPools as they are now", async () => {
    const account = await sb.account();
    const patched = await account.patch("/account", { defaultAgentPools: ["westeurope", "easteurope"] });
    expect(patched.status).toBe(200);
    const res = await account.get("/agent/pool");
    expect(res.body.summary.defaults).toEqual(["westeurope", "easteurope"]);
  });

  it("is not paged and takes no parameters", async () => {
    const res = await sb.client.get("/agent/pool?limit=2", anon);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unknown_parameter");
    expect((await sb.client.post("/agent/pool/q", {}, anon)).status).toBe(404);
  });
});

describe("GET /agent/ip", () => {
  it("lists the addresses checks come from, offline locations included", async () => {
    const res = await sb.client.get("/agent/ip?limit=500", anon);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(48);
    expect(res.body.data[0]).toEqual({
      ip: expect.stringMatching(/^198\.51\./),
      version: 4,
      agentId: expect.stringMatching(guid),
      pool: "westeurope",
      country: "DE",
      city: "Frankfurt",
      live: true,
    });
    expect(new Set(res.body.data.map((r: { ip: string }) => r.ip)).size).toBe(48);
    expect(res.body.data.some((r: { live: boolean }) => !r.live)).toBe(true);
  });

  it("agrees with GET /agent", async () => {
    const ips = await sb.client.get("/agent/ip?pool=asia", anon);
    const agents = await sb.client.get("/agent?pool=asia", anon);
    const byId = new Map(agents.body.data.map((a: { id: string; ip: string }) => [a.id, a.ip]));
    expect(ips.body.data).toHaveLength(8);
    for (const row of ips.body.data) expect(byId.get(row.agentId)).toBe(row.ip);
  });

  it("pages, filters by pool, and has an anonymous /q twin", async () => {
    const page = await sb.client.get("/agent/ip?limit=10&expand=count", anon);
    expect(page.body).toMatchObject({ hasMore: true, count: { total: 48, matched: 48 } });
    const rest = await sb.client.post(
      "/agent/ip/q",
      { limit: 500, expand: ["count"], cursor: page.body.nextCursor },
      anon,
    );
    expect(rest.status).toBe(200);
    expect(rest.body.data).toHaveLength(38);
    expect(rest.headers["ratelimit-limit"]).toBe("60");

    const bad = await sb.client.get("/agent/ip?country=US", anon);
    expect(bad.body.code).toBe("unknown_parameter");
    expect(bad.body.errors[0].allowed).toEqual(expect.arrayContaining(["limit", "cursor", "pool", "expand"]));
  });
});
