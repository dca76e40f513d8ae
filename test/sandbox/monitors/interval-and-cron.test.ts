import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere, httpMonitor, refusal, uniqueUrl } from "./fixtures.ts";

/** `interval` against the service, the plan and the type's floor; `cronSchedule`. */
let sb: TestSandbox;
let business: Awaited<ReturnType<TestSandbox["account"]>>;
let trial: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  business = await sb.account();
  trial = await sb.account({ plan: "trial" });
});
afterAll(() => sb.close());

const businessIntervals = [30, 60, 120, 180, 300, 600, 900, 1800, 3600];
const trialIntervals = [180, 300, 600, 900, 1800, 3600];
const browser = (type: string, extra: Record<string, unknown> = {}) => ({
  type,
  url: uniqueUrl(),
  locations: everywhere,
  ...(type === "cntCheck" && { settings: { keyword: "Welcome" } }),
  ...(type === "tran" && { settings: { steps: [{ action: "click", selector: "#go" }] } }),
  ...extra,
});

describe("interval", () => {
  it("defaults to 180 seconds", async () => {
    expect((await create(business, httpMonitor())).interval).toBe(180);
    expect((await create(trial, httpMonitor())).interval).toBe(180);
  });

  it.each([
    ["waterfall", 600],
    ["cntCheck", 300],
    ["tran", 300],
  ])("defaults to the type's floor when that is above 180 (%s: %i)", async (type, floor) => {
    expect((await create(business, browser(type))).interval).toBe(floor);
  });

  it("keeps an interval the plan offers", async () => {
    expect((await create(business, httpMonitor({ interval: 30 }))).interval).toBe(30);
    expect((await create(business, browser("waterfall", { interval: 900 }))).interval).toBe(900);
  });

  it("refuses a value the service does not offer, listing the account's intervals", async () => {
    for (const [client, allowed] of [
      [business, businessIntervals],
      [trial, trialIntervals],
    ] as const) {
      const res = await client.post("/monitor", httpMonitor({ interval: 45 }));
      expect(refusal(res)).toEqual({
        status: 422,
        code: "invalid_interval",
        errors: [{ pointer: "/interval", value: 45, allowed }],
      });
    }
  });

  it("refuses an interval below the type's floor", async () => {
    const res = await business.post("/monitor", browser("waterfall", { interval: 300 }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "interval_below_type_floor",
      minInterval: 600,
      errors: [{ pointer: "/interval", value: 300, minimum: 600 }],
    });
  });

  it("answers 422 invalid_interval for a service interval the plan lacks, as for any other", async () => {
    const fast = await business.post("/monitor", httpMonitor({ interval: 10 }));
    expect(refusal(fast)).toEqual({
      status: 422,
      code: "invalid_interval",
      errors: [{ pointer: "/interval", value: 10, allowed: businessIntervals }],
    });
    const trialFast = await trial.post("/monitor", httpMonitor({ interval: 60 }));
    expect(refusal(trialFast)).toEqual({
      status: 422,
      code: "invalid_interval",
      errors: [{ pointer: "/interval", value: 60, allowed: trialIntervals }],
    });
    const body = await create(trial, httpMonitor());
    const patched = await trial.patch(`/monitor/${body.id}`, { interval: 60 });
    expect(refusal(patched)).toEqual({
      status: 422,
      code: "invalid_interval",
      errors: [{ pointer: "/interval", value: 60, allowed: trialIntervals }],
    });
  });

  it("lets an enterprise plan run http every 10 seconds", async () => {
    const enterprise = await sb.account({ plan: "enterprise" });
    expect((await create(enterprise, httpMonitor({ interval: 10 }))).interval).toBe(10);
  });

  it.each([
    ["dnsbl", 21600],
    ["domainExp", 21600],
    ["sslExp", 21600],
    ["webRisk", 43200],
  ])("%s ignores interval with a warning and runs every %i seconds", async (type, fixed) => {
    const res = await business.post("/monitor", {
      type,
      url: `${type.toLowerCase()}.example.com`,
      interval: 60,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.interval).toBe(fixed);
    expect(res.body.warnings).toEqual([
      {
        pointer: "/interval",
        value: 60,
        reason: "ignored",
        message: `${type} monitors run every ${fixed} seconds; interval is ignored`,
      },
    ]);
    // The warning belongs to the write that caused it, not to the monitor.
    expect((await business.get(`/monitor/${res.body.id}`)).body).not.toHaveProperty("warnings");
  });

  it("gives no warning when a fixed-cadence type is sent no interval", async () => {
    const body = await create(business, { type: "dnsbl", url: "quiet.example.com" });
    expect(body).not.toHaveProperty("warnings");
  });
});

describe("package_interval_conflict: a stored interval the plan no longer offers", () => {
  async function downgraded() {
    const acct = await sb.account();
    const fast = await create(acct, httpMonitor({ interval: 60 }));
    const slow = await create(acct, httpMonitor({ interval: 300 }));
    const res = await sb.admin.patch(`/_sandbox/accounts/${acct.accountId}`, { plan: "trial" });
    expect(res.status, res.text).toBe(200);
    return { acct, fast, slow };
  }

  it("keeps the monitor as it was, but refuses any update that leaves the interval", async () => {
    const { acct, fast } = await downgraded();
    expect((await acct.get(`/monitor/${fast.id}`)).body).toMatchObject({ interval: 60, enabled: true });
    for (const body of [{ name: "Renamed" }, { interval: 60 }, { enabled: false }, {}]) {
      const res = await acct.patch(`/monitor/${fast.id}`, body);
      expect(refusal(res), JSON.stringify(body)).toEqual({
        status: 403,
        code: "package_interval_conflict",
        errors: [{ pointer: "/interval", value: 60, allowed: trialIntervals }],
      });
    }
  });

  it("an update choosing an interval the plan offers goes through; another is invalid_interval", async () => {
    const { acct, fast } = await downgraded();
    const other = await acct.patch(`/monitor/${fast.id}`, { interval: 30, name: "Renamed" });
    expect(refusal(other)).toEqual({
      status: 422,
      code: "invalid_interval",
      errors: [{ pointer: "/interval", value: 30, allowed: trialIntervals }],
    });
    const fixed = await acct.patch(`/monitor/${fast.id}`, { interval: 600, name: "Renamed" });
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.body).toMatchObject({ interval: 600, name: "Renamed" });
  });

  it("monitors whose interval the new plan offers update as before", async () => {
    const { acct, slow } = await downgraded();
    const res = await acct.patch(`/monitor/${slow.id}`, { name: "Still fine" });
    expect(res.status, res.text).toBe(200);
  });
});

