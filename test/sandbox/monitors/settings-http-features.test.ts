import { describe, expect, it } from "vitest";
import { create, everywhere, httpMonitor, refusal, uniqueUrl } from "./fixtures.ts";
import { business, enterprise, post, trial, useSandbox, withSettings } from "./settings-http-setup.ts";

/** http settings: assertions, presets, plan features and attached sub-checks. */
useSandbox();

describe("assertMode and assertions", () => {
  it("refuses keyword and status members while assertMode is on", async () => {
    const res = await post(business, {
      assertMode: true,
      keywords: "ok",
      keywordMode: "PresentAll",
      ignoredStatuses: [404],
      errorStatuses: [500],
      errorOnRedirect: true,
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [
        { pointer: "/settings/keywords", reason: "excluded_by_assert_mode", value: "ok" },
        { pointer: "/settings/keywordMode", reason: "excluded_by_assert_mode", value: "PresentAll" },
        { pointer: "/settings/ignoredStatuses", reason: "excluded_by_assert_mode", value: [404] },
        { pointer: "/settings/errorStatuses", reason: "excluded_by_assert_mode", value: [500] },
        { pointer: "/settings/errorOnRedirect", reason: "excluded_by_assert_mode", value: true },
      ],
    });
  });

  it("reads back without the excluded members while assertMode is on", async () => {
    const body = await create(business, withSettings({ assertMode: true, assertsSource: "status eq 200" }));
    expect(body.settings.assertMode).toBe(true);
    for (const member of ["keywordMode", "errorOnRedirect"]) expect(body.settings).not.toHaveProperty(member);
  });

  it("parses assertsSource into asserts and reads it back as assertsText", async () => {
    const source = [
      "status eq 200",
      "",
      "# the API answers JSON",
      "header[Content-Type] contains json",
      'json[$.status] eq "all good"',
      "responseTime lt 800",
    ].join("\n");
    const body = await create(business, withSettings({ assertMode: true, assertsSource: source }));
    expect(body.settings.asserts).toEqual([
      { source: "status", comparison: "eq", target: "200" },
      { source: "header", property: "Content-Type", comparison: "contains", target: "json" },
      { source: "json", property: "$.status", comparison: "eq", target: "all good" },
      { source: "responseTime", comparison: "lt", target: "800" },
    ]);
    expect(body.settings.assertsText).toBe(
      'status eq 200\nheader[Content-Type] contains json\njson[$.status] eq "all good"\nresponseTime lt 800',
    );
    expect(body.settings).not.toHaveProperty("assertsSource");
  });

  it("takes asserts rows directly", async () => {
    const asserts = [{ source: "header", property: "ETag", comparison: "exists" }];
    const body = await create(business, withSettings({ asserts }));
    expect(body.settings.asserts).toEqual(asserts);
    expect(body.settings.assertsText).toBe("header[ETag] exists");
  });

  it("names the line of each syntax error", async () => {
    const res = await post(business, {
      assertsSource: "status eq 200\nbogus eq 1\nheader contains x\nstatus eq",
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [
        { pointer: "/settings/assertsSource", reason: "syntax", line: 2 },
        { pointer: "/settings/assertsSource", reason: "syntax", line: 3 },
        { pointer: "/settings/assertsSource", reason: "syntax", line: 4 },
      ],
    });
  });

  it("refuses asserts together with assertsSource", async () => {
    const res = await post(business, {
      asserts: [{ source: "status", comparison: "eq", target: "200" }],
      assertsSource: "status eq 200",
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/assertsSource", reason: "mutually_exclusive" }],
    });
  });

  it("is a plan feature: trial has none, business caps rules at 10, the service at 20", async () => {
    const none = await post(trial, { assertsSource: "status eq 200" });
    expect(refusal(none)).toEqual({
      status: 403,
      code: "package_limit",
      feature: "assertions",
      errors: [{ pointer: "/settings/asserts" }],
    });
    const mode = await post(trial, { assertMode: true });
    expect(refusal(mode)).toEqual({
      status: 403,
      code: "package_limit",
      feature: "assertions",
      errors: [{ pointer: "/settings/assertMode" }],
    });
    const rules = (n: number) => Array.from({ length: n }, (_, i) => `status neq ${500 + i}`).join("\n");
    await create(business, withSettings({ assertsSource: rules(10) }));
    const eleven = await post(business, { assertsSource: rules(11) });
    expect(refusal(eleven)).toEqual({
      status: 403,
      code: "package_limit",
      feature: "assertions",
      limit: 10,
      errors: [{ pointer: "/settings/asserts" }],
    });
    await create(enterprise, withSettings({ assertsSource: rules(20) }));
    const many = await post(enterprise, { assertsSource: rules(21) });
    expect(refusal(many)).toMatchObject({ status: 422, code: "validation_failed" });
    expect(refusal(many).errors).toEqual([
      expect.objectContaining({ pointer: "/settings/asserts", reason: "too_many", maximum: 20 }),
    ]);
  });
});

