import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere } from "./fixtures.ts";

/** GET /monitor filters: any-of within a parameter (comma or repeated), AND across parameters. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
const ids: Record<string, string> = {};
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
  const seed: Array<[string, Record<string, unknown>]> = [
    ["shop", { type: "http", url: "shop.example.com", name: "Shop front", tags: ["prod", "web"] }],
    ["api", { type: "http", url: "https://api.example.com/health", name: "API health", tags: ["prod"] }],
    [
      "staging",
      { type: "http", url: "https://staging.example.com/", name: "Staging", tags: ["staging", "web"] },
    ],
    ["gateway", { type: "ping", url: "gw.example.net", name: "Gateway", tags: ["net"] }],
    ["mail", { type: "port", url: "mail.example.net:25", name: "Mail relay" }],
    ["cert", { type: "sslExp", url: "shop.example.com", name: "Shop certificate", tags: ["prod"] }],
  ];
  for (const [key, body] of seed) {
    const locations = body.type === "sslExp" ? {} : { locations: everywhere };
    ids[key] = (await create(acct, { ...body, ...locations })).id;
  }
  await sb.admin.post(`/_sandbox/monitor/${ids.gateway}/outcome`, { state: "down" });
  await acct.patch(`/monitor/${ids.staging}`, { enabled: false });
});
afterAll(() => sb.close());

/** The ids a query selects, by seed name, in any order. */
async function selected(query: string) {
  const res = await acct.get(`/monitor?${query}&limit=500`);
  expect(res.status, res.text).toBe(200);
  const byId = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
  return res.body.data.map((m: { id: string }) => byId[m.id]).sort();
}

describe("filters", () => {
  it("type: one value, a comma list, or repeated parameters", async () => {
    expect(await selected("type=ping")).toEqual(["gateway"]);
    expect(await selected("type=ping,port")).toEqual(["gateway", "mail"]);
    expect(await selected("type=ping&type=port&type=sslExp")).toEqual(["cert", "gateway", "mail"]);
  });

  it("tag: monitors carrying any of the tags", async () => {
    expect(await selected("tag=prod")).toEqual(["api", "cert", "shop"]);
    expect(await selected("tag=staging,net")).toEqual(["gateway", "staging"]);
    expect(await selected("tag=web&tag=net")).toEqual(["gateway", "shop", "staging"]);
    expect(await selected("tag=none-such")).toEqual([]);
  });

  it("state: up, down, paused", async () => {
    expect(await selected("state=down")).toEqual(["gateway"]);
    expect(await selected("state=paused")).toEqual(["staging"]);
    expect(await selected("state=down,paused")).toEqual(["gateway", "staging"]);
    expect(await selected("state=up")).toEqual(["api", "cert", "mail", "shop"]);
  });

  it("enabled: true or false", async () => {
    expect(await selected("enabled=false")).toEqual(["staging"]);
    expect(await selected("enabled=true")).toEqual(["api", "cert", "gateway", "mail", "shop"]);
  });

  it("url: exact, as sent or as normalised", async () => {
    expect(await selected("url=shop.example.com")).toEqual(["cert", "shop"]);
    expect(await selected(`url=${encodeURIComponent("http://shop.example.com/")}`)).toEqual(["shop"]);
    expect(
      await selected(`url=gw.example.net&url=${encodeURIComponent("https://api.example.com/health")}`),
    ).toEqual(["api", "gateway"]);
    expect(await selected("url=shop.example")).toEqual([]);
  });

  it("q: a case-insensitive substring of the name or the address", async () => {
    expect(await selected("q=SHOP")).toEqual(["cert", "shop"]);
    expect(await selected("q=example.net")).toEqual(["gateway", "mail"]);
    expect(await selected("q=relay")).toEqual(["mail"]);
  });

  it("different parameters combine with AND", async () => {
    expect(await selected("tag=prod&type=http")).toEqual(["api", "shop"]);
    expect(await selected("tag=web&enabled=true")).toEqual(["shop"]);
    expect(await selected("type=http,ping&state=up,down&q=a")).toEqual(["api", "gateway", "shop"]);
  });

  it("expand=count reports the account's total and the filter's matches", async () => {
    const res = await acct.get("/monitor?type=http&expand=count&limit=1");
    expect(res.body.count).toEqual({ total: 6, matched: 3 });
    expect(res.body.data).toHaveLength(1);
    expect((await acct.get("/monitor")).body).not.toHaveProperty("count");
  });

  it("another account sees none of these", async () => {
    const other = await sb.account();
    const res = await other.get("/monitor?expand=count");
    expect(res.body).toMatchObject({
      data: [],
      hasMore: false,
      nextCursor: null,
      count: { total: 0, matched: 0 },
    });
  });
});
