import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents } from "../../../src/sandbox/core/fleet.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** `POST /check`: validation by the monitor rules, and a check's way from queued to finished. */
let sb: TestSandbox;
let c: Client;
beforeAll(async () => {
  sb = await startTestSandbox();
  c = await sb.account();
});
afterAll(() => sb.close());

const liveIn = (pools: string[], fleet: "net" | "waterfall") =>
  agents.filter(
    (a) => a.live && a.fleets.includes(fleet) && (pools.includes("allworld") || pools.includes(a.pool)),
  );

async function finished(client: Client, location: string) {
  await sb.advance(1);
  const res = await client.get(location);
  expect(res.status).toBe(200);
  expect(res.body.state).toBe("finished");
  return res;
}

describe("validation", () => {
  it("requires type and url, and refuses unknown members with the accepted list", async () => {
    const res = await c.post("/check", { urll: "https://example.com" });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    const byPointer = Object.fromEntries(res.body.errors.map((e: any) => [e.pointer, e]));
    expect(byPointer["/type"]).toMatchObject({ reason: "required" });
    expect(byPointer["/url"]).toMatchObject({ reason: "required" });
    expect(byPointer["/urll"]).toMatchObject({ reason: "unknown_member" });
    expect(byPointer["/urll"].allowed).toEqual(
      expect.arrayContaining(["type", "url", "locations", "settings"]),
    );
  });

  it("takes only the types of GET /check/type", async () => {
    const types = (await c.get("/check/type", { token: null })).body.data.map((t: any) => t.type);
    const res = await c.post("/check", { type: "dnsbl", url: "example.com" });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: "/type", value: "dnsbl", allowed: types });
  });

  it("checks url by the type's rule, as monitors do", async () => {
    const noScheme = await c.post("/check", { type: "api", url: "ftp://example.com/x" });
    expect(noScheme.status).toBe(422);
    expect(noScheme.body.code).toBe("invalid_url");
    expect(noScheme.body.errors[0]).toMatchObject({ pointer: "/url", reason: "scheme_not_allowed" });
    const noPort = await c.post("/check", { type: "port", url: "example.com" });
    expect(noPort.body.code).toBe("invalid_url");
    expect(noPort.body.errors[0]).toMatchObject({ pointer: "/url", value: "example.com" });
    const blocked = await c.post("/check", { type: "ping", url: "bad.blocked.test" });
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe("url_blacklisted");
  });

  it("refuses unknown pools with a hint", async () => {
    const res = await c.post("/check", {
      type: "http",
      url: "https://example.com",
      locations: { pools: ["asia", "austrlia"] },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unknown_pool");
    expect(res.body.errors).toEqual([
      expect.objectContaining({ pointer: "/locations/pools/1", value: "austrlia", didYouMean: "australia" }),
    ]);
  });

  it("takes only pools from a monitor's locations", async () => {
    const res = await c.post("/check", {
      type: "http",
      url: "https://example.com",
      locations: { pools: ["asia"], fallback: "geo" },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: "/locations/fallback", reason: "unknown_member" });
  });

  it("checks settings by the type's monitor rules, and refuses attached and preset", async () => {
    const device = await c.post("/check", {
      type: "waterfall",
      url: "https://example.com",
      settings: { deviceEmulation: "Nokia 3310" },
    });
    expect(device.status).toBe(422);
    expect(device.body.errors[0]).toMatchObject({
      pointer: "/settings/deviceEmulation",
      value: "Nokia 3310",
    });
    expect(device.body.errors[0].allowed).toContain("Desktop");
    const timeout = await c.post("/check", {
      type: "http",
      url: "https://example.com",
      settings: { timeout: 5 },
    });
    expect(timeout.status).toBe(422);
    expect(timeout.body.errors[0]).toMatchObject({ pointer: "/settings/timeout" });
    const api = await c.post("/check", { type: "api", url: "https://example.com/api" });
    expect(api.status).toBe(422);
    expect(api.body.errors[0]).toMatchObject({ pointer: "/settings/contentType" });
    const attached = await c.post("/check", {
      type: "http",
      url: "https://example.com",
      settings: { attached: { dnsbl: true }, preset: "bl:ru" },
    });
    expect(attached.status).toBe(422);
    expect(attached.body.errors.map((e: any) => [e.pointer, e.reason])).toEqual([
      ["/settings/attached", "not_allowed"],
      ["/settings/preset", "not_allowed"],
    ]);
  });

  it("refuses types outside the plan (403 package_limit naming the feature)", async () => {
    const trial = await sb.account({ plan: "trial" });
    const res = await trial.post("/check", {
      type: "api",
      url: "https://example.com/api",
      settings: { contentType: "application/json" },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "package_limit", feature: "apiTask" });
  });

  it("changes nothing when refused", async () => {
    const fresh = await sb.account();
    await fresh.post("/check", { type: "http", url: "ftp://example.com" });
    expect((await fresh.get("/check")).body.data).toEqual([]);
  });
});

