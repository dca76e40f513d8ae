import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const token = async (scopes: string[]) => (await sb.mint({ scopes })).body.token as string;

describe("POST /monitor/validate-cron", () => {
  it("previews the next five runs from the sandbox clock", async () => {
    // Thursday, 1 January 2026, 10:00 UTC.
    await sb.admin.post("/_sandbox/clock", { now: Date.UTC(2026, 0, 1, 10) / 1000 });
    const res = await sb.client.post("/monitor/validate-cron", { cronSchedule: "30 9 * * MON-FRI" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      cronSchedule: "30 9 * * MON-FRI",
      nextRuns: [
        Date.UTC(2026, 0, 2, 9, 30) / 1000,
        Date.UTC(2026, 0, 5, 9, 30) / 1000,
        Date.UTC(2026, 0, 6, 9, 30) / 1000,
        Date.UTC(2026, 0, 7, 9, 30) / 1000,
        Date.UTC(2026, 0, 8, 9, 30) / 1000,
      ],
      available: true,
    });
  });

  it("answers an invalid expression with valid: false and the reason", async () => {
    const res = await sb.client.post("/monitor/validate-cron", { cronSchedule: "0 0 * * * *" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: false,
      cronSchedule: "0 0 * * * *",
      error:
        "expected 5 fields (minute hour day-of-month month day-of-week), got 6 (seconds and year fields are not supported)",
      nextRuns: [],
      available: true,
    });
    const impossible = await sb.client.post("/monitor/validate-cron", { cronSchedule: "0 0 30 2 *" });
    expect(impossible.body).toMatchObject({ valid: false, error: expect.stringMatching(/^never fires/) });
  });

  it("says whether the plan lets monitors use cron", async () => {
    const trial = await sb.account({ plan: "trial" });
    const res = await trial.post("/monitor/validate-cron", { cronSchedule: "*/15 * * * *" });
    expect(res.body).toMatchObject({ valid: true, available: false });
    expect(res.body.nextRuns).toHaveLength(5);
  });

  it("refuses a malformed body with 422", async () => {
    const missing = await sb.client.post("/monitor/validate-cron", {});
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe("validation_failed");
    expect(missing.body.errors[0].pointer).toBe("/cronSchedule");

    const wrongType = await sb.client.post("/monitor/validate-cron", { cronSchedule: 5 });
    expect(wrongType.body.code).toBe("validation_failed");
    expect(wrongType.body.errors[0]).toMatchObject({ pointer: "/cronSchedule", reason: "wrong_type" });

    const unknown = await sb.client.post("/monitor/validate-cron", { cron: "* * * * *" });
    expect(unknown.body.code).toBe("validation_failed");
    expect(unknown.body.errors.some((e: { reason: string }) => e.reason === "unknown_member")).toBe(true);

    const query = await sb.client.post("/monitor/validate-cron?dryRun=true", { cronSchedule: "* * * * *" });
    expect(query.body.code).toBe("unknown_parameter");
  });

  it("needs monitor:read and counts as a read", async () => {
    const none = await sb.client.post(
      "/monitor/validate-cron",
      { cronSchedule: "* * * * *" },
      { token: null },
    );
    expect(none.status).toBe(401);
    expect(none.body.errors[0].reason).toBe("missing");

    const writer = await token(["monitor:write"]);
    const refused = await sb.client.post(
      "/monitor/validate-cron",
      { cronSchedule: "* * * * *" },
      { token: writer },
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: "missing_scope",
      errors: [{ required: "monitor:read", granted: ["monitor:write"] }],
    });

    const reader = await token(["monitor:read"]);
    const ok = await sb.client.post(
      "/monitor/validate-cron",
      { cronSchedule: "* * * * *" },
      { token: reader },
    );
    expect(ok.status).toBe(200);
    expect(ok.headers["ratelimit-policy"]).toMatch(/^read_per_minute;q=60;w=60/);
  });
});

