import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  NetworkError,
  type Pacer,
  type TimeSource,
  userAgent,
  VigilClient,
} from "../../src/api/index.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Error mapping, per family, from real sandbox answers over HTTP. */
const freePacer: Pacer = { acquire: async () => {}, observe: () => {} };
const sleeps: number[] = [];
const instant: TimeSource = { now: () => Date.now(), sleep: async (ms) => void sleeps.push(ms) };

let sb: TestSandbox;
let acct: Client & { accountId: string };
let client: VigilClient;
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
  client = new VigilClient({ baseUrl: sb.url, token: acct.token, pacer: freePacer, time: instant });
});
afterAll(async () => {
  await client.close();
  await sb.close();
});

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe("families", () => {
  it("fix the request: 422 validation_failed with its pointers and the request id", async () => {
    const err = await refusal(
      client.call({
        method: "POST",
        path: "/monitor",
        route: "POST /monitor",
        quotaClass: "write",
        body: {
          type: "http",
          url: "https://example.com/x",
          interval: "often",
          locations: { pools: ["allworld"] },
        },
      }),
    );
    expect(err).toMatchObject({ status: 422, code: "validation_failed", family: "fix-request", known: true });
    expect(err.title).toBe("Validation failed");
    expect(err.errors.map((e) => e.pointer)).toContain("/interval");
    expect(err.requestId).toMatch(/\S/);
    expect(err.attempts).toBe(1);
    expect(err.message).toContain(err.requestId);
  });

  it("fix the account state: 404 not_found and 401 invalid_token are not retried", async () => {
    const missing = await refusal(
      client.call({
        method: "GET",
        path: `/monitor/${randomUUID()}`,
        route: "GET /monitor/{id}",
        quotaClass: "read",
      }),
    );
    expect(missing).toMatchObject({
      status: 404,
      code: "not_found",
      family: "fix-account-state",
      attempts: 1,
    });

    const stranger = new VigilClient({
      baseUrl: sb.url,
      token: "not-a-token",
      pacer: freePacer,
      time: instant,
    });
    const denied = await refusal(
      stranger.call({ method: "GET", path: "/account", route: "GET /account", quotaClass: "read" }),
    );
    await stranger.close();
    expect(denied).toMatchObject({ status: 401, code: "invalid_token", family: "fix-account-state" });
  });

  it("wait and retry: a 503 that lasts past the attempts allowed surfaces with its Retry-After", async () => {
    await sb.admin.post("/_sandbox/faults", { rate: 1, statuses: [503], when: "before" });
    const brief = new VigilClient({
      baseUrl: sb.url,
      token: acct.token,
      pacer: freePacer,
      time: instant,
      retry: { attempts: 3 },
    });
    sleeps.length = 0;
    try {
      const err = await refusal(
        brief.call({ method: "GET", path: "/account", route: "GET /account", quotaClass: "read" }),
      );
      expect(err).toMatchObject({
        status: 503,
        code: "service_unavailable",
        family: "wait-and-retry",
        retryAfter: 1,
        attempts: 3,
      });
      // Two waits, each at least the Retry-After of one second.
      expect(sleeps).toHaveLength(2);
      for (const ms of sleeps) expect(ms).toBeGreaterThanOrEqual(1000);
      expect(brief.metrics.snapshot()).toMatchObject({
        calls: 1,
        attempts: 3,
        retries: 2,
        byStatus: { "503": 3 },
      });
    } finally {
      await sb.admin.delete("/_sandbox/faults");
      await brief.close();
    }
  });
});

describe("outside the table", () => {
  let server: Server;
  let url: string;
  const seen: Record<string, string | string[] | undefined>[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req.headers);
      const body =
        req.url === "/html"
          ? "<html>bad gateway</html>"
          : JSON.stringify({
              type: "about:blank",
              title: "Overheated",
              status: 418,
              code: "teapot_overheated",
            });
      res.writeHead(req.url === "/html" ? 502 : 418, {
        "content-type": "application/json",
        "x-request-id": "r-1",
      });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address() as { port: number };
    url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("keeps an unknown code as sent, and names vigil and its version in the user-agent", async () => {
    const c = new VigilClient({ baseUrl: url, token: "t", pacer: freePacer, time: instant });
    const err = await refusal(c.call({ method: "GET", path: "/tea", route: "GET /tea", quotaClass: "read" }));
    expect(err).toMatchObject({ status: 418, code: "teapot_overheated", known: false, requestId: "r-1" });
    expect(err.family).toBe("fix-request");
    expect(seen.at(-1)?.["user-agent"]).toBe(userAgent);
    expect(userAgent).toMatch(/^vigil\/\d+\.\d+\.\d+/);

    // A body that is no problem document still gives a code to branch on.
    const gateway = await refusal(
      c.call({ method: "GET", path: "/html", route: "GET /html", quotaClass: "read" }),
    );
    expect(gateway).toMatchObject({ status: 502, code: "http_502", family: "wait-and-retry", attempts: 8 });
    await c.close();
  });
});

describe("network", () => {
  it("a timeout on every attempt ends in a NetworkError that keeps its cause", async () => {
    await sb.admin.post("/_sandbox/faults", { rate: 0, latencyMs: 300, routes: ["GET /account"] });
    const slow = new VigilClient({
      baseUrl: sb.url,
      token: acct.token,
      pacer: freePacer,
      time: instant,
      timeoutMs: 50,
      retry: { attempts: 2 },
    });
    try {
      const err = await slow
        .call({ method: "GET", path: "/account", route: "GET /account", quotaClass: "read" })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect(err).toMatchObject({ reason: "timeout", attempts: 2, route: "GET /account" });
      expect((err as Error).cause).toBeDefined();
      expect(slow.metrics.snapshot().byStatus).toEqual({ timeout: 2 });
    } finally {
      await sb.admin.delete("/_sandbox/faults");
      await slow.close();
    }
  });

  it("a refused connection is a network failure", async () => {
    const nowhere = new VigilClient({
      baseUrl: "http://127.0.0.1:1",
      token: "t",
      pacer: freePacer,
      time: instant,
      retry: { attempts: 2 },
    });
    const err = await nowhere
      .call({ method: "GET", path: "/account", route: "GET /account", quotaClass: "read" })
      .catch((e: unknown) => e);
    await nowhere.close();
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ reason: "network", attempts: 2 });
  });
});
