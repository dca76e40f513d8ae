import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere, refusal, uniqueUrl } from "./fixtures.ts";

/** Browser checks: waterfall thresholds and devices, cntCheck keywords, tran steps. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

const monitor = (type: string, settings?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type,
  url: uniqueUrl(),
  locations: everywhere,
  settings,
  ...extra,
});
const click = { action: "click", selector: "#go" };

describe("waterfall", () => {
  it("keeps thresholds on their bounds", async () => {
    const settings = { timeout: 40000, xhr: 1, totalCount: 50, onImage: 3, onRam: 1000, onConsoleError: 50 };
    expect((await create(acct, monitor("waterfall", settings))).settings).toMatchObject(settings);
  });

  it.each([
    ["timeout", 40001, 40000],
    ["xhr", 40001, 40000],
    ["totalCount", 51, 50],
    ["onScript", 51, 50],
    ["onRam", 1001, 1000],
    ["onConsoleWarning", 51, 50],
  ])("refuses %s = %i", async (member, value, maximum) => {
    const res = await acct.post("/monitor", monitor("waterfall", { [member]: value }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: `/settings/${member}`, value, reason: "out_of_range", maximum }],
    });
  });

  it("takes onCpu as 0 (off) or 80-100", async () => {
    for (const onCpu of [0, 80, 100]) {
      expect((await create(acct, monitor("waterfall", { onCpu }))).settings.onCpu).toBe(onCpu);
    }
    const low = await acct.post("/monitor", monitor("waterfall", { onCpu: 79 }));
    expect(refusal(low)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/onCpu", reason: "out_of_range", value: 79 }],
    });
    const high = await acct.post("/monitor", monitor("waterfall", { onCpu: 101 }));
    expect(refusal(high)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/settings/onCpu", reason: "out_of_range", value: 101, maximum: 100 }],
    });
  });

  it("emulates a device from the device list", async () => {
    expect(
      (await create(acct, monitor("waterfall", { deviceEmulation: "Pixel 8" }))).settings.deviceEmulation,
    ).toBe("Pixel 8");
    const res = await acct.post("/monitor", monitor("waterfall", { deviceEmulation: "Nokia 3310" }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [
        {
          pointer: "/settings/deviceEmulation",
          reason: "not_allowed",
          value: "Nokia 3310",
          allowed: ["Desktop", "Laptop", "iPhone 15", "Pixel 8", "iPad"],
        },
      ],
    });
  });

  it("carries no attached checks", async () => {
    const res = await acct.post("/monitor", monitor("waterfall", undefined, { attached: { dnsbl: true } }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/attached", reason: "not_allowed" }],
    });
  });
});

describe("cntCheck", () => {
  it("needs a keyword of 1-255 characters; several are separated by ;", async () => {
    const missing = await acct.post("/monitor", monitor("cntCheck"));
    expect(refusal(missing)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/keyword", reason: "required" }],
    });
    const empty = await acct.post("/monitor", monitor("cntCheck", { keyword: "" }));
    expect(refusal(empty)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/settings/keyword", value: "", reason: "too_short", minimum: 1 }],
    });
    const long = await acct.post("/monitor", monitor("cntCheck", { keyword: "k".repeat(256) }));
    expect(refusal(long).errors).toEqual([
      { pointer: "/settings/keyword", value: "k".repeat(256), reason: "too_long", maximum: 255 },
    ]);
    const body = await create(
      acct,
      monitor("cntCheck", { keyword: "Welcome;Sign in", keywordPresent: false }),
    );
    expect(body.settings).toMatchObject({
      keyword: "Welcome;Sign in",
      keywordPresent: false,
      keywordAny: false,
    });
  });

  it("refuses recheck, and reads back none", async () => {
    const res = await acct.post(
      "/monitor",
      monitor("cntCheck", { keyword: "x" }, { recheck: { strategy: "noRecheck" } }),
    );
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/recheck", reason: "not_allowed" }],
    });
    expect(await create(acct, monitor("cntCheck", { keyword: "x" }))).not.toHaveProperty("recheck");
  });

  it("takes a timeout of 50-120000 ms", async () => {
    expect(
      (await create(acct, monitor("cntCheck", { keyword: "x", timeout: 120000 }))).settings.timeout,
    ).toBe(120000);
    const res = await acct.post("/monitor", monitor("cntCheck", { keyword: "x", timeout: 49 }));
    expect(refusal(res).errors).toEqual([
      { pointer: "/settings/timeout", value: 49, reason: "out_of_range", minimum: 50 },
    ]);
  });
});

describe("tran", () => {
  it("needs 1 to 10 steps", async () => {
    for (const settings of [undefined, { steps: [] }]) {
      const res = await acct.post("/monitor", monitor("tran", settings));
      expect(refusal(res)).toEqual({
        status: 422,
        code: "invalid_settings",
        errors: [{ pointer: "/settings/steps", reason: "required" }],
      });
    }
    const ten = await create(acct, monitor("tran", { steps: Array.from({ length: 10 }, () => click) }));
    expect(ten.settings.steps).toHaveLength(11);
    const res = await acct.post(
      "/monitor",
      monitor("tran", { steps: Array.from({ length: 11 }, () => click) }),
    );
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [{ pointer: "/settings/steps", reason: "too_many", value: 11 }],
    });
  });

  it("reads the page it starts on back as a synthesized steps[0]", async () => {
    const url = uniqueUrl("flow");
    const steps = [
      { action: "type", selector: "#user", value: "demo" },
      { action: "click", selector: "#login" },
      { action: "checkContent", keywords: ["Welcome", "Logout"] },
    ];
    const body = await create(acct, { type: "tran", url, locations: everywhere, settings: { steps } });
    expect(body.settings.steps).toEqual([{ action: "navigate", url, synthesized: true }, ...steps]);
  });

  it("drops a synthesized step sent back, and does not count it toward 10", async () => {
    const body = await create(acct, monitor("tran", { steps: [click] }));
    const readBack = body.settings.steps;
    const res = await acct.patch(`/monitor/${body.id}`, { settings: { steps: readBack } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.settings.steps).toEqual(readBack);
    const ten = [readBack[0], ...Array.from({ length: 10 }, () => click)];
    const full = await acct.patch(`/monitor/${body.id}`, { settings: { steps: ten } });
    expect(full.status, full.text).toBe(200);
    expect(full.body.settings.steps).toEqual(ten);
  });

  it("follows a changed url in the synthesized step", async () => {
    const body = await create(acct, monitor("tran", { steps: [click] }));
    const url = uniqueUrl("moved");
    const res = await acct.patch(`/monitor/${body.id}`, { url });
    expect(res.body.settings.steps[0]).toEqual({ action: "navigate", url, synthesized: true });
  });

  it("checks each step's own members", async () => {
    const res = await acct.post(
      "/monitor",
      monitor("tran", {
        steps: [
          { action: "checkContent" },
          { action: "type", selector: "#q" },
          { action: "wait", waitMs: 500 },
        ],
      }),
    );
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_settings",
      errors: [
        { pointer: "/settings/steps/0/keywords", reason: "required" },
        { pointer: "/settings/steps/1/value", reason: "required" },
      ],
    });
    const bad = await acct.post(
      "/monitor",
      monitor("tran", { steps: [{ action: "hover", selector: "#a" }] }),
    );
    expect(refusal(bad)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/settings/steps/0/action",
          reason: "not_allowed",
          value: "hover",
          allowed: ["navigate", "click", "type", "select", "wait", "checkContent"],
        },
      ],
    });
  });

  it("refuses a timeout above 40000 rather than clamping it", async () => {
    const res = await acct.post("/monitor", monitor("tran", { steps: [click], timeout: 40001 }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/settings/timeout", value: 40001, reason: "out_of_range", maximum: 40000 }],
    });
    expect((await create(acct, monitor("tran", { steps: [click], timeout: 0 }))).settings.timeout).toBe(0);
  });

  it("tolerates up to 10 expected console errors of up to 127 characters", async () => {
    const body = await create(
      acct,
      monitor("tran", { steps: [click], consoleError: true, expectedConsoleErrors: ["favicon.ico 404"] }),
    );
    expect(body.settings).toMatchObject({ consoleError: true, expectedConsoleErrors: ["favicon.ico 404"] });
    const many = await acct.post(
      "/monitor",
      monitor("tran", { steps: [click], expectedConsoleErrors: Array(11).fill("x") }),
    );
    expect(refusal(many).errors).toEqual([
      {
        pointer: "/settings/expectedConsoleErrors",
        value: Array(11).fill("x"),
        reason: "too_many",
        maximum: 10,
      },
    ]);
    const long = await acct.post(
      "/monitor",
      monitor("tran", { steps: [click], expectedConsoleErrors: ["e".repeat(128)] }),
    );
    expect(refusal(long).errors).toEqual([
      {
        pointer: "/settings/expectedConsoleErrors/0",
        value: "e".repeat(128),
        reason: "too_long",
        maximum: 127,
      },
    ]);
  });

  it("counts flows against the plan's tranCount", async () => {
    const small = await sb.account({ featureOverrides: { tranCount: 1 } });
    await create(small, monitor("tran", { steps: [click] }));
    const res = await small.post("/monitor", monitor("tran", { steps: [click] }));
    expect(refusal(res)).toEqual({ status: 403, code: "package_limit", feature: "tranCount", limit: 1 });
  });
});