describe("POST /monitor/resolve", () => {
  const resolve = (url: string) => sb.client.post("/monitor/resolve", { url });

  it("resolves an IP literal to itself, in every address form", async () => {
    expect((await resolve("203.0.113.9")).body).toEqual({
      url: "203.0.113.9",
      host: "203.0.113.9",
      resolved: true,
      ips: ["203.0.113.9"],
    });
    expect((await resolve("https://203.0.113.9:8443/health")).body.ips).toEqual(["203.0.113.9"]);
    expect((await resolve("2001:db8::7")).body.ips).toEqual(["2001:db8::7"]);
    expect((await resolve("[2001:db8::7]:443")).body).toMatchObject({
      host: "2001:db8::7",
      ips: ["2001:db8::7"],
    });
  });

  it("resolves localhost to loopback", async () => {
    expect((await resolve("http://localhost:8080/x")).body.ips).toEqual(["127.0.0.1", "::1"]);
    expect((await resolve("api.localhost")).body.ips).toEqual(["127.0.0.1", "::1"]);
  });

  it("resolves other names to stable documentation addresses", async () => {
    const a = await resolve("https://Example.COM/path?q=1");
    expect(a.status).toBe(200);
    expect(a.body.host).toBe("example.com");
    const [v4, v6] = a.body.ips;
    expect(v4).toMatch(/^192\.0\.2\.(\d+)$/);
    expect(Number(v4.split(".")[3])).toBeGreaterThanOrEqual(1);
    expect(Number(v4.split(".")[3])).toBeLessThanOrEqual(254);
    expect(v6).toMatch(/^2001:db8:[0-9a-f]{1,4}:[0-9a-f]{1,4}::[0-9a-f]{1,4}$/);
    expect((await resolve("example.com")).body.ips).toEqual(a.body.ips);
    expect((await resolve("example.com.:443")).body.ips).toEqual(a.body.ips);
    expect((await resolve("db.example.net:5432")).body.host).toBe("db.example.net");
    expect((await resolve("other.example")).body.ips).not.toEqual(a.body.ips);
  });

  it("answers a name under .invalid with resolved: false and no ips", async () => {
    const res = await resolve("https://nothing.invalid/");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: "https://nothing.invalid/",
      host: "nothing.invalid",
      resolved: false,
      ips: [],
    });
  });

  it("refuses an address with no usable host as invalid_url", async () => {
    const ftp = await resolve("ftp://example.com/file");
    expect(ftp.status).toBe(422);
    expect(ftp.body).toMatchObject({
      code: "invalid_url",
      errors: [{ pointer: "/url", value: "ftp://example.com/file", reason: "scheme_not_allowed" }],
    });
    for (const bad of ["http://", "exa mple.com", "-bad-.example", "a..b", `${"x".repeat(64)}.com`]) {
      const res = await resolve(bad);
      expect(res.status, bad).toBe(422);
      expect(res.body.errors[0].reason, bad).toBe("malformed");
    }
  });

  it("refuses the hosts POST /monitor refuses: a bare single label, an underscore", async () => {
    for (const host of ["intranet", "my_host.example.com"]) {
      for (const url of [host, `https://${host}/health`]) {
        const res = await resolve(url);
        expect(res.status, url).toBe(422);
        expect(res.body).toMatchObject({
          code: "invalid_url",
          errors: [{ pointer: "/url", reason: "malformed" }],
        });
      }
      const created = await sb.client.post("/monitor", {
        type: "http",
        url: `https://${host}/health`,
        locations: { pools: ["allworld"] },
      });
      expect(created.status, host).toBe(422);
      expect(created.body.code).toBe("invalid_url");
    }
  });

  it("validates its body and needs monitor:read", async () => {
    expect((await sb.client.post("/monitor/resolve", { url: "" })).body.code).toBe("validation_failed");
    expect((await sb.client.post("/monitor/resolve", { host: "x" })).body.code).toBe("validation_failed");
    expect((await sb.client.post("/monitor/resolve", { url: "x.com" }, { token: null })).status).toBe(401);
    const writer = await token(["monitor:write"]);
    const refused = await sb.client.post("/monitor/resolve", { url: "x.com" }, { token: writer });
    expect(refused.body.code).toBe("missing_scope");
    const family = await token(["monitor"]);
    expect((await sb.client.post("/monitor/resolve", { url: "x.com" }, { token: family })).status).toBe(200);
  });
});
