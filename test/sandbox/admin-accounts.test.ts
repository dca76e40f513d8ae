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
