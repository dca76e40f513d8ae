import { describe, expect, it } from "vitest";
import { acct, enterprise, sb, useSandbox } from "./create-setup.ts";
import { create, everywhere, httpMonitor, refusal, uniqueUrl } from "./fixtures.ts";

/** POST /monitor: the answer, top-level members, type handling and unknown body members. */
useSandbox();

const createMembers = [
  "type",
  "url",
  "name",
  "interval",
  "cronSchedule",
  "enabled",
  "tags",
  "locations",
  "recheck",
  "attached",
  "openStat",
  "fullLog",
  "slaTarget",
  "onOverlimit",
  "contacts",
  "alertSubscriptions",
  "reportSubscriptions",
  "settings",
];

describe("create answer", () => {
  it("answers 201 with the full monitor, a Location header, and the same monitor on GET", async () => {
    const now = await sb.advance(0);
    const url = uniqueUrl();
    const res = await acct.post("/monitor", { type: "http", url, locations: everywhere });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/monitor/${res.body.id}`);
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const { settings, ...top } = res.body;
    expect(top).toEqual({
      id: res.body.id,
      type: "http",
      url,
      name: url,
      interval: 180,
      cronSchedule: null,
      enabled: true,
      tags: [],
      locations: { pools: ["allworld"], fallback: "starve", excludedAgents: [] },
      recheck: { strategy: "" },
      openStat: false,
      fullLog: false,
      slaTarget: null,
      state: "up",
      since: now,
      created: now,
      updated: now,
    });
    expect(settings).toMatchObject({ method: "G", timeout: 40000 });
    const read = await acct.get(res.headers.location!);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it("keeps the sent members: name, tags (a set), enabled, openStat, slaTarget, recheck", async () => {
    const body = await create(acct, {
      ...httpMonitor(),
      name: "Shop front",
      tags: ["prod", "shop", "prod"],
      enabled: false,
      openStat: true,
      slaTarget: 99.9,
      recheck: { strategy: "minNumDown", minNumDown: 3 },
    });
    expect(body).toMatchObject({
      name: "Shop front",
      tags: ["prod", "shop"],
      enabled: false,
      state: "paused",
      openStat: true,
      slaTarget: 99.9,
      recheck: { strategy: "minNumDown", minNumDown: 3 },
    });
  });

  it("refuses blank tags and minNumDown without its count", async () => {
    const blank = await acct.post("/monitor", httpMonitor({ tags: ["ok", "  "] }));
    expect(refusal(blank)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/tags/1", reason: "blank", value: "  " }],
    });
    const recheck = await acct.post("/monitor", httpMonitor({ recheck: { strategy: "minNumDown" } }));
    expect(refusal(recheck)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/recheck/minNumDown", reason: "required" }],
    });
  });
});

describe("top-level members", () => {
  it("refuses a name over 255 characters and an slaTarget outside 0-100", async () => {
    const res = await acct.post("/monitor", httpMonitor({ name: "n".repeat(256), slaTarget: 100.5 }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        { pointer: "/name", value: "n".repeat(256), reason: "too_long", maximum: 255 },
        { pointer: "/slaTarget", value: 100.5, reason: "out_of_range", maximum: 100 },
      ],
    });
  });

  it("recheck is kept with a warning where it has no effect (fixed-cadence types, counter)", async () => {
    const res = await acct.post("/monitor", {
      type: "sslExp",
      url: "recheck.example.com",
      recheck: { strategy: "noRecheck" },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.recheck).toEqual({ strategy: "noRecheck" });
    expect(res.body.warnings).toEqual([
      {
        pointer: "/recheck",
        reason: "no_effect",
        message: "sslExp monitors confirm failures their own way; recheck is kept but has no effect",
      },
    ]);
    const counter = await enterprise.post("/monitor", {
      type: "counter",
      settings: { probeUrl: "https://probe.internal/r" },
      recheck: { strategy: "fullAgreement" },
    });
    expect(counter.body.warnings).toEqual([
      expect.objectContaining({ pointer: "/recheck", reason: "no_effect" }),
    ]);
    expect((await create(acct, { type: "sslExp", url: "no-recheck.example.com" })).recheck).toBeUndefined();
  });

  it("fullLog is a plan feature", async () => {
    const trial = await sb.account({ plan: "trial" });
    const res = await trial.post("/monitor", httpMonitor({ fullLog: true }));
    expect(refusal(res)).toEqual({ status: 403, code: "package_limit", feature: "fullLog" });
    expect((await create(trial, httpMonitor({ fullLog: false }))).fullLog).toBe(false);
    expect((await create(acct, httpMonitor({ fullLog: true }))).fullLog).toBe(true);
  });
});

describe("type", () => {
  it("is required", async () => {
    const res = await acct.post("/monitor", { url: uniqueUrl(), locations: everywhere });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/type", reason: "required" }],
    });
  });

  it("refuses an unknown type with the accepted names and a suggestion", async () => {
    const res = await acct.post("/monitor", { type: "htp", url: uniqueUrl(), locations: everywhere });
    const out = refusal(res);
    expect(out).toMatchObject({ status: 422, code: "validation_failed" });
    expect(out.errors).toEqual([
      {
        pointer: "/type",
        reason: "not_allowed",
        value: "htp",
        allowed: expect.arrayContaining(["http", "api", "waterfall", "pageSpeed", "snmp"]),
        didYouMean: "http",
      },
    ]);
  });

  it.each(["keyword", "rum"])("refuses the discontinued type %s", async (type) => {
    const res = await acct.post("/monitor", { type, url: uniqueUrl(), locations: everywhere });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "monitor_type_discontinued",
      errors: [
        {
          pointer: "/type",
          value: type,
          allowed: [
            "http",
            "api",
            "waterfall",
            "cntCheck",
            "tran",
            "ping",
            "port",
            "dnsbl",
            "domainExp",
            "sslExp",
            "webRisk",
            "counter",
            "database",
            "snmp",
          ],
        },
      ],
    });
  });

  it("takes pageSpeed as an alias of waterfall and stores waterfall", async () => {
    const body = await create(acct, { type: "pageSpeed", url: uniqueUrl(), locations: everywhere });
    expect(body.type).toBe("waterfall");
    expect((await acct.get(`/monitor?type=waterfall&fields=type`)).body.data).toContainEqual({
      id: body.id,
      type: "waterfall",
    });
  });

  it.each([
    ["api", "apiTask", { contentType: "application/json" }],
    ["waterfall", "waterfall", undefined],
    ["cntCheck", "contentCheck", { keyword: "Welcome" }],
    ["webRisk", "webRisk", undefined],
  ])("a trial plan refuses %s monitors with 403 package_limit naming %s", async (type, feature, settings) => {
    const trial = await sb.account({ plan: "trial" });
    const locations = type === "webRisk" ? {} : { locations: everywhere };
    const res = await trial.post("/monitor", { type, url: uniqueUrl(), ...locations, settings });
    expect(refusal(res)).toEqual({ status: 403, code: "package_limit", feature });
  });

  it("a trial plan has no room for tran monitors (feature tranCount)", async () => {
    const trial = await sb.account({ plan: "trial" });
    const res = await trial.post("/monitor", {
      type: "tran",
      url: uniqueUrl(),
      locations: everywhere,
      settings: { steps: [{ action: "click", selector: "#go" }] },
    });
    expect(refusal(res)).toEqual({ status: 403, code: "package_limit", feature: "tranCount", limit: 0 });
  });

  it.each(["counter", "database", "snmp"])(
    "a business plan refuses %s monitors (feature privateChecks)",
    async (type) => {
      const res = await acct.post("/monitor", { type });
      expect(refusal(res)).toEqual({ status: 403, code: "package_limit", feature: "privateChecks" });
    },
  );
});

describe("body members", () => {
  it("refuses read-only members as unknown members, listing what a create accepts", async () => {
    const res = await acct.post("/monitor", {
      ...httpMonitor(),
      id: "mine",
      state: "down",
      created: 1,
      effectiveUrl: "https://x.example.com/",
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: ["id", "state", "created", "effectiveUrl"].map((member) => ({
        pointer: `/${member}`,
        reason: "unknown_member",
        allowed: createMembers,
      })),
    });
  });

  it("suggests the member a misspelling meant, and refuses update-only members", async () => {
    const res = await acct.post("/monitor", { ...httpMonitor(), intervall: 300, addTags: ["x"] });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        { pointer: "/intervall", reason: "unknown_member", allowed: createMembers, didYouMean: "interval" },
        { pointer: "/addTags", reason: "unknown_member", allowed: createMembers },
      ],
    });
  });

  it("reports a wrong JSON type with the expected type", async () => {
    const res = await acct.post("/monitor", { ...httpMonitor(), enabled: "yes", interval: 60.5 });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        { pointer: "/interval", reason: "wrong_type", value: 60.5, expected: "integer" },
        { pointer: "/enabled", reason: "wrong_type", value: "yes", expected: "boolean" },
      ],
    });
  });
});
