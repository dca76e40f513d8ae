import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** Instant checks: scopes, the check quota pool, isolation, the list and the 7-day retention. */
let sb: TestSandbox;
const base = 1_900_000_020;
beforeAll(async () => {
  sb = await startTestSandbox();
  await sb.admin.post("/_sandbox/clock", { now: base });
});
afterAll(() => sb.close());

const http = (url: string) => ({ type: "http", url, locations: { pools: ["asia"] } });
const token = async (accountId: string, scopes: string[]) =>
  (await sb.mint({ accountId, scopes })).body.token as string;

describe("scopes", () => {
  it("check:write creates, check:read reads; monitor scopes satisfy neither", async () => {
    const c = await sb.account();
    const monitorOnly = await token(c.accountId, ["monitor"]);
    const refused = await c.post("/check", http("https://example.com"), { token: monitorOnly });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toEqual({ required: "check:write", granted: ["monitor"] });
    expect((await c.get("/check", { token: monitorOnly })).body.errors[0].required).toBe("check:read");

    const reader = await token(c.accountId, ["check:read"]);
    expect((await c.post("/check", http("https://example.com"), { token: reader })).status).toBe(403);
    const writer = await token(c.accountId, ["check:write"]);
    const created = await c.post("/check", http("https://example.com"), { token: writer });
    expect(created.status).toBe(201);
    expect((await c.get(created.headers.location!, { token: writer })).status).toBe(403);
    expect((await c.get(created.headers.location!, { token: reader })).status).toBe(200);
    expect((await c.get("/check", { token: reader })).body.data).toHaveLength(1);
  });

  it("an invalid body is refused before the scope check", async () => {
    const c = await sb.account();
    const reader = await token(c.accountId, ["check:read"]);
    const res = await c.post("/check", { type: "http" }, { token: reader });
    expect(res.status).toBe(422);
  });
});

describe("the check quota pool", () => {
  it("is separate from the account pool: spending one leaves the other whole", async () => {
    const c = await sb.account({ metered: true, plan: "trial" });
    // Trial: 2 check writes a minute.
    for (let i = 0; i < 2; i++)
      expect((await c.post("/check", http(`https://e${i}.example.com`))).status).toBe(201);
    const refused = await c.post("/check", http("https://e2.example.com"));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("quota_exceeded");
    expect(refused.headers["ratelimit-policy"]).toContain('scope="check:write"');
    expect(refused.headers["retry-after"]).toBeDefined();
    // Account-pool calls go on, and check reads have windows of their own.
    expect((await c.get("/monitor")).status).toBe(200);
    const list = await c.get("/check");
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(list.headers["ratelimit-policy"]).toContain('read_per_minute;q=5;w=60;scope="check"');

    const quota = await c.get("/account/quota");
    const row = (scope: string, q: string) =>
      quota.body.pools.check.quotas.find((r: any) => r.scope === scope && r.quota === q);
    expect(row("check:write", "write_per_minute")).toMatchObject({ used: 3, remaining: 0 });
    expect(row("check:write", "write_per_month")).toMatchObject({ used: 2 });
    expect(
      quota.body.pools.account.quotas.some((r: any) => r.scope.startsWith("check")),
      "check scopes live in their own pool",
    ).toBe(false);
  });
});

describe("isolation", () => {
  it("another account's check, or a check at the wrong dbId, answers 404 like a missing one", async () => {
    const a = await sb.account();
    const b = await sb.account();
    const created = await a.post("/check", http("https://example.com"));
    const foreign = await b.get(created.headers.location!);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    expect((await b.get("/check")).body.data).toEqual([]);
    const otherShard = created.body.dbId === "eu1" ? "us1" : "eu1";
    expect((await a.get(`/check/${otherShard}/${created.body.id}`)).status).toBe(404);
    expect((await a.get(`/check/${created.body.dbId}/00000000-0000-4000-8000-000000000000`)).status).toBe(
      404,
    );
  });

  it("one account's checks share one dbId", async () => {
    const a = await sb.account();
    const one = await a.post("/check", http("https://one.example.com"));
    const two = await a.post("/check", http("https://two.example.com"));
    expect(two.body.dbId).toBe(one.body.dbId);
  });
});

describe("GET /check", () => {
  let c: Client;
  const ids: string[] = [];
  beforeAll(async () => {
    c = await sb.account();
    // One a second, so creation times differ: http, ping, http, ping, http.
    for (let i = 0; i < 5; i++) {
      const body =
        i % 2 === 0 ? http(`https://n${i}.example.com`) : { type: "ping", url: `n${i}.example.com` };
      ids.push((await c.post("/check", body)).body.id);
      await sb.advance(1);
    }
  });

  it("pages newest first with bare rows, results on expand", async () => {
    const first = await c.get("/check?limit=2");
    expect(first.body.data.map((r: any) => r.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.data[0].results).toBeUndefined();
    const second = await c.get(`/check?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.data.map((r: any) => r.id)).toEqual([ids[2], ids[1]]);
    const last = await c.get(`/check?limit=2&cursor=${encodeURIComponent(second.body.nextCursor)}`);
    expect(last.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(last.body.data.map((r: any) => r.id)).toEqual([ids[0]]);
    const oldest = await c.get("/check?sort=created:asc&limit=1&expand=results,count");
    expect(oldest.body.data[0].id).toBe(ids[0]);
    expect(oldest.body.data[0].results.length).toBe(oldest.body.data[0].summary.total);
    expect(oldest.body.count).toEqual({ total: 5, matched: 5 });
  });

  it("filters by type and state; the /q twin takes the same as JSON", async () => {
    const pings = await c.get("/check?type=ping");
    expect(pings.body.data.map((r: any) => r.id)).toEqual([ids[3], ids[1]]);
    // The clock starts a fresh second, so the new check cannot finish by real time before it is listed.
    await sb.admin.post("/_sandbox/clock", { now: (await sb.advance(1)) + 1 });
    const queued = await c.post("/check", http("https://fresh.example.com"));
    const unfinished = await c.get("/check?state=queued,running");
    expect(unfinished.body.data.map((r: any) => r.id)).toEqual([queued.body.id]);
    const twin = await c.post("/check/q", { type: ["http"], state: ["finished"] });
    expect(twin.body.data.map((r: any) => r.id)).toEqual([ids[4], ids[2], ids[0]]);
    const bad = await c.get("/check?state=done");
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("unknown_enum_value");
    expect((await c.get("/check?fields=type")).body.data[0]).toEqual({ id: queued.body.id, type: "http" });
  });

  it("keeps checks 7 days, then answers 404 and purges them", async () => {
    const d = await sb.account();
    const old = await d.post("/check", http("https://old.example.com"));
    await sb.advance(6 * 86400);
    const recent = await d.post("/check", http("https://recent.example.com"));
    expect((await d.get(old.headers.location!)).status).toBe(200);
    await sb.advance(86400);
    expect((await d.get(old.headers.location!)).status).toBe(404);
    expect((await d.get("/check")).body.data.map((r: any) => r.id)).toEqual([recent.body.id]);
  });
});