describe("a check", () => {
  it("is created queued, with Location at its dbId and Retry-After", async () => {
    const res = await c.post("/check", {
      type: "http",
      url: "example.com",
      locations: { pools: ["Africa", "australia"] },
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/check/${res.body.dbId}/${res.body.id}`);
    expect(res.headers["retry-after"]).toBe("1");
    expect(res.body.dbId).toMatch(/^(eu1|eu2|us1|us2|ap1)$/);
    expect(res.body).toMatchObject({
      type: "http",
      url: "example.com",
      effectiveUrl: "http://example.com/",
      locations: { pools: ["africa", "australia"] },
      state: "queued",
      startedAt: null,
      finishedAt: null,
      expiresAt: res.body.created + 7 * 86400,
      summary: { total: liveIn(["africa", "australia"], "net").length, up: 0, down: 0 },
      results: [],
    });
  });

  it("finishes on the next clock advance with one result per location, and no Retry-After", async () => {
    const created = await c.post("/check", {
      type: "http",
      url: "https://example.com",
      locations: { pools: ["africa", "australia"] },
    });
    const res = await finished(c, created.headers.location!);
    expect(res.headers["retry-after"]).toBeUndefined();
    const expected = liveIn(["africa", "australia"], "net");
    expect(res.body.results.map((r: any) => r.location.id).sort()).toEqual(expected.map((a) => a.id).sort());
    expect(res.body.summary).toEqual({ total: expected.length, up: expected.length, down: 0 });
    expect(res.body.finishedAt).toBeGreaterThanOrEqual(res.body.startedAt);
    for (const r of res.body.results) {
      expect(r).toMatchObject({ state: "up", error: null, time: res.body.finishedAt });
      const { responseTime, dns, connect, tls, ttfb, transfer } = r.metrics;
      expect(r.durationMs).toBe(responseTime);
      expect(responseTime).toBe(dns + connect + tls + ttfb + transfer);
      expect(tls).toBeGreaterThan(0);
    }
  });

  it("finishes within about a second of real time without a clock move", async () => {
    const created = await c.post("/check", {
      type: "ping",
      url: "example.org",
      locations: { pools: ["asia"] },
    });
    let state = created.body.state;
    const seen = new Set([state]);
    for (let i = 0; i < 40 && state !== "finished"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = (await c.get(created.headers.location!)).body.state;
      seen.add(state);
    }
    expect(state).toBe("finished");
    expect([...seen].every((s) => ["queued", "running", "finished"].includes(s))).toBe(true);
  });

  it("runs browser types from the waterfall fleet and defaults to the account's pools", async () => {
    const created = await c.post("/check", {
      type: "waterfall",
      url: "https://example.com",
      settings: { deviceEmulation: "iPad" },
    });
    expect(created.status).toBe(201);
    expect(created.body.locations).toEqual({ pools: ["allworld"] });
    expect(created.body.settings).toEqual({ deviceEmulation: "iPad" });
    const res = await finished(c, created.headers.location!);
    expect(res.body.results).toHaveLength(liveIn(["allworld"], "waterfall").length);
  });

  it("measures deterministically: the same address reads the same figures", async () => {
    const body = { type: "port", url: "example.net:443", locations: { pools: ["australia", "africa"] } };
    const a = await c.post("/check", body);
    const b = await c.post("/check", body);
    const ra = await finished(c, a.headers.location!);
    const rb = await c.get(b.headers.location!);
    const figures = (res: typeof ra) =>
      res.body.results
        .map((r: any) => [r.location.id, r.metrics])
        .sort((x: any, y: any) => x[0].localeCompare(y[0]));
    expect(figures(ra)).toEqual(figures(rb));
    // port checks resolve and connect only.
    expect(ra.body.results[0].metrics).toMatchObject({ tls: 0, ttfb: 0, transfer: 0 });
  });

  it("fails from every location for reserved failing hosts", async () => {
    const timeout = await c.post("/check", {
      type: "http",
      url: "https://api.down.example/health",
      locations: { pools: ["asia"] },
    });
    const t = await finished(c, timeout.headers.location!);
    expect(t.body.summary).toMatchObject({ up: 0, down: t.body.summary.total });
    expect(t.body.results[0]).toMatchObject({
      state: "down",
      durationMs: 30000,
      error: { code: 28, codename: "timeout" },
    });
    const dns = await c.post("/check", {
      type: "ping",
      url: "nowhere.invalid",
      locations: { pools: ["asia"] },
    });
    const d = await finished(c, dns.headers.location!);
    expect(d.body.results.every((r: any) => r.state === "down")).toBe(true);
    expect(d.body.results[0].error).toEqual({
      code: 6,
      message: "Could not resolve host: nowhere.invalid",
      codename: "dnsNotResolved",
    });
  });

  it("never reads credentials back", async () => {
    const res = await c.post("/check", {
      type: "http",
      url: "https://example.com/private",
      settings: { username: "ops", password: "s3cret-value", authSchema: "Basic" },
    });
    expect(res.status).toBe(201);
    expect(res.text).not.toContain("s3cret-value");
    expect(res.body.settings).toEqual({
      username: "ops",
      password: { set: true, updatedAt: res.body.created },
      authSchema: "Basic",
    });
    expect((await c.get(res.headers.location!)).text).not.toContain("s3cret-value");
  });
});
