import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultsOf, settingsByType } from "../../../src/kinds/index.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere, uniqueUrl } from "./fixtures.ts";

/** Settings read back with the defaults each type's field traits declare. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

const offAttached = (kinds: string[]) => Object.fromEntries(kinds.map((k) => [k, { enabled: false }]));

describe("settings defaults per type", () => {
  it("http: every trait default, attached all off, empty assertsText", async () => {
    const body = await create(acct, { type: "http", url: uniqueUrl(), locations: everywhere });
    expect(body.settings).toEqual({
      ...defaultsOf(settingsByType.http),
      attached: offAttached(["dnsbl", "sslExp", "domainExp", "webRisk"]),
      assertsText: "",
      forceRecheck: false,
    });
    expect(body.settings).toMatchObject({
      method: "G",
      timeout: 40000,
      keywordMode: "PresentAny",
      followRedirect: true,
      maxRedirects: 20,
      errorOnRedirect: false,
      accept: "*/*",
      maxSize: 1048576,
      publicDns: 0,
      assertMode: false,
    });
  });

  it("api: the http request defaults plus an empty valueSelector; no keyword members", async () => {
    const body = await create(acct, {
      type: "api",
      url: uniqueUrl(),
      locations: everywhere,
      settings: { contentType: "application/json" },
    });
    expect(body.settings).toEqual({
      ...defaultsOf(settingsByType.api),
      contentType: "application/json",
      attached: offAttached(["dnsbl", "sslExp", "domainExp", "webRisk"]),
      assertsText: "",
      forceRecheck: false,
    });
    expect(body.settings.valueSelector).toBe("");
    expect(body.settings).not.toHaveProperty("keywordMode");
  });

  it("waterfall: every threshold off and the Desktop device", async () => {
    const body = await create(acct, { type: "waterfall", url: uniqueUrl(), locations: everywhere });
    expect(body.settings).toEqual(defaultsOf(settingsByType.waterfall));
    expect(body.settings).toMatchObject({ timeout: 0, onCpu: 0, totalCount: 0, deviceEmulation: "Desktop" });
  });

  it("cntCheck: present, any one, case-insensitive, visible text only, 40 s", async () => {
    const body = await create(acct, {
      type: "cntCheck",
      url: uniqueUrl(),
      locations: everywhere,
      settings: { keyword: "Welcome" },
    });
    expect(body.settings).toEqual({
      keyword: "Welcome",
      keywordPresent: true,
      keywordAny: false,
      caseSensitive: false,
      onlyVisible: true,
      timeout: 40000,
    });
  });

  it("tran: 40 s, media skipped, final screenshot, console errors tolerated", async () => {
    const url = uniqueUrl();
    const body = await create(acct, {
      type: "tran",
      url,
      locations: everywhere,
      settings: { steps: [{ action: "click", selector: "#go" }] },
    });
    expect(body.settings).toEqual({
      ...defaultsOf(settingsByType.tran),
      steps: [
        { action: "navigate", url, synthesized: true },
        { action: "click", selector: "#go" },
      ],
    });
    expect(body.settings).toMatchObject({
      timeout: 40000,
      skipMedia: true,
      finalScreenshot: true,
      consoleError: false,
      expectedConsoleErrors: [],
    });
  });

  it("ping: public DNS off and only the dnsbl sub-check", async () => {
    const body = await create(acct, { type: "ping", url: "defaults.example.com", locations: everywhere });
    expect(body.settings).toEqual({ publicDns: 0, attached: { dnsbl: { enabled: false } } });
  });

  it("port: ssl off, TLS policy off, only the dnsbl sub-check", async () => {
    const body = await create(acct, { type: "port", url: "defaults.example.com:22", locations: everywhere });
    expect(body.settings).toEqual({
      ssl: false,
      publicDns: 0,
      requireValidChain: false,
      checkRevocation: false,
      requireStrongTls: false,
      blockWeakCiphers: false,
      attached: { dnsbl: { enabled: false } },
    });
  });

  it("fixed-cadence types read back empty settings and their fixed interval", async () => {
    const dnsbl = await create(acct, { type: "dnsbl", url: "defaults.example.com" });
    expect(dnsbl).toMatchObject({ interval: 21600, settings: {} });
    expect(dnsbl).not.toHaveProperty("locations");
    expect(dnsbl).not.toHaveProperty("recheck");
    const ssl = await create(acct, { type: "sslExp", url: "defaults.example.com" });
    expect(ssl).toMatchObject({ interval: 21600, expirationDate: null, certNotBefore: null });
    const domain = await create(acct, { type: "domainExp", url: "defaults.example.com" });
    expect(domain).toMatchObject({ interval: 21600, expirationDate: null });
    expect(domain).not.toHaveProperty("certNotBefore");
    const risk = await create(acct, { type: "webRisk", url: "defaults.example.com" });
    expect(risk.interval).toBe(43200);
  });
});
