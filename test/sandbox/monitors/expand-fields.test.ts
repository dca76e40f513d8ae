import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, httpMonitor, refusal } from "./fixtures.ts";

/** `expand` and `fields` on list rows and on a single read. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
let monitor: { id: string; settings: Record<string, unknown> } & Record<string, unknown>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
  monitor = await create(acct, httpMonitor({ name: "Expandable", attached: { dnsbl: true }, slaTarget: 99 }));
});
afterAll(() => sb.close());

const singleTokens = [
  "settings",
  "attached",
  "subscription",
  "lastIncident",
  "lastResult",
  "maintenance",
  "uptime",
  "spans",
  "summary",
];
const fieldNames = [
  "id",
  "type",
  "url",
  "effectiveUrl",
  "name",
  "interval",
  "cronSchedule",
  "enabled",
  "tags",
  "locations",
  "recheck",
  "openStat",
  "fullLog",
  "slaTarget",
  "state",
  "since",
  "created",
  "updated",
  "overlimited",
  "expirationDate",
  "certNotBefore",
  ...singleTokens,
];
/**
 * `allowed` of an unknown field names exactly these members. Its order follows the monitor kind's members
 * (the list is derived from the kind), so it is compared as a set.
 */
const allowedFields = expect.toSatisfy(
  (allowed: string[]) => JSON.stringify([...allowed].sort()) === JSON.stringify([...fieldNames].sort()),
  "the monitor's field names",
);

describe("list rows", () => {
  it("are bare by default", async () => {
    const [row] = (await acct.get("/monitor")).body.data;
    const { settings, ...top } = monitor;
    expect(row).toEqual(top);
    expect(settings).toBeDefined();
  });

  it("expand adds the named blocks", async () => {
    const [row] = (await acct.get("/monitor?expand=settings,subscription")).body.data;
    expect(row.settings).toEqual(monitor.settings);
    expect(row.subscription).toEqual({ alert: [], report: [] });
    expect(row).not.toHaveProperty("attached");
  });

  it("refuses an unknown token, listing the list's tokens", async () => {
    const res = await acct.get("/monitor?expand=settings,setings");
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_expand",
      errors: [
        { pointer: "/expand", parameter: "expand", value: "setings", allowed: [...singleTokens, "count"] },
      ],
    });
  });

  it("fields keeps the named members and always id", async () => {
    const [row] = (await acct.get("/monitor?fields=name,state")).body.data;
    expect(row).toEqual({ id: monitor.id, name: "Expandable", state: "up" });
    const [idOnly] = (await acct.get("/monitor?fields=id")).body.data;
    expect(idOnly).toEqual({ id: monitor.id });
  });

  it("fields also selects among expanded blocks", async () => {
    const [row] = (await acct.get("/monitor?expand=settings,subscription&fields=name,settings")).body.data;
    expect(row).toEqual({ id: monitor.id, name: "Expandable", settings: monitor.settings });
  });

  it("refuses an unknown field, listing the members", async () => {
    const res = await acct.get("/monitor?fields=name,title");
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_field",
      errors: [{ pointer: "/fields", parameter: "fields", value: "title", allowed: allowedFields }],
    });
  });
});

describe("single read", () => {
  it("expands settings by default", async () => {
    const res = await acct.get(`/monitor/${monitor.id}`);
    expect(res.body).toEqual(monitor);
  });

  it("a sent expand replaces the default", async () => {
    const res = await acct.get(`/monitor/${monitor.id}?expand=attached`);
    expect(res.body).not.toHaveProperty("settings");
    expect(res.body.attached.dnsbl).toEqual({ enabled: true, state: null, checkedAt: null });
    const both = await acct.get(`/monitor/${monitor.id}?expand=attached,settings`);
    expect(both.body.settings).toEqual(monitor.settings);
  });

  it("answers every block, empty until checks have run", async () => {
    const res = await acct.get(`/monitor/${monitor.id}?expand=${singleTokens.join(",")}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      subscription: { alert: [], report: [] },
      lastIncident: null,
      lastResult: null,
      maintenance: [],
      uptime: { uptimePercent: null, upSec: 0, downSec: 0, totalSec: 0 },
      spans: [],
      summary: { uptimePercent: null, slaTarget: 99, slaMet: null, incidents: 0 },
    });
  });

  it("refuses count and unknown tokens", async () => {
    for (const token of ["count", "history"]) {
      const res = await acct.get(`/monitor/${monitor.id}?expand=${token}`);
      expect(refusal(res)).toEqual({
        status: 422,
        code: "unknown_expand",
        errors: [{ pointer: "/expand", parameter: "expand", value: token, allowed: singleTokens }],
      });
    }
  });

  it("fields keeps the named members and id; settings only when named", async () => {
    expect((await acct.get(`/monitor/${monitor.id}?fields=name,state`)).body).toEqual({
      id: monitor.id,
      name: "Expandable",
      state: "up",
    });
    expect((await acct.get(`/monitor/${monitor.id}?fields=settings`)).body).toEqual({
      id: monitor.id,
      settings: monitor.settings,
    });
    const res = await acct.get(`/monitor/${monitor.id}?fields=nam`);
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_field",
      errors: [{ pointer: "/fields", parameter: "fields", value: "nam", allowed: allowedFields }],
    });
  });

  it("refuses other query parameters", async () => {
    const res = await acct.get(`/monitor/${monitor.id}?limit=1`);
    expect(refusal(res)).toEqual({
      status: 422,
      code: "unknown_parameter",
      errors: [{ pointer: "/limit", parameter: "limit", allowed: ["expand", "fields"] }],
    });
  });
});
