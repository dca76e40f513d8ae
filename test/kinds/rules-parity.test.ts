/**
 * Cross-member rules are declared once on the kind and run alike by `vigil validate` (the engine's
 * validation) and the sandbox: each case below is refused by both, with the same code at the same pointers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KindName } from "../../src/engine/model.ts";
import { validateDesired } from "../../src/engine/validate.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account({ plan: "enterprise" });
});
afterAll(() => sb.close());

let n = 0;
const web = (type: string, members: Record<string, unknown> = {}) => ({
  type,
  url: `https://parity-${++n}.example.com/`,
  locations: { pools: ["allworld"] },
  ...members,
});
const probe = (type: string, members: Record<string, unknown>) => ({ type, ...members });
const hour = 3600;
const start = Math.floor(Date.now() / 1000) + 30 * 24 * hour;

interface Case {
  name: string;
  kind: KindName;
  path: string;
  members: Record<string, unknown>;
  code: string;
  pointers: string[];
}

const cases: Case[] = [
  {
    name: "a probe type takes no url",
    kind: "monitor",
    path: "/monitor",
    members: probe("database", { url: "db.example.com", settings: { engine: "postgres" } }),
    code: "validation_failed",
    pointers: ["/url"],
  },
  {
    name: "a fixed-cadence type takes no locations",
    kind: "monitor",
    path: "/monitor",
    members: { type: "sslExp", url: "tls.example.com", locations: { pools: ["allworld"] } },
    code: "validation_failed",
    pointers: ["/locations"],
  },
  {
    name: "a location-based type needs a pool",
    kind: "monitor",
    path: "/monitor",
    members: { type: "ping", url: "host.example.com" },
    code: "validation_failed",
    pointers: ["/locations/pools"],
  },
  {
    name: "cntCheck takes no recheck",
    kind: "monitor",
    path: "/monitor",
    members: web("cntCheck", { recheck: { strategy: "noRecheck" }, settings: { keyword: "ok" } }),
    code: "validation_failed",
    pointers: ["/recheck"],
  },
  {
    name: "the minNumDown strategy needs its count",
    kind: "monitor",
    path: "/monitor",
    members: web("http", { recheck: { strategy: "minNumDown" } }),
    code: "validation_failed",
    pointers: ["/recheck/minNumDown"],
  },
  {
    name: "an attached kind the type does not carry, in the alias",
    kind: "monitor",
    path: "/monitor",
    members: web("ping", { url: `ping-${n}.example.com`, attached: { sslExp: true } }),
    code: "validation_failed",
    pointers: ["/attached/sslExp"],
  },
  {
    name: "an attached kind the type does not carry, in settings",
    kind: "monitor",
    path: "/monitor",
    members: web("ping", { url: `ping-s-${n}.example.com`, settings: { attached: { webRisk: true } } }),
    code: "validation_failed",
    pointers: ["/settings/attached/webRisk"],
  },
  {
    name: "attached checks on a type that carries none",
    kind: "monitor",
    path: "/monitor",
    members: { type: "dnsbl", url: "list.example.com", attached: { dnsbl: true } },
    code: "validation_failed",
    pointers: ["/attached"],
  },
  {
    name: "assertMode excludes keyword members",
    kind: "monitor",
    path: "/monitor",
    members: web("http", { settings: { assertMode: true, keywords: "ok", errorStatuses: [500] } }),
    code: "invalid_settings",
    pointers: ["/settings/keywords", "/settings/errorStatuses"],
  },
  {
    name: "a preset is sent alone",
    kind: "monitor",
    path: "/monitor",
    // No pools: the preset pins its own.
    members: {
      type: "http",
      url: "https://preset.example.com/",
      settings: { preset: "bl:ru", timeout: 5000 },
    },
    code: "invalid_settings",
    pointers: ["/settings/preset"],
  },
  {
    name: "an api monitor needs a contentType",
    kind: "monitor",
    path: "/monitor",
    members: web("api", { settings: { method: "G" } }),
    code: "invalid_settings",
    pointers: ["/settings/contentType"],
  },
  {
    name: "a flow needs steps",
    kind: "monitor",
    path: "/monitor",
    members: web("tran", { settings: {} }),
    code: "invalid_settings",
    pointers: ["/settings/steps"],
  },
  {
    name: "a counter needs its probe's URL",
    kind: "monitor",
    path: "/monitor",
    members: probe("counter", { settings: {} }),
    code: "validation_failed",
    pointers: ["/settings/probeUrl"],
  },
  {
    name: "an http monitor's url is an http(s) URL",
    kind: "monitor",
    path: "/monitor",
    members: web("http", { url: "ftp://files.example.com/" }),
    code: "invalid_url",
    pointers: ["/url"],
  },
  {
    name: "an api monitor's url is absolute",
    kind: "monitor",
    path: "/monitor",
    members: web("api", { url: "api.example.com/v1", settings: { contentType: "application/json" } }),
    code: "invalid_url",
    pointers: ["/url"],
  },
  {
    name: "a ping monitor's url is a host",
    kind: "monitor",
    path: "/monitor",
    members: web("ping", { url: "https://ping.example.com/" }),
    code: "invalid_url",
    pointers: ["/url"],
  },
  {
    name: "a port monitor's url is host:port with a port",
    kind: "monitor",
    path: "/monitor",
    members: web("port", { url: "mail.example.com:70000" }),
    code: "invalid_url",
    pointers: ["/url"],
  },
  {
    name: "a webhook uses https",
    kind: "webhook",
    path: "/webhook",
    members: { url: "http://hooks.example.com/in", events: ["monitor.down"], scope: { all: true } },
    code: "invalid_url",
    pointers: ["/url"],
  },
  {
    name: "a webhook reaches no private address",
    kind: "webhook",
    path: "/webhook",
    members: { url: "https://10.1.2.3/in", events: ["monitor.down"], scope: { all: true } },
    code: "invalid_url",
    pointers: ["/url"],
  },
  {
    name: "a webhook reaches no metadata service or private name",
    kind: "webhook",
    path: "/webhook",
    members: { url: "https://metadata.google.internal/in", events: ["monitor.down"], scope: { all: true } },
    code: "invalid_url",
    pointers: ["/url"],
  },
  {
    name: "a window ends after it starts",
    kind: "maintenance",
    path: "/maintenance",
    members: { name: "Inverted", from: start, to: start - hour },
    code: "validation_failed",
    pointers: ["/to"],
  },
  {
    name: "a weekly window lasts at most 7 days",
    kind: "maintenance",
    path: "/maintenance",
    members: { name: "Too long", from: start, to: start + 8 * 24 * hour, repeat: "weekly" },
    code: "validation_failed",
    pointers: ["/to"],
  },
];

describe("the engine and the sandbox refuse alike", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const diagnostics = validateDesired([{ address: `x.${c.kind}`, kind: c.kind, members: c.members }]);
      // The address form is not what this compares.
      const engine = diagnostics.filter((d) => d.pointer !== "");
      expect(engine.map((d) => [d.code, d.pointer])).toEqual(c.pointers.map((p) => [c.code, p]));

      const res = await acct.post(c.path, c.members);
      expect(res.status, res.text).toBe(422);
      expect(res.body.code).toBe(c.code);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(c.pointers);
    });
  }
});
