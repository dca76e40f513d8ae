import { connect } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  NetworkError,
  type Pacer,
  type RequestSpec,
  type TimeSource,
  VigilClient,
} from "../../src/api/index.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/**
 * The retry rules against a sandbox that fails on purpose: nothing is lost
 * when a call fails before the service acted, nothing is duplicated when it
 * acted and the answer was lost.
 */
const freePacer: Pacer = { acquire: async () => {}, observe: () => {} };

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
afterEach(async () => {
  await sb.admin.delete("/_sandbox/faults");
});

function clientFor(acct: Client, time?: TimeSource): VigilClient {
  const sleeps: TimeSource = { now: () => Date.now(), sleep: async () => {} };
  return new VigilClient({ baseUrl: sb.url, token: acct.token, pacer: freePacer, time: time ?? sleeps });
}

const createMonitor = (n: number, idempotencyKey?: string): RequestSpec => ({
  method: "POST",
  path: "/monitor",
  route: "POST /monitor",
  quotaClass: "write",
  body: { type: "http", url: `https://retry-${n}.example.com/`, locations: { pools: ["allworld"] } },
  ...(idempotencyKey && { idempotencyKey }),
});

async function monitorUrls(acct: Client): Promise<string[]> {
  const res = await acct.get("/monitor?limit=500");
  expect(res.status).toBe(200);
  return res.body.data.map((m: { url: string }) => m.url);
}

describe.each([
  { when: "before", reset: false },
  { when: "after", reset: 0.3 },
] as const)("faults at rate 0.3, $when", ({ when, reset }) => {
  it("40 concurrent creates each end in success or a clear error, and none is duplicated", async () => {
    const acct = await sb.account();
    const client = clientFor(acct);
    const faults = await sb.admin.post("/_sandbox/faults", { rate: 0.3, when, reset, seed: 7 });
    expect(faults.status).toBe(200);

    const outcomes = await Promise.allSettled(
      Array.from({ length: 40 }, (_, n) => client.call(createMonitor(n))),
    );
    const injected = (await sb.admin.get("/_sandbox/faults")).body.injected;
    await sb.admin.delete("/_sandbox/faults");

    for (const outcome of outcomes) {
      if (outcome.status === "rejected") {
        expect(outcome.reason instanceof ApiError || outcome.reason instanceof NetworkError).toBe(true);
      } else {
        expect(outcome.value.status).toBe(201);
      }
    }
    const created = outcomes.filter((o) => o.status === "fulfilled");
    const urls = await monitorUrls(acct);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls).toHaveLength(created.length);
    expect(created.length).toBe(40);

    const stats = client.metrics.snapshot();
    expect(stats.calls).toBe(40);
    expect(stats.retries).toBeGreaterThan(0);
    expect(injected[when]).toBeGreaterThan(0);
    if (when === "after") {
      // Lost answers of committed creates come back as replays, never as second monitors.
      expect(stats.replays).toBeGreaterThan(0);
      // Connection resets are network errors, retried with the same key like any other.
      expect(injected.reset).toBeGreaterThan(0);
      expect(stats.byStatus.network).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o.status === "fulfilled" && o.value.replayed).length).toBeGreaterThan(0);
    }
    await client.close();
  });
});

describe("idempotency keys", () => {
  it("sends a fresh key with every write, and the caller's deterministic key replays the first answer", async () => {
    const acct = await sb.account();
    const client = clientFor(acct);
    const first = await client.call<{ id: string }>(createMonitor(1, "plan-7/monitor/one"));
    const again = await client.call<{ id: string }>(createMonitor(1, "plan-7/monitor/one"));
    expect(first).toMatchObject({ status: 201, replayed: false });
    expect(again).toMatchObject({ status: 201, replayed: true });
    expect(again.body.id).toBe(first.body.id);

    // Without a key of its own, each call is a new write: the second meets the duplicate rule, not a replay.
    await client.call(createMonitor(2));
    const dup = await client.call(createMonitor(2)).catch((e: unknown) => e);
    expect(dup).toMatchObject({ status: 409, code: "duplicate_monitor", family: "fix-account-state" });
    expect(await monitorUrls(acct)).toHaveLength(2);
    await client.close();
  });

  it("in_flight: waits for Retry-After and retries, then gets the first request's answer as a replay", async () => {
    const acct = await sb.account();
    const spec = createMonitor(3, "slow-writer");
    const body = JSON.stringify(spec.body);
    const { hostname, port } = new URL(sb.url);
    const socket = connect({ host: hostname, port: Number(port) });
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    let received = "";
    socket.on("data", (chunk) => {
      received += chunk.toString();
    });
    // Headers and part of the body: the sandbox claims the key and waits for the rest.
    socket.write(
      `POST /monitor HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${acct.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Idempotency-Key: slow-writer\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((r) => setTimeout(r, 50));

    const waits: number[] = [];
    const time: TimeSource = {
      now: () => Date.now(),
      async sleep(ms) {
        waits.push(ms);
        // While the client waits, the first request completes.
        socket.write(body.slice(5));
        while (!/\r\n\r\n\{.*\}$/s.test(received)) await new Promise((r) => setTimeout(r, 10));
      },
    };
    const client = clientFor(acct, time);
    const res = await client.call<{ id: string }>(spec);
    socket.destroy();

    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect(received).toMatch(/^HTTP\/1.1 201/);
    expect(res).toMatchObject({ status: 201, replayed: true });
    expect(received).toContain(res.body.id);
    expect(client.metrics.snapshot().byStatus).toEqual({ "201": 1, "409": 1 });
    await client.close();
  });
});
