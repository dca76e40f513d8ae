import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, liveAgentIds, refusal, uniqueUrl } from "./fixtures.ts";

/** `locations`: which types take them, pool matching, and the 7-live-location rule. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

const poolIds = [
  "allworld",
  "westeurope",
  "easteurope",
  "northamerica",
  "southamerica",
  "asia",
  "australia",
  "africa",
];
const http = (locations: unknown) => ({ type: "http", url: uniqueUrl(), locations });

describe("which types take locations", () => {
  it.each([
    ["http", uniqueUrl()],
    ["ping", "loc-ping.example.com"],
    ["port", "loc-port.example.com:443"],
  ])("%s needs at least one pool", async (type, url) => {
    const none = await acct.post("/monitor", { type, url });
    expect(refusal(none)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/locations/pools", reason: "required" }],
    });
    const empty = await acct.post("/monitor", { type, url, locations: { pools: [] } });
    expect(refusal(empty)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/locations/pools", reason: "too_few", value: [], minimum: 1 }],
    });
  });

  it.each(["dnsbl", "domainExp", "sslExp", "webRisk"])("%s refuses locations", async (type) => {
    const res = await acct.post("/monitor", {
      type,
      url: "refused.example.com",
      locations: { pools: ["allworld"] },
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/locations", reason: "not_allowed" }],
    });
  });

  it.each(["database", "snmp", "counter"])(
    "%s runs on a private network and takes no locations",
    async (type) => {
      const enterprise = await sb.account({ plan: "enterprise" });
      const res = await enterprise.post("/monitor", {
        type,
        locations: { pools: ["allworld"] },
        ...(type === "counter" && { settings: { probeUrl: "https://probe.internal/" } }),
      });
      expect(refusal(res)).toEqual({
        status: 422,
        code: "validation_failed",
        errors: [{ pointer: "/locations", reason: "not_allowed" }],
      });
    },
  );
});

describe("pools", () => {
  it("match case-insensitively and are stored lower case, once each", async () => {
    const body = await create(acct, http({ pools: ["WestEurope", "NORTHAMERICA", "westeurope"] }));
    expect(body.locations).toEqual({
      pools: ["westeurope", "northamerica"],
      fallback: "starve",
      excludedAgents: [],
    });
  });

  it("allworld reaches every location", async () => {
    const body = await create(acct, http({ pools: ["allworld"] }));
    expect(body.locations.pools).toEqual(["allworld"]);
  });

  it("refuses an unknown pool with the valid ones and a suggestion", async () => {
    const res = await acct.post("/monitor", http({ pools: ["westeurope", "europe", "Austrlia"] }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_pool",
      errors: [
        { pointer: "/locations/pools/1", value: "europe", reason: "unknown", allowed: poolIds },
        {
          pointer: "/locations/pools/2",
          value: "Austrlia",
          reason: "unknown",
          allowed: poolIds,
          didYouMean: "australia",
        },
      ],
    });
  });

  it("PATCH /account defaultAgentPools answers the same refusal, and stores pools the same way", async () => {
    const owner = await sb.account();
    const res = await owner.patch("/account", { defaultAgentPools: ["westeurope", "europe", "Austrlia"] });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_pool",
      errors: [
        { pointer: "/defaultAgentPools/1", value: "europe", reason: "unknown", allowed: poolIds },
        {
          pointer: "/defaultAgentPools/2",
          value: "Austrlia",
          reason: "unknown",
          allowed: poolIds,
          didYouMean: "australia",
        },
      ],
    });
    const ok = await owner.patch("/account", { defaultAgentPools: ["Asia", "asia", "AFRICA"] });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.defaultAgentPools).toEqual(["asia", "africa"]);
  });

  it("takes a fallback of geo, world or starve, and refuses others", async () => {
    const body = await create(acct, http({ pools: ["allworld"], fallback: "geo" }));
    expect(body.locations.fallback).toBe("geo");
    const res = await acct.post("/monitor", http({ pools: ["allworld"], fallback: "nearest" }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/locations/fallback",
          reason: "not_allowed",
          value: "nearest",
          allowed: ["geo", "world", "starve"],
        },
      ],
    });
  });
});

describe("insufficient_agents", () => {
  it("refuses a selection below 7 live locations, with required, matched and a per-pool breakdown", async () => {
    const res = await acct.post("/monitor", http({ pools: ["africa"] }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "insufficient_agents",
      required: 7,
      matched: 3,
      pools: [{ id: "africa", live: 3, children: [] }],
      errors: [{ pointer: "/locations/pools", value: ["africa"], required: 7, matched: 3 }],
    });
  });

  it("admits a selection reaching exactly 7 (africa + australia)", async () => {
    const body = await create(acct, http({ pools: ["africa", "australia"] }));
    expect(body.locations.pools).toEqual(["africa", "australia"]);
  });

  it("counts excludedAgents out, even inside a chosen pool", async () => {
    const [excluded] = await liveAgentIds(acct, "australia");
    const res = await acct.post(
      "/monitor",
      http({ pools: ["africa", "australia"], excludedAgents: [excluded] }),
    );
    expect(refusal(res)).toEqual({
      status: 422,
      code: "insufficient_agents",
      required: 7,
      matched: 6,
      pools: [
        { id: "africa", live: 3, children: [] },
        { id: "australia", live: 3, children: [] },
      ],
      errors: [{ pointer: "/locations/pools", value: ["africa", "australia"], required: 7, matched: 6 }],
    });
  });

  it("keeps excludedAgents, once each, when enough locations remain", async () => {
    const excluded = (await liveAgentIds(acct, "westeurope")).slice(0, 2);
    const body = await create(
      acct,
      http({ pools: ["allworld"], excludedAgents: [...excluded, excluded[0]] }),
    );
    expect(body.locations.excludedAgents).toEqual(excluded);
  });

  it("refuses an excluded agent that does not exist", async () => {
    const ghost = "00000000-0000-4000-8000-000000000000";
    const res = await acct.post("/monitor", http({ pools: ["allworld"], excludedAgents: [ghost] }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/locations/excludedAgents/0", value: ghost, reason: "not_found" }],
    });
  });

  it("counts browser checks on the smaller waterfall fleet", async () => {
    const net = await liveAgentIds(acct, "africa", "net");
    const browsers = await liveAgentIds(acct, "africa", "waterfall");
    expect(browsers.length).toBeLessThan(net.length);
    const res = await acct.post("/monitor", {
      type: "waterfall",
      url: uniqueUrl(),
      locations: { pools: ["africa", "australia"] },
    });
    expect(refusal(res)).toMatchObject({
      status: 422,
      code: "insufficient_agents",
      required: 7,
      matched: browsers.length + (await liveAgentIds(acct, "australia", "waterfall")).length,
    });
    const ok = await create(acct, {
      type: "waterfall",
      url: uniqueUrl(),
      locations: { pools: ["allworld"] },
    });
    expect(ok.locations.pools).toEqual(["allworld"]);
  });
});
