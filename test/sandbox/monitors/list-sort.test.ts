import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere } from "./fixtures.ts";

/**
 * GET /monitor sort columns. Unsuffixed, time columns run newest first and
 * the others A to Z (ascending); rows without a value come last either way.
 */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
const seeded: string[] = [];
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account({ plan: "enterprise" });
  const bodies = [
    { type: "http", url: "https://b.example.com/", name: "beta", interval: 60, tags: ["zeta", "alpha"] },
    { type: "ping", url: "a.example.com", name: "Alpha", interval: 120, tags: ["mid"] },
    { type: "port", url: "c.example.com:22", name: "delta", interval: 300 },
    { type: "api", url: "https://e.example.com/", name: "Charlie", interval: 600, tags: ["beta"] },
    { type: "dnsbl", url: "d.example.com", name: "echo", tags: ["omega"] },
    { type: "database", name: "foxtrot", interval: 1800, tags: ["gamma"] },
  ];
  for (const body of bodies) {
    const extra = {
      ...(["http", "ping", "port", "api"].includes(body.type) && { locations: everywhere }),
      ...(body.type === "api" && { settings: { contentType: "application/json" } }),
    };
    seeded.push((await create(acct, { ...body, ...extra })).id);
    await sb.advance(10);
  }
  // State changes move lastChange out of creation order: Alpha down, then delta paused, then beta down.
  await sb.admin.post(`/_sandbox/monitor/${seeded[1]}/outcome`, { state: "down" });
  await sb.advance(10);
  await acct.patch(`/monitor/${seeded[2]}`, { enabled: false });
  await sb.advance(10);
  await sb.admin.post(`/_sandbox/monitor/${seeded[0]}/outcome`, { state: "down" });
});
afterAll(() => sb.close());

async function names(sort?: string) {
  const res = await acct.get(`/monitor?fields=name${sort ? `&sort=${sort}` : ""}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((m: { name: string }) => m.name);
}

describe("sort", () => {
  it("defaults to created, newest first", async () => {
    const expected = ["foxtrot", "echo", "Charlie", "delta", "Alpha", "beta"];
    expect(await names()).toEqual(expected);
    expect(await names("created")).toEqual(expected);
    expect(await names("created:desc")).toEqual(expected);
    expect(await names("created:asc")).toEqual([...expected].reverse());
  });

  it("name: A to Z, case-insensitive", async () => {
    const expected = ["Alpha", "beta", "Charlie", "delta", "echo", "foxtrot"];
    expect(await names("name")).toEqual(expected);
    expect(await names("name:asc")).toEqual(expected);
    expect(await names("name:desc")).toEqual([...expected].reverse());
  });

  it("type: A to Z", async () => {
    const expected = ["Charlie", "foxtrot", "echo", "beta", "Alpha", "delta"];
    expect(await names("type")).toEqual(expected);
    expect(await names("type:desc")).toEqual([...expected].reverse());
  });

  it("interval: smallest first unsuffixed", async () => {
    const expected = ["beta", "Alpha", "delta", "Charlie", "foxtrot", "echo"];
    expect(await names("interval")).toEqual(expected);
    expect(await names("interval:asc")).toEqual(expected);
    expect(await names("interval:desc")).toEqual([...expected].reverse());
  });

  it("state: A to Z, ties in a stable order", async () => {
    const byState = await acct.get("/monitor?fields=name,state&sort=state");
    const states = byState.body.data.map((m: { state: string }) => m.state);
    expect(states).toEqual(["down", "down", "paused", "up", "up", "up"]);
    const desc = await acct.get("/monitor?fields=name,state&sort=state:desc");
    expect(desc.body.data.map((m: { state: string }) => m.state)).toEqual([
      "up",
      "up",
      "up",
      "paused",
      "down",
      "down",
    ]);
    // Ties keep one order in both directions, so paging through them is stable.
    expect(desc.body.data.slice(0, 3).map((m: { name: string }) => m.name)).toEqual(
      byState.body.data.slice(3).map((m: { name: string }) => m.name),
    );
  });

  it("lastChange: the latest state change first unsuffixed", async () => {
    const expected = ["beta", "delta", "Alpha", "foxtrot", "echo", "Charlie"];
    expect(await names("lastChange")).toEqual(expected);
    expect(await names("lastChange:desc")).toEqual(expected);
    expect(await names("lastChange:asc")).toEqual([...expected].reverse());
  });

  it("url: A to Z, monitors without one last in both directions", async () => {
    const withUrl = ["Alpha", "delta", "echo", "beta", "Charlie"];
    expect(await names("url")).toEqual([...withUrl, "foxtrot"]);
    expect(await names("url:desc")).toEqual([...withUrl].reverse().concat("foxtrot"));
  });

  it("tags: by each monitor's first tag A to Z, untagged last", async () => {
    expect(await names("tags")).toEqual(["beta", "Charlie", "foxtrot", "Alpha", "echo", "delta"]);
    expect(await names("tags:desc")).toEqual(["echo", "Alpha", "foxtrot", "Charlie", "beta", "delta"]);
  });
});
