import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { NetworkError, type Pacer, type RetryEvent, VigilClient } from "../../src/api/index.ts";

/** Each retry is told before its wait, so a frontend can say at once that the API cannot be reached. */
const freePacer: Pacer = { acquire: async () => {}, observe: () => {} };

function recording() {
  const log: string[] = [];
  const events: RetryEvent[] = [];
  return {
    log,
    events,
    time: { now: () => Date.now(), sleep: async (ms: number) => void log.push(`sleep ${ms}`) },
    onRetry: (e: RetryEvent) => {
      events.push(e);
      log.push(`retry ${e.attempt}`);
    },
  };
}

const get = { method: "GET", path: "/account", route: "GET /account", quotaClass: "read" } as const;

describe("retry events", () => {
  it("a refused connection: one event per retry, each before its wait, naming the cause", async () => {
    // A port that was just free: nothing listens there.
    const server = createServer().listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));

    const r = recording();
    const client = new VigilClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: "t",
      pacer: freePacer,
      time: r.time,
      retry: { attempts: 4 },
      random: () => 0.5,
      onRetry: r.onRetry,
    });
    await expect(client.call(get)).rejects.toBeInstanceOf(NetworkError);
    await client.close();
    expect(r.log).toEqual(["retry 1", "sleep 100", "retry 2", "sleep 200", "retry 3", "sleep 400"]);
    expect(r.events.map((e) => [e.reason, e.attempts, e.waitMs])).toEqual([
      ["network", 4, 100],
      ["network", 4, 200],
      ["network", 4, 400],
    ]);
    for (const e of r.events) expect(e.detail).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
  });

  it("a retried answer: its status and code", async () => {
    let calls = 0;
    const server = createServer((_, res) => {
      calls++;
      if (calls < 3) {
        res.writeHead(503, { "content-type": "application/problem+json" });
        res.end(
          JSON.stringify({ type: "about:blank", title: "Down", status: 503, code: "service_unavailable" }),
        );
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      }
    }).listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const { port } = server.address() as AddressInfo;
    const r = recording();
    const client = new VigilClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: "t",
      pacer: freePacer,
      time: r.time,
      random: () => 0,
      onRetry: r.onRetry,
    });
    expect((await client.call(get)).status).toBe(200);
    await client.close();
    await new Promise((res) => server.close(res));
    expect(r.events.map((e) => [e.route, e.attempt, e.reason, e.detail])).toEqual([
      ["GET /account", 1, 503, "service_unavailable"],
      ["GET /account", 2, 503, "service_unavailable"],
    ]);
  });
});