describe("cronSchedule", () => {
  it("is stored as sent", async () => {
    const body = await create(business, httpMonitor({ cronSchedule: "*/5 9-17 * * MON-FRI" }));
    expect(body.cronSchedule).toBe("*/5 9-17 * * MON-FRI");
    expect((await business.get(`/monitor/${body.id}`)).body.cronSchedule).toBe("*/5 9-17 * * MON-FRI");
  });

  it("refuses an expression that is not 5-field cron", async () => {
    for (const cronSchedule of ["*/5 * * *", "0 25 * * *", "0 0 ? * MON"]) {
      const res = await business.post("/monitor", httpMonitor({ cronSchedule }));
      expect(refusal(res)).toEqual({
        status: 422,
        code: "validation_failed",
        errors: [{ pointer: "/cronSchedule", value: cronSchedule, reason: "invalid_cron" }],
      });
    }
  });

  it("is a plan feature: a trial plan answers 403 package_limit, feature cron", async () => {
    const res = await trial.post("/monitor", httpMonitor({ cronSchedule: "0 * * * *" }));
    expect(refusal(res)).toEqual({ status: 403, code: "package_limit", feature: "cron" });
  });

  it("is refused on fixed-cadence types", async () => {
    const res = await business.post("/monitor", {
      type: "sslExp",
      url: "cron.example.com",
      cronSchedule: "0 * * * *",
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/cronSchedule", reason: "not_allowed" }],
    });
  });

  it("null returns the monitor to its interval", async () => {
    const body = await create(business, httpMonitor({ interval: 300, cronSchedule: "0 * * * *" }));
    const res = await business.patch(`/monitor/${body.id}`, { cronSchedule: null });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ cronSchedule: null, interval: 300 });
  });

  it("null is accepted on create and on a trial plan", async () => {
    expect((await create(trial, httpMonitor({ cronSchedule: null }))).cronSchedule).toBeNull();
  });
});
