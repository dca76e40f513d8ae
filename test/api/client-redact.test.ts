import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialNames, type Pacer, redactBody, redacted, VigilClient } from "../../src/api/index.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

const freePacer: Pacer = { acquire: async () => {}, observe: () => {} };

describe("redactBody", () => {
  it("knows the credentials the kinds mark writeOnly", () => {
    for (const name of [
      "password",
      "secret",
      "connectionString",
      "community",
      "authKey",
      "privKey",
      "token",
    ]) {
      expect(credentialNames().has(name), name).toBe(true);
    }
    expect(credentialNames().has("url")).toBe(false);
  });

  it("replaces credentials at any depth and every header value, keeping the rest", () => {
    const body = {
      url: "https://example.com",
      settings: { username: "ops", password: "hunter2", headers: [{ name: "X-Api-Key", value: "k-123" }] },
      items: [{ settings: { connectionString: "postgres://u:p@db/x", community: "public" } }],
      secret: { rotate: true },
    };
    expect(redactBody(body)).toEqual({
      url: "https://example.com",
      settings: { username: "ops", password: redacted, headers: [{ name: "X-Api-Key", value: redacted }] },
      items: [{ settings: { connectionString: redacted, community: redacted } }],
      secret: { rotate: true },
    });
    // The input is not changed.
    expect(body.settings.password).toBe("hunter2");
  });

  it("keeps what says nothing secret: a credential read back masked, an action made of true flags", () => {
    const read = {
      secret: { set: true, updatedAt: 1700000000, previousValidUntil: null },
      headers: [{ header: "X-Api-Key", value: { set: true } }],
      settings: { password: { set: false, value: "hunter2" } },
    };
    expect(redactBody(read)).toEqual({
      secret: read.secret,
      headers: read.headers,
      settings: { password: redacted },
    });
    expect(redactBody({ secret: { rotate: false } })).toEqual({ secret: redacted });
  });
});

describe("debug logging", () => {
  let sb: TestSandbox;
  let acct: Client;
  beforeAll(async () => {
    sb = await startTestSandbox();
    acct = await sb.account();
  });
  afterAll(() => sb.close());

  it("never prints the token, a webhook secret or header values, in requests or answers", async () => {
    const lines: string[] = [];
    const client = new VigilClient({
      baseUrl: sb.url,
      token: acct.token,
      pacer: freePacer,
      log: (line) => lines.push(line),
    });
    const secret = "s3cret-s3cret-s3cret-42";
    const res = await client.call<{ secret: string }>({
      method: "POST",
      path: "/webhook",
      route: "POST /webhook",
      quotaClass: "write",
      body: {
        url: "https://hooks.example.com/in",
        events: ["monitor.down"],
        scope: { all: true },
        secret,
        headers: [{ header: "X-Hook-Token", value: "hook-token-99" }],
      },
    });
    expect(res.status).toBe(201);
    await client.call({
      method: "POST",
      path: "/monitor",
      route: "POST /monitor",
      quotaClass: "write",
      body: {
        type: "http",
        url: "https://example.com/private",
        locations: { pools: ["allworld"] },
        settings: { username: "ops", password: "pa55word-x" },
      },
    });
    await client.close();

    const log = lines.join("\n");
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(log).toContain("POST /webhook");
    expect(log).toContain(redacted);
    for (const leak of [acct.token, secret, "hook-token-99", "pa55word-x"]) expect(log).not.toContain(leak);
  });
});