describe("preset", () => {
  it("builds the entire settings object and pins the pools", async () => {
    const body = await create(business, { type: "http", url: uniqueUrl(), settings: { preset: "bl:ru" } });
    expect(body.locations.pools).toEqual(["easteurope", "asia"]);
    expect(body.settings).toMatchObject({ preset: "bl:ru", method: "G", timeout: 30000, maxRedirects: 5 });
  });

  it("must be sent alone", async () => {
    const res = await post(business, { preset: "bl:ru", timeout: 1000 });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/preset", reason: "must_be_alone" }],
    });
  });

  it("refuses pools other than the pinned ones, and accepts them sent back", async () => {
    const res = await business.post("/monitor", {
      type: "http",
      url: uniqueUrl(),
      locations: { pools: ["westeurope"] },
      settings: { preset: "bl:ru" },
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/locations/pools",
          value: ["westeurope"],
          allowed: [["easteurope", "asia"]],
          reason: "pinned_by_preset",
        },
      ],
    });
    const same = await create(business, {
      type: "http",
      url: uniqueUrl(),
      locations: { pools: ["Asia", "easteurope"] },
      settings: { preset: "bl:ru" },
    });
    expect(same.locations.pools).toEqual(["easteurope", "asia"]);
  });

  it("refuses an unknown preset", async () => {
    const res = await post(business, { preset: "bl:us" });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/settings/preset",
          reason: "not_allowed",
          value: "bl:us",
          allowed: ["bl:ru"],
          didYouMean: "bl:ru",
        },
      ],
    });
  });

  it("clearing the preset frees the pools", async () => {
    const body = await create(business, { type: "http", url: uniqueUrl(), settings: { preset: "bl:ru" } });
    const res = await business.patch(`/monitor/${body.id}`, {
      settings: { preset: null, timeout: 5000 },
      locations: { pools: ["westeurope"] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.locations.pools).toEqual(["westeurope"]);
    expect(res.body.settings).not.toHaveProperty("preset");
    expect(res.body.settings.timeout).toBe(5000);
  });
});

describe("plan features", () => {
  it.each([
    ["dnsManual", { dns: ["1.1.1.1"] }, "/settings/dns"],
    ["dnsPublic", { publicDns: 1 }, "/settings/publicDns"],
    ["sslPolicy", { requireValidChain: true }, "/settings/requireValidChain"],
    ["sslPolicy", { requireStrongTls: true }, "/settings/requireStrongTls"],
    ["sslPolicy", { blockWeakCiphers: true }, "/settings/blockWeakCiphers"],
    ["attachedChecks", { attached: { dnsbl: true } }, "/settings/attached"],
  ])("a trial plan refuses %s (%j)", async (feature, settings, pointer) => {
    const res = await post(trial, settings);
    expect(refusal(res)).toEqual({ status: 403, code: "package_limit", feature, errors: [{ pointer }] });
  });

  it("the off values of those members need no feature", async () => {
    const body = await create(
      trial,
      withSettings({ dns: [], publicDns: 0, requireValidChain: false, attached: { dnsbl: false } }),
    );
    expect(body.settings.dns).toEqual([]);
  });

  it("revocation checks need their own feature, which business lacks", async () => {
    await create(business, withSettings({ requireValidChain: true, dns: ["1.1.1.1"], publicDns: 2 }));
    const res = await post(business, { checkRevocation: true });
    expect(refusal(res)).toEqual({
      status: 403,
      code: "package_limit",
      feature: "certRevocation",
      errors: [{ pointer: "/settings/checkRevocation" }],
    });
    expect((await create(enterprise, withSettings({ checkRevocation: true }))).settings.checkRevocation).toBe(
      true,
    );
  });
});

describe("attached sub-checks", () => {
  it("takes the top-level alias, each kind as a boolean or {enabled}", async () => {
    const body = await create(
      business,
      httpMonitor({ attached: { sslExp: true, dnsbl: { enabled: true } } }),
    );
    expect(body.settings.attached).toEqual({
      dnsbl: { enabled: true },
      sslExp: { enabled: true },
      domainExp: { enabled: false },
      webRisk: { enabled: false },
    });
    expect(body).not.toHaveProperty("attached");
  });

  it("takes settings.attached the same way", async () => {
    const body = await create(
      business,
      withSettings({ attached: { webRisk: { enabled: true }, domainExp: false } }),
    );
    expect(body.settings.attached).toMatchObject({
      webRisk: { enabled: true },
      domainExp: { enabled: false },
    });
  });

  it("refuses an unknown kind", async () => {
    const res = await business.post("/monitor", httpMonitor({ attached: { malware: true } }));
    expect(refusal(res)).toMatchObject({ status: 422, code: "validation_failed" });
    expect(refusal(res).errors).toEqual([
      expect.objectContaining({ pointer: "/attached/malware", reason: "unknown_member" }),
    ]);
  });

  it("refuses a settings.attached that is not an object as wrong_type, on create and on update", async () => {
    for (const attached of [true, "yes", ["dnsbl"]]) {
      const res = await business.post("/monitor", withSettings({ attached }));
      expect(refusal(res), JSON.stringify(attached)).toEqual({
        status: 422,
        code: "validation_failed",
        errors: [
          { pointer: "/settings/attached", reason: "wrong_type", value: attached, expected: "object" },
        ],
      });
    }
    const body = await create(business, httpMonitor({ attached: { dnsbl: true } }));
    const res = await business.patch(`/monitor/${body.id}`, { settings: { attached: true } });
    expect(refusal(res)).toMatchObject({
      status: 422,
      errors: [{ pointer: "/settings/attached", reason: "wrong_type" }],
    });
    expect((await business.get(`/monitor/${body.id}`)).body.settings.attached.dnsbl).toEqual({
      enabled: true,
    });
  });

  it("reads back on GET with expand=attached as per-kind blocks", async () => {
    const body = await create(business, {
      type: "http",
      url: uniqueUrl(),
      locations: everywhere,
      attached: { dnsbl: true },
    });
    const res = await business.get(`/monitor/${body.id}?expand=attached`);
    expect(res.body.attached).toEqual({
      dnsbl: { enabled: true, state: null, checkedAt: null },
      sslExp: { enabled: false, state: null, checkedAt: null },
      domainExp: { enabled: false, state: null, checkedAt: null },
      webRisk: { enabled: false, state: null, checkedAt: null },
    });
    expect(res.body).not.toHaveProperty("settings");
  });
});
