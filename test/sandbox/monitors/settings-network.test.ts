import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, everywhere, refusal } from "./fixtures.ts";

/** ping and port settings, and the open settings of the types whose settings the spec does not show. */
let sb: TestSandbox;
let acct: Awaited<ReturnType<TestSandbox["account"]>>;
let trial: Awaited<ReturnType<TestSandbox["account"]>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
  trial = await sb.account({ plan: "trial" });
});
afterAll(() => sb.close());

let n = 0;
const ping = (settings?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "ping",
  url: `ping-${++n}.example.com`,
  locations: everywhere,
  settings,
  ...extra,
});
const port = (settings?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "port",
  url: `port-${++n}.example.com:443`,
  locations: everywhere,
  settings,
  ...extra,
});
const dnsMembers = {
  dns: ["1.1.1.1", "2606:4700:4700::1111"],
  publicDns: 2,
  expectedDns: ["8.8.8.8"],
  expectedIps: ["192.0.2.1"],
};

describe("ping", () => {
  it("takes the DNS members as on http", async () => {
    expect((await create(acct, ping(dnsMembers))).settings).toEqual({
      ...dnsMembers,
      attached: { dnsbl: { enabled: false } },
    });
  });

  it("gates own resolvers and public DNS by plan", async () => {
    const dns = await trial.post("/monitor", ping({ dns: ["1.1.1.1"] }));
    expect(refusal(dns)).toEqual({
      status: 403,
      code: "package_limit",
      feature: "dnsManual",
      errors: [{ pointer: "/settings/dns" }],
    });
    const pub = await trial.post("/monitor", ping({ publicDns: 1 }));
    expect(refusal(pub)).toMatchObject({ status: 403, code: "package_limit", feature: "dnsPublic" });
  });

  it("refuses members that are not ping settings", async () => {
    const res = await acct.post("/monitor", ping({ timeout: 1000 }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/settings/timeout",
          reason: "unknown_member",
          allowed: ["dns", "publicDns", "expectedDns", "expectedIps", "attached"],
        },
      ],
    });
  });

  it("carries only the dnsbl sub-check, by alias or in settings", async () => {
    expect((await create(acct, ping(undefined, { attached: { dnsbl: true } }))).settings.attached).toEqual({
      dnsbl: { enabled: true },
    });
    const alias = await acct.post("/monitor", ping(undefined, { attached: { sslExp: true } }));
    expect(refusal(alias)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/attached/sslExp", reason: "not_allowed", allowed: ["dnsbl"] }],
    });
    const both = await acct.post(
      "/monitor",
      ping({ attached: { webRisk: true } }, { attached: { dnsbl: true } }),
    );
    expect(refusal(both).errors).toEqual([
      { pointer: "/settings/attached/webRisk", reason: "not_allowed", allowed: ["dnsbl"] },
    ]);
    const nested = await acct.post("/monitor", ping({ attached: { domainExp: { enabled: true } } }));
    expect(refusal(nested)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/settings/attached/domainExp", reason: "not_allowed", allowed: ["dnsbl"] }],
    });
  });
});

describe("port", () => {
  it("takes a banner pattern and TLS negotiation", async () => {
    const body = await create(acct, port({ pattern: "220 ESMTP", ssl: true, certWatchDays: [30, 7] }));
    expect(body.settings).toMatchObject({ pattern: "220 ESMTP", ssl: true, certWatchDays: [30, 7] });
  });

  it("refuses a pattern over 1023 characters and a non-boolean ssl", async () => {
    const res = await acct.post("/monitor", port({ pattern: "p".repeat(1024), ssl: "yes" }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        { pointer: "/settings/pattern", value: "p".repeat(1024), reason: "too_long", maximum: 1023 },
        { pointer: "/settings/ssl", value: "yes", reason: "wrong_type", expected: "boolean" },
      ],
    });
  });

  it("keeps the TLS policy members, read only while ssl is on, and gates them by plan", async () => {
    const body = await create(acct, port({ ssl: true, requireValidChain: true, requireStrongTls: true }));
    expect(body.settings).toMatchObject({ ssl: true, requireValidChain: true, requireStrongTls: true });
    const res = await trial.post("/monitor", port({ ssl: true, blockWeakCiphers: true }));
    expect(refusal(res)).toEqual({
      status: 403,
      code: "package_limit",
      feature: "sslPolicy",
      errors: [{ pointer: "/settings/blockWeakCiphers" }],
    });
    const revocation = await acct.post("/monitor", port({ ssl: true, checkRevocation: true }));
    expect(refusal(revocation)).toMatchObject({
      status: 403,
      code: "package_limit",
      feature: "certRevocation",
    });
  });

  it("takes the DNS members and only the dnsbl sub-check", async () => {
    expect((await create(acct, port({ ...dnsMembers, attached: { dnsbl: true } }))).settings).toMatchObject({
      ...dnsMembers,
      attached: { dnsbl: { enabled: true } },
    });
    const res = await acct.post("/monitor", port(undefined, { attached: { webRisk: true } }));
    expect(refusal(res).errors).toEqual([
      { pointer: "/attached/webRisk", reason: "not_allowed", allowed: ["dnsbl"] },
    ]);
  });

  it("refuses http-only members", async () => {
    const res = await acct.post("/monitor", port({ method: "G" }));
    expect(refusal(res)).toMatchObject({ status: 422, code: "validation_failed" });
    expect(refusal(res).errors).toEqual([
      expect.objectContaining({ pointer: "/settings/method", reason: "unknown_member" }),
    ]);
  });
});

describe("open settings", () => {
  it.each(["dnsbl", "domainExp", "sslExp"])("%s accepts and reads back any settings object", async (type) => {
    const settings = { thresholds: [30, 7], note: "kept as sent", nested: { deep: true } };
    expect(
      (await create(acct, { type, url: `${type.toLowerCase()}-open.example.com`, settings })).settings,
    ).toEqual(settings);
  });

  it("database and snmp accept any settings object; counter keeps more than probeUrl", async () => {
    const enterprise = await sb.account({ plan: "enterprise" });
    expect(
      (await create(enterprise, { type: "snmp", settings: { oid: "1.3.6.1.2.1.1.3.0" } })).settings,
    ).toEqual({
      oid: "1.3.6.1.2.1.1.3.0",
    });
    expect(
      (await create(enterprise, { type: "database", settings: { engine: "postgres" } })).settings,
    ).toEqual({
      engine: "postgres",
    });
    const counter = await create(enterprise, {
      type: "counter",
      settings: { probeUrl: "https://probe.internal/c", threshold: 5 },
    });
    expect(counter.settings).toEqual({ probeUrl: "https://probe.internal/c", threshold: 5 });
    const bad = await enterprise.post("/monitor", {
      type: "counter",
      settings: { probeUrl: "ftp://probe.internal/" },
    });
    expect(refusal(bad)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        {
          pointer: "/settings/probeUrl",
          reason: "invalid_format",
          value: "ftp://probe.internal/",
          expected: "an absolute http(s) URL",
        },
      ],
    });
  });

  it("fixed-cadence types carry no attached checks", async () => {
    const res = await acct.post("/monitor", {
      type: "dnsbl",
      url: "attached.example.com",
      attached: { dnsbl: true },
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/attached", reason: "not_allowed" }],
    });
  });
});
