import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `POST /_sandbox/accounts` creates isolated accounts with an owner token. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("POST /_sandbox/accounts", () => {
  it("answers 201 {accountId, token}; the token reads its own account with the asked plan and login", async () => {
    const res = await sb.admin.post("/_sandbox/accounts", { plan: "trial", login: "new@example.com" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["accountId", "token"]);
    const client = new Client(sb.url, res.body.token);
    const account = await client.get("/account");
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ id: res.body.accountId, login: "new@example.com" });
    expect(account.body.package.name).toBe("trial");
    expect(account.body.limits.intervals).toEqual([180, 300, 600, 900, 1800, 3600]);
  });

  it("defaults to a metered business account with a generated login", async () => {
    const res = await sb.admin.post("/_sandbox/accounts", {});
    const client = new Client(sb.url, res.body.token);
    const account = await client.get("/account");
    expect(account.body.package.name).toBe("business");
    expect(account.body.login).toMatch(/@/);
    expect(account.headers["ratelimit-limit"]).toBe("60");
  });

  it("creates separate accounts each time, distinct from the default one", async () => {
    const a = await sb.admin.post("/_sandbox/accounts", {});
    const b = await sb.admin.post("/_sandbox/accounts", {});
    expect(new Set([a.body.accountId, b.body.accountId, sb.accountId]).size).toBe(3);
  });

  it("the owner token opens every account route", async () => {
    const acct = await sb.account();
    for (const path of ["/account", "/account/usage", "/account/member"]) {
      expect((await acct.get(path)).status, path).toBe(200);
    }
  });

  it("featureOverrides replace plan counts on GET /account", async () => {
    const acct = await sb.account({ plan: "trial", featureOverrides: { monitors: 2, cron: true } });
    const features = (await acct.get("/account")).body.package.features;
    expect(features.monitors).toBe(2);
    expect(features.cron).toBe(true);
  });

  it("validates its body like the API does", async () => {
    const badPlan = await sb.admin.post("/_sandbox/accounts", { plan: "platinum" });
    expect(badPlan.status).toBe(422);
    expect(badPlan.body.errors[0]).toMatchObject({ pointer: "/plan", reason: "not_allowed" });
    const unknown = await sb.admin.post("/_sandbox/accounts", { plna: "trial" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({
      pointer: "/plna",
      reason: "unknown_member",
      didYouMean: "plan",
    });
  });
});

describe("PATCH /_sandbox/accounts/{id}", () => {
  const http = (n: number) => ({
    type: "http",
    url: `https://plan-${n}.example.com/`,
    locations: { pools: ["allworld"] },
  });

  it("changes the plan, overrides, API access and balance, as GET /account reads them", async () => {
    const acct = await sb.account();
    const res = await sb.admin.patch(`/_sandbox/accounts/${acct.accountId}`, {
      plan: "trial",
      featureOverrides: { cron: true },
      smsBalance: 7,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      accountId: acct.accountId,
      plan: "trial",
      featureOverrides: { cron: true },
      apiEnabled: true,
      smsBalance: 7,
      disabledMonitors: [],
    });
    const account = (await acct.get("/account")).body;
    expect(account.package.name).toBe("trial");
    expect(account.package.features).toMatchObject({ cron: true, monitors: 50 });
    expect(account.limits.intervals).toEqual([180, 300, 600, 900, 1800, 3600]);
    expect(account.usage.smsBalance.allowed).toBe(7);

    // featureOverrides replaces the whole map.
    await sb.admin.patch(`/_sandbox/accounts/${acct.accountId}`, { featureOverrides: {} });
    expect((await acct.get("/account")).body.package.features.cron).toBe(false);

    await sb.admin.patch(`/_sandbox/accounts/${acct.accountId}`, { apiEnabled: false });
    expect((await sb.mint({ accountId: acct.accountId, scopes: ["monitor"] })).status).toBe(400);
  });

  it("disables the newest enabled monitors beyond the plan's count, and reports them in overlimits", async () => {
    const acct = await sb.account();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await acct.post("/monitor", http(i))).body.id);
    // A monitor the owner paused takes no part: only enabled monitors are counted and disabled.
    await acct.patch(`/monitor/${ids[1]}`, { enabled: false });
    const res = await sb.admin.patch(`/_sandbox/accounts/${acct.accountId}`, {
      featureOverrides: { monitors: 2 },
    });
    expect(res.body.disabledMonitors).toEqual([ids[3]]);
    const account = (await acct.get("/account")).body;
    expect(account.overlimits).toEqual([{ area: "monitors", used: 4, allowed: 2, disabled: [ids[3]] }]);
    expect(account.flags.overlimited).toBe(true);
    expect((await acct.get(`/monitor/${ids[3]}`)).body).toMatchObject({
      enabled: false,
      state: "paused",
      overlimited: true,
    });
    expect((await acct.get(`/monitor/${ids[1]}`)).body).not.toHaveProperty("overlimited");
    // Nothing is deleted.
    expect((await acct.get("/monitor")).body.data).toHaveLength(4);
  });

  it("a change with room to spare, or of API access alone, disables nothing", async () => {
    const acct = await sb.account({ featureOverrides: { monitors: 1 } });
    await acct.post("/monitor", http(10));
    await acct.post("/monitor", { ...http(11), onOverlimit: "disable" });
    const upgrade = await sb.admin.patch(`/_sandbox/accounts/${acct.accountId}`, { plan: "enterprise" });
    expect(upgrade.body.disabledMonitors).toEqual([]);
    const flags = await sb.admin.patch(`/_sandbox/accounts/${acct.accountId}`, { apiEnabled: true });
    expect(flags.body.disabledMonitors).toEqual([]);
  });

  it("answers 404 for an unknown account and validates its body", async () => {
    const missing = await sb.admin.patch("/_sandbox/accounts/nope", { plan: "trial" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
    const acct = await sb.account();
    const bad = await sb.admin.patch(`/_sandbox/accounts/${acct.accountId}`, { smsBalance: -1, login: "x" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      "/login",
      "/smsBalance",
    ]);
  });

  it("needs the admin token", async () => {
    const acct = await sb.account();
    const res = await acct.patch(`/_sandbox/accounts/${acct.accountId}`, { plan: "enterprise" });
    expect(res.status).toBe(401);
  });
});
