import { describe, expect, it } from "vitest";
import { acct, enterprise, sb, useSandbox } from "./create-setup.ts";
import { create, everywhere, httpMonitor, refusal, uniqueUrl } from "./fixtures.ts";

/** POST /monitor: `effectiveUrl`, url rules per type, the blacklist and uniqueness. */
useSandbox();

describe("effectiveUrl", () => {
  it("reads back the http URL checks use for a bare domain", async () => {
    const body = await create(acct, { type: "http", url: "bare-domain.example.com", locations: everywhere });
    expect(body.url).toBe("bare-domain.example.com");
    expect(body.effectiveUrl).toBe("http://bare-domain.example.com/");
    expect(body.name).toBe("bare-domain.example.com");
  });

  it("reads back the normalised form of a non-normalised URL", async () => {
    const url = "HTTPS://Normalise.Example.COM:443/a/../b?q=1";
    const body = await create(acct, { type: "http", url, locations: everywhere });
    expect(body.url).toBe(url);
    expect(body.effectiveUrl).toBe("https://normalise.example.com/b?q=1");
  });

  it("is absent when the URL is already normalised", async () => {
    const body = await create(acct, httpMonitor({ url: "https://normal.example.com/path" }));
    expect(body).not.toHaveProperty("effectiveUrl");
    const read = await acct.get(`/monitor/${body.id}`);
    expect(read.body).not.toHaveProperty("effectiveUrl");
  });

  it("lower-cases a ping host, and keeps a dnsbl host that needs no change", async () => {
    const ping = await create(acct, { type: "ping", url: "Ping.Example.COM", locations: everywhere });
    expect(ping.effectiveUrl).toBe("ping.example.com");
    const dnsbl = await create(acct, { type: "dnsbl", url: "dnsbl.example.com" });
    expect(dnsbl).not.toHaveProperty("effectiveUrl");
  });
});

describe("url rules per type", () => {
  it.each([
    ["api", "api-bare.example.com"],
    ["waterfall", "waterfall-bare.example.com"],
    ["cntCheck", "cnt-bare.example.com"],
    ["tran", "tran-bare.example.com"],
  ])("%s needs an absolute http(s) URL, not a bare domain", async (type, url) => {
    const res = await acct.post("/monitor", { type, url, locations: everywhere });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_url",
      errors: [
        { pointer: "/url", value: url, reason: "invalid_format", expected: "an absolute http(s) URL" },
      ],
    });
  });

  it("refuses a scheme other than http(s) with reason scheme_not_allowed", async () => {
    const res = await acct.post("/monitor", httpMonitor({ url: "ftp://files.example.com/" }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_url",
      errors: [
        {
          pointer: "/url",
          value: "ftp://files.example.com/",
          reason: "scheme_not_allowed",
          expected: "an absolute http(s) URL or a bare domain",
        },
      ],
    });
  });

  it("refuses credentials in a URL and a malformed host", async () => {
    for (const url of ["https://user:pw@creds.example.com/", "https://bad_host!/"]) {
      const res = await acct.post("/monitor", httpMonitor({ url }));
      expect(refusal(res)).toEqual({
        status: 422,
        code: "invalid_url",
        errors: [
          {
            pointer: "/url",
            value: url,
            reason: "invalid_format",
            expected: "an absolute http(s) URL or a bare domain",
          },
        ],
      });
    }
  });

  it("ping takes a host name or an IP address, not a URL", async () => {
    await create(acct, { type: "ping", url: "192.0.2.10", locations: everywhere });
    await create(acct, { type: "ping", url: "2001:db8::1", locations: everywhere });
    const res = await acct.post("/monitor", {
      type: "ping",
      url: "https://ping-url.example.com/",
      locations: everywhere,
    });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_url",
      errors: [
        {
          pointer: "/url",
          value: "https://ping-url.example.com/",
          reason: "invalid_format",
          expected: "a host name or IP address",
        },
      ],
    });
  });

  it("port takes host:port with a port from 1 to 65535", async () => {
    const ok = await create(acct, { type: "port", url: "mail.example.com:25", locations: everywhere });
    expect(ok.url).toBe("mail.example.com:25");
    await create(acct, { type: "port", url: "[2001:db8::2]:443", locations: everywhere });
    for (const url of [
      "mail.example.com",
      "mail.example.com:0",
      "mail.example.com:65536",
      "https://mail.example.com:25",
    ]) {
      const res = await acct.post("/monitor", { type: "port", url, locations: everywhere });
      expect(refusal(res)).toEqual({
        status: 422,
        code: "invalid_url",
        errors: [
          {
            pointer: "/url",
            value: url,
            reason: "invalid_format",
            expected: "host:port with a port from 1 to 65535",
          },
        ],
      });
    }
  });

  it("dnsbl and sslExp take a host or an http(s) URL", async () => {
    await create(acct, { type: "dnsbl", url: "host-only.example.com" });
    await create(acct, { type: "sslExp", url: "https://cert.example.com:8443/" });
    await create(acct, { type: "sslExp", url: "cert-host.example.com" });
    const res = await acct.post("/monitor", { type: "sslExp", url: "ftp://cert.example.com/" });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "invalid_url",
      errors: [
        {
          pointer: "/url",
          value: "ftp://cert.example.com/",
          reason: "scheme_not_allowed",
          expected: "an absolute http(s) URL",
        },
      ],
    });
  });

  it.each(["database", "snmp", "counter"])("%s refuses a url", async (type) => {
    const res = await enterprise.post("/monitor", { type, url: "https://private.example.com/" });
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/url", value: "https://private.example.com/", reason: "not_allowed" }],
    });
  });

  it("database and snmp need no url; their name defaults to the type's label", async () => {
    const db = await create(enterprise, { type: "database" });
    expect(db).toMatchObject({ type: "database", name: "Database (private probe)" });
    expect(db).not.toHaveProperty("locations");
    const snmp = await create(enterprise, { type: "snmp", name: "Core switch" });
    expect(snmp).toMatchObject({ type: "snmp", name: "Core switch" });
    // A type without an address has no url member, rather than url: null.
    for (const body of [db, snmp, (await enterprise.get(`/monitor/${db.id}`)).body]) {
      expect(body).not.toHaveProperty("url");
    }
  });

  it("counter needs settings.probeUrl, which names it by default", async () => {
    const missing = await enterprise.post("/monitor", { type: "counter" });
    expect(refusal(missing)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [{ pointer: "/settings/probeUrl", reason: "required" }],
    });
    const body = await create(enterprise, {
      type: "counter",
      settings: { probeUrl: "https://probe.internal/count" },
    });
    expect(body).toMatchObject({ name: "https://probe.internal/count" });
    expect(body).not.toHaveProperty("url");
    expect(body.settings).toEqual({ probeUrl: "https://probe.internal/count" });
  });

  it("the location-based and fixed-cadence types need a url", async () => {
    for (const type of ["http", "ping", "dnsbl"]) {
      const res = await acct.post("/monitor", { type, ...(type !== "dnsbl" && { locations: everywhere }) });
      expect(refusal(res)).toEqual({
        status: 422,
        code: "validation_failed",
        errors: [{ pointer: "/url", reason: "required" }],
      });
    }
  });
});

