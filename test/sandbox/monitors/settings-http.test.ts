import { describe, expect, it } from "vitest";
import { create, refusal } from "./fixtures.ts";
import { business, post, useSandbox, withSettings } from "./settings-http-setup.ts";

/** http settings: bounds, enums and stored forms. */
useSandbox();

describe("bounds and enums", () => {
  it.each([
    ["timeout", 49, { minimum: 50 }],
    ["timeout", 100001, { maximum: 100000 }],
    ["maxRedirects", 0, { minimum: 1 }],
    ["maxRedirects", 21, { maximum: 20 }],
    ["maxSize", 1023, { minimum: 1024 }],
    ["maxSize", 52428801, { maximum: 52428800 }],
  ])("refuses %s = %i", async (member, value, bound) => {
    const res = await post(business, { [member]: value });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: `/settings/${member}`, value, reason: "out_of_range", ...bound }],
    });
  });

  it("keeps values on the bounds", async () => {
    const body = await create(business, withSettings({ timeout: 50, maxRedirects: 20, maxSize: 1024 }));
    expect(body.settings).toMatchObject({ timeout: 50, maxRedirects: 20, maxSize: 1024 });
  });

  it("refuses a method outside H G P U D A; OPTIONS cannot be set", async () => {
    const res = await post(business, { method: "O" });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/settings/method",
          reason: "not_allowed",
          value: "O",
          allowed: ["H", "G", "P", "U", "D", "A"],
        },
      ],
    });
  });

  it("suggests the enum value a near miss meant", async () => {
    const res = await post(business, { keywordMode: "PresentAl", authSchema: "basic" });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/settings/authSchema",
          reason: "not_allowed",
          value: "basic",
          allowed: ["Basic"],
          didYouMean: "Basic",
        },
        {
          pointer: "/settings/keywordMode",
          reason: "not_allowed",
          value: "PresentAl",
          allowed: ["PresentAny", "PresentAll", "ReverseAny", "ReverseAll", "ReverseWithResult"],
          didYouMean: "PresentAll",
        },
      ],
    });
  });

  it("refuses status codes outside 100-599 and more than 20 of them", async () => {
    const res = await post(business, {
      ignoredStatuses: [404, 600],
      errorStatuses: Array.from({ length: 21 }, (_, i) => 500 + i),
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        { pointer: "/settings/ignoredStatuses/1", value: 600, reason: "out_of_range", maximum: 599 },
        {
          pointer: "/settings/errorStatuses",
          value: Array.from({ length: 21 }, (_, i) => 500 + i),
          reason: "too_many",
          maximum: 20,
        },
      ],
    });
  });

  it("refuses over-long strings: keywords 255, body 2047, referer 1023", async () => {
    const res = await post(business, {
      keywords: "k".repeat(256),
      body: "b".repeat(2048),
      referer: "r".repeat(1024),
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        { pointer: "/settings/body", value: "b".repeat(2048), reason: "too_long", maximum: 2047 },
        { pointer: "/settings/referer", value: "r".repeat(1024), reason: "too_long", maximum: 1023 },
        { pointer: "/settings/keywords", value: "k".repeat(256), reason: "too_long", maximum: 255 },
      ],
    });
  });

  it("refuses DNS lists that are too long or hold a non-address", async () => {
    const res = await post(business, {
      dns: ["1.1.1.1", "1.0.0.1", "8.8.8.8", "8.8.4.4", "9.9.9.9"],
      expectedIps: ["10.0.0"],
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/settings/dns",
          value: ["1.1.1.1", "1.0.0.1", "8.8.8.8", "8.8.4.4", "9.9.9.9"],
          reason: "too_many",
          maximum: 4,
        },
        { pointer: "/settings/expectedIps/0", value: "10.0.0", reason: "invalid_format", expected: "ip" },
      ],
    });
  });

  it("refuses certWatchDays outside 1-3650 and more than 8 thresholds", async () => {
    const res = await post(business, { certWatchDays: [0, 3651] });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        { pointer: "/settings/certWatchDays/0", value: 0, reason: "out_of_range", minimum: 1 },
        { pointer: "/settings/certWatchDays/1", value: 3651, reason: "out_of_range", maximum: 3650 },
      ],
    });
    const many = await post(business, { certWatchDays: [1, 2, 3, 4, 5, 6, 7, 8, 9] });
    expect(refusal(many).errors).toEqual([
      {
        pointer: "/settings/certWatchDays",
        value: [1, 2, 3, 4, 5, 6, 7, 8, 9],
        reason: "too_many",
        maximum: 8,
      },
    ]);
  });

  it("refuses an unknown settings member with a suggestion", async () => {
    const res = await post(business, { timeuot: 1000 });
    const [entry] = refusal(res).errors as Array<Record<string, unknown>>;
    expect(entry).toMatchObject({
      pointer: "/settings/timeuot",
      reason: "unknown_member",
      didYouMean: "timeout",
    });
    expect(entry!.allowed).toContain("keywordMode");
    expect(entry!.allowed).not.toContain("assertsText");
  });

  it("refuses the read-only assertsText and forceRecheck", async () => {
    const res = await post(business, { assertsText: "status eq 200", forceRecheck: true });
    expect((refusal(res).errors as Array<Record<string, unknown>>).map((e) => [e.pointer, e.reason])).toEqual(
      [
        ["/settings/assertsText", "unknown_member"],
        ["/settings/forceRecheck", "unknown_member"],
      ],
    );
  });
});

describe("stored forms", () => {
  it("stores maxSize above 10485760 as 10485760", async () => {
    const body = await create(business, withSettings({ maxSize: 20 * 1024 * 1024 }));
    expect(body.settings.maxSize).toBe(10485760);
    expect((await business.get(`/monitor/${body.id}`)).body.settings.maxSize).toBe(10485760);
  });

  it("drops the connection, content-length and date headers, whatever their case", async () => {
    const body = await create(
      business,
      withSettings({
        headers: [
          { name: "Connection", value: "close" },
          { name: "X-Trace", value: "1" },
          { name: "content-length", value: "10" },
          { name: "DATE", value: "now" },
          { name: "Accept-Language", value: "en" },
        ],
      }),
    );
    expect(body.settings.headers).toEqual([
      { name: "X-Trace", value: "1" },
      { name: "Accept-Language", value: "en" },
    ]);
  });

  it("limits all header names and values together to 1023 characters", async () => {
    const ok = await create(business, withSettings({ headers: [{ name: "X-A", value: "a".repeat(1020) }] }));
    expect(ok.settings.headers[0].value).toHaveLength(1020);
    const res = await post(business, {
      headers: [
        { name: "X-A", value: "a".repeat(1000) },
        { name: "X-B", value: "b".repeat(18) },
      ],
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/headers", reason: "too_long" }],
    });
  });
});
