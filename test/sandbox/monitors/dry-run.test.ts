import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere, httpMonitor, refusal, uniqueUrl } from "./fixtures.ts";

/** POST /monitor?dryRun=true: the create's checks and answer, and nothing kept. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

type Account = Awaited<ReturnType<TestSandbox["account"]>>;
let keys = 0;
const key = () => ({ headers: { "Idempotency-Key": `dry-${++keys}` } });

async function footprint(acct: Account) {
  const monitors = (await acct.get("/monitor?expand=count&limit=1")).body.count.total;
  const contacts = (await acct.get("/contact?limit=500")).body.data.length;
  const messages = (await sb.outbox()).filter(
    (m: { accountId: string }) => m.accountId === acct.accountId,
  ).length;
  return { monitors, contacts, messages };
}

describe("dryRun=true", () => {
  it("answers 200 with the monitor as it would be created, and creates nothing", async () => {
    const acct = await sb.account();
    const before = await footprint(acct);
    const body = httpMonitor({
      name: "Preview",
      settings: { maxSize: 20 * 1024 * 1024 },
      contacts: [{ ref: "a", type: "email", address: "preview@example.com" }],
      alertSubscriptions: [{ contactRefs: ["a"], alertTypes: ["down"] }],
    });
    const res = await acct.post("/monitor?dryRun=true", body, key());
    expect(res.status, res.text).toBe(200);
    expect(res.headers).not.toHaveProperty("location");
    expect(res.body).toMatchObject({ dryRun: true, valid: true });
    expect(res.body.monitor).not.toHaveProperty("id");
    expect(res.body.monitor).toMatchObject({
      type: "http",
      url: body.url,
      name: "Preview",
      interval: 180,
      state: "up",
      settings: { maxSize: 10485760, method: "G" },
    });
    expect(await footprint(acct)).toEqual(before);
  });

  it("previews a disabled monitor when the plan has no room and onOverlimit is disable", async () => {
    const acct = await sb.account({ featureOverrides: { monitors: 1 } });
    await create(acct, httpMonitor());
    const res = await acct.post("/monitor?dryRun=true", httpMonitor({ onOverlimit: "disable" }));
    expect(res.body.monitor).toMatchObject({ enabled: false, overlimited: true, state: "paused" });
    expect((await footprint(acct)).monitors).toBe(1);
  });

  it("answers a fixed-cadence type's warnings", async () => {
    const acct = await sb.account();
    const res = await acct.post("/monitor?dryRun=true", {
      type: "dnsbl",
      url: "dry.example.com",
      interval: 60,
    });
    expect(res.body.monitor.warnings).toEqual([
      expect.objectContaining({ pointer: "/interval", reason: "ignored" }),
    ]);
  });

  it("leaves the address free: the real create that follows succeeds", async () => {
    const acct = await sb.account();
    const body = httpMonitor();
    expect((await acct.post("/monitor?dryRun=true", body)).status).toBe(200);
    expect((await acct.post("/monitor?dryRun=true", body)).status).toBe(200);
    const real = await acct.post("/monitor", body);
    expect(real.status, real.text).toBe(201);
  });

  it("dryRun=false creates; another value is refused", async () => {
    const acct = await sb.account();
    expect((await acct.post("/monitor?dryRun=false", httpMonitor())).status).toBe(201);
    const res = await acct.post("/monitor?dryRun=yes", httpMonitor());
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_enum_value",
      errors: [{ pointer: "/dryRun", parameter: "dryRun", value: "yes", allowed: ["true", "false"] }],
    });
  });
});

describe("the same refusals as a real create", () => {
  it.each<[string, (acct: Account) => Promise<{ body: Record<string, unknown>; options?: object }>]>([
    ["invalid_url", async () => ({ body: httpMonitor({ url: "ftp://x.example.com/" }) })],
    ["url_blacklisted", async () => ({ body: httpMonitor({ url: "https://x.blocked.test/" }) })],
    [
      "duplicate_monitor",
      async (acct) => {
        const url = uniqueUrl();
        await create(acct, httpMonitor({ url }));
        return { body: httpMonitor({ url }) };
      },
    ],
    ["invalid_interval", async () => ({ body: httpMonitor({ interval: 45 }) })],
    ["unknown_pool", async () => ({ body: httpMonitor({ locations: { pools: ["mars"] } }) })],
    ["insufficient_agents", async () => ({ body: httpMonitor({ locations: { pools: ["africa"] } }) })],
    [
      "invalid_settings",
      async () => ({ body: httpMonitor({ settings: { assertMode: true, keywords: "x" } }) }),
    ],
    [
      "monitor_type_discontinued",
      async () => ({ body: { type: "keyword", url: uniqueUrl(), locations: everywhere } }),
    ],
    ["validation_failed", async () => ({ body: { url: uniqueUrl(), locations: everywhere } })],
    ["package_limit", async () => ({ body: { type: "snmp" } })],
    [
      "unknown_contact_ref",
      async () => ({
        body: httpMonitor({
          contacts: [{ ref: "a", type: "email", address: "a@example.com" }],
          alertSubscriptions: [{ contactRefs: ["b"], alertTypes: ["down"] }],
        }),
        options: key(),
      }),
    ],
    [
      "idempotency_key_required",
      async () => ({
        body: httpMonitor({ contacts: [{ ref: "a", type: "email", address: "a@example.com" }] }),
      }),
    ],
  ])("%s", async (code, setup) => {
    const acct = await sb.account();
    const { body, options } = await setup(acct);
    const before = await footprint(acct);
    const dry = await acct.post("/monitor?dryRun=true", body, options);
    expect(refusal(dry).code).toBe(code);
    const real = await acct.post("/monitor", body, options && key());
    expect(refusal(dry)).toEqual(refusal(real));
    expect(await footprint(acct)).toEqual(before);
  });
});