describe("blacklist", () => {
  it("refuses hosts on the block list with 403 url_blacklisted, whatever the case or type", async () => {
    for (const [type, url] of [
      ["http", "https://evil.blocked.test/login"],
      ["ping", "Mirror.Blocked.Test"],
      ["port", "smtp.blocked.test:25"],
    ]) {
      const res = await acct.post("/monitor", { type, url, locations: everywhere });
      expect(refusal(res)).toEqual({
        status: 403,
        code: "url_blacklisted",
        errors: [{ pointer: "/url", value: url }],
      });
    }
  });
});

describe("duplicate_monitor", () => {
  it("refuses a second monitor of the same (url, type) naming the first", async () => {
    const url = uniqueUrl("dup");
    const first = await create(acct, { type: "http", url, locations: everywhere });
    const res = await acct.post("/monitor", { type: "http", url, locations: everywhere, name: "again" });
    expect(refusal(res)).toEqual({
      status: 409,
      code: "duplicate_monitor",
      existingId: first.id,
      errors: [{ pointer: "/url", value: url, existingId: first.id }],
    });
  });

  it("compares effective addresses: a bare domain equals its http URL", async () => {
    const first = await create(acct, { type: "http", url: "same-target.example.com", locations: everywhere });
    const res = await acct.post("/monitor", {
      type: "http",
      url: "HTTP://Same-Target.Example.com/",
      locations: everywhere,
    });
    expect(res.status).toBe(409);
    expect(res.body.existingId).toBe(first.id);
  });

  it("lets the same url be watched by another type, and by another account", async () => {
    const url = uniqueUrl("shared");
    await create(acct, { type: "http", url, locations: everywhere });
    await create(acct, {
      type: "api",
      url,
      locations: everywhere,
      settings: { contentType: "application/json" },
    });
    const other = await sb.account();
    await create(other, { type: "http", url, locations: everywhere });
  });
});
