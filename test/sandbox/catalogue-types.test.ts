import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallResult, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const anon = { token: null } as const;
const row = (body: CallResult["body"], type: string) =>
  body.data.find((r: { type: string }) => r.type === type);

describe("GET /contact/type", () => {
  it("lists every contact type with its capabilities", async () => {
    const res = await sb.client.get("/contact/type", anon);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { type: string }) => r.type)).toEqual([
      "email",
      "sms",
      "voiceCall",
      "http",
      "webPush",
      "telegram",
      "slack",
      "teams",
      "discord",
    ]);
    expect(row(res.body, "email")).toEqual({
      type: "email",
      label: "Email",
      address: "email address",
      creatable: true,
      createdVia: "api",
      confirmation: true,
      idempotencyKeyRequired: true,
      alerts: ["down", "up", "repeatedlyDown"],
      reports: true,
      notices: ["certificate", "domain", "blacklist", "webRisk"],
      gatewayNotices: [],
      templates: [],
      headers: false,
      mimeTypes: [],
      templateOnlyMimeTypes: [],
      groupedAlerts: false,
      signed: false,
      feature: null,
      balance: false,
    });
  });

  it("describes the http contact: born confirmed, templates, headers, no notices without a gateway", async () => {
    const { body } = await sb.client.get("/contact/type", anon);
    expect(row(body, "http")).toMatchObject({
      creatable: true,
      confirmation: false,
      idempotencyKeyRequired: false,
      reports: false,
      notices: [],
      gatewayNotices: ["certificate", "domain", "blacklist", "webRisk"],
      templates: ["up", "down", "repeatedlyDown"],
      headers: true,
      mimeTypes: [
        "application/json",
        "application/x-www-form-urlencoded",
        "text/xml",
        "text/html",
        "text/plain",
      ],
      templateOnlyMimeTypes: ["text/html", "text/plain"],
      groupedAlerts: true,
      signed: false,
    });
  });

  it("marks paid channels and app-only messenger types", async () => {
    const { body } = await sb.client.get("/contact/type", anon);
    expect(row(body, "sms")).toMatchObject({ confirmation: true, balance: true, feature: "smsContacts" });
    expect(row(body, "voiceCall")).toMatchObject({ balance: true, feature: "voiceContacts" });
    expect(row(body, "webPush")).toMatchObject({ creatable: true, confirmation: false });
    for (const type of ["telegram", "slack", "teams", "discord"]) {
      expect(row(body, type)).toMatchObject({ creatable: false, createdVia: "app" });
    }
  });

  it("answers the same with a token", async () => {
    const anonymous = await sb.client.get("/contact/type", anon);
    const owner = await sb.client.get("/contact/type");
    expect(owner.body).toEqual(anonymous.body);
  });
});

describe("GET /alert/type", () => {
  it("lists down, up and repeatedlyDown with descriptions and their events", async () => {
    const res = await sb.client.get("/alert/type", anon);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { type: string; event: string }) => [r.type, r.event])).toEqual([
      ["down", "monitor.down"],
      ["up", "monitor.up"],
      ["repeatedlyDown", "monitor.repeatedlyDown"],
    ]);
    for (const r of res.body.data) expect(r.description).toMatch(/\w/);
  });
});

describe("GET /report/type", () => {
  it("lists formats, sections, frequencies and defaults", async () => {
    const res = await sb.client.get("/report/type", anon);
    expect(res.status).toBe(200);
    expect(res.body.formats).toEqual([
      { format: "pdf", mimeType: "application/pdf", default: true },
      { format: "csv", mimeType: "text/csv", default: false },
      { format: "xml", mimeType: "application/xml", default: false },
      { format: "html", mimeType: "text/html", default: false },
    ]);
    expect(res.body.sections.map((s: { section: string }) => s.section)).toEqual([
      "state",
      "stats",
      "outages",
      "incidents",
      "log",
    ]);
    expect(res.body.sections.filter((s: { default: boolean }) => s.default)).toEqual([
      expect.objectContaining({ section: "stats" }),
    ]);
    expect(res.body.frequencies).toEqual(["daily", "weekly", "monthly", "quarterly", "yearly"]);
    expect(res.body.defaults).toEqual({ format: "pdf", sections: ["stats"], rangeSec: 2592000 });
    expect(res.body.limits).toEqual({ maxMonitors: 500, downloadableSec: 604800 });
  });
});

describe("GET /check/type and /check/device", () => {
  it("offers the location-based monitor types as instant checks", async () => {
    const res = await sb.client.get("/check/type", anon);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { type: string }) => r.type)).toEqual([
      "http",
      "api",
      "waterfall",
      "cntCheck",
      "tran",
      "ping",
      "port",
    ]);
    expect(row(res.body, "port")).toEqual({
      type: "port",
      label: "TCP port",
      url: "hostPort",
      fleet: "net",
      feature: null,
    });
    expect(row(res.body, "tran")).toMatchObject({ fleet: "waterfall", feature: "tranCount" });
  });

  it("lists emulated devices, Desktop by default", async () => {
    const res = await sb.client.get("/check/device", anon);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { name: "Desktop", default: true },
      { name: "Laptop", default: false },
      { name: "iPhone 15", default: false },
      { name: "Pixel 8", default: false },
      { name: "iPad", default: false },
    ]);
  });
});

describe("closed vocabulary and methods on the catalogues", () => {
  it.each(["/contact/type", "/alert/type", "/report/type", "/check/type", "/check/device"])(
    "%s refuses query parameters",
    async (path) => {
      const res = await sb.client.get(`${path}?lang=de`, anon);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        code: "unknown_parameter",
        errors: [{ parameter: "lang", allowed: [] }],
      });
    },
  );

  it("answers 405 to other methods, and unpaged catalogues have no /q twin", async () => {
    const res = await sb.client.post("/contact/type", {}, anon);
    expect(res.status).toBe(405);
    expect(res.body.code).toBe("method_not_allowed");
    expect(res.headers.allow).toBe("GET");
    expect((await sb.client.post("/contact/type/q", {}, anon)).status).toBe(404);
    // `/check/device/q` has the shape of an instant check's address (`/check/{dbId}/{id}`), which only reads.
    const device = await sb.client.post("/check/device/q", {}, anon);
    expect(device.status).toBe(405);
    expect(device.headers.allow).toBe("GET");
  });
});
