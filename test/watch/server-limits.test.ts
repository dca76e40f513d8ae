import { randomBytes } from "node:crypto";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, VigilClient } from "../../src/api/index.ts";
import { MemoryStateStore, newState } from "../../src/engine/index.ts";
import type { ServerLimits } from "../../src/server-limits.ts";
import { type RunningWatch, startWatch } from "../../src/watch/run.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { cutWithin, silentConnection, slowBody } from "../helpers/slow-clients.ts";
import { MemoryRecords } from "./inprocess.ts";

/**
 * The watcher's listener cuts slow clients off and caps its connections (src/server-limits.ts), as
 * `startWatch` assembles it. Real sockets in real time, with timeouts shortened to a few hundred
 * milliseconds; each bound is checked with a 10x margin.
 */
let sb: TestSandbox;
const clients: VigilClient[] = [];
const watches: RunningWatch[] = [];
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  for (const watch of watches) await watch.stop();
  // A watcher that failed to start would otherwise leave only an unhandled rejection behind.
  expect(
    await Promise.all(
      watches.map((w) =>
        w.done.then(
          () => "ended",
          (e: Error) => e.message,
        ),
      ),
    ),
  ).toEqual(watches.map(() => "ended"));
  for (const client of clients) await client.close();
  await sb?.close();
});

/** A watcher of an empty configuration, listening on a free port with `limits`; its listener's URL. */
async function listener(
  limits: Partial<ServerLimits>,
  log: (line: string) => void = () => {},
): Promise<string> {
  const account = await sb.account();
  const client = new VigilClient({ baseUrl: sb.url, token: account.token });
  clients.push(client);
  // The watcher reports drift of what vigil applied, so it needs a state: an empty one watches an
  // empty configuration (an apply with nothing to do writes no state).
  const store = new MemoryStateStore(newState());
  const watch = await startWatch({
    ops: operations(client),
    clientMetrics: client.metrics,
    store,
    records: new MemoryRecords(),
    desired: [],
    cadence: { everyMs: 60 * 60_000, fullEveryMs: 60 * 60_000 },
    share: 0.1,
    listen: { host: "127.0.0.1", port: 0, limits },
    secret: `whsec_${randomBytes(24).toString("base64")}`,
    out: () => {},
    log,
  });
  watches.push(watch);
  return watch.url!;
}

/** `GET /metrics` on a connection of its own, closed after the answer: the status. */
async function scrapeStatus(url: string): Promise<number> {
  const res = await request(`${url}/metrics`, { reset: true });
  await res.body.dump();
  return res.statusCode;
}

describe("timeouts", () => {
  const headersTimeoutMs = 300;
  const requestTimeoutMs = 500;

  it("cuts off a delivery whose body arrives a byte at a time at the request timeout; scrapes go on meanwhile", async () => {
    const url = await listener({ headersTimeoutMs, requestTimeoutMs });
    const slow = await slowBody(url, { path: "/events", everyMs: 50 });
    expect(await scrapeStatus(url)).toBe(200);
    const cut = await cutWithin(slow, requestTimeoutMs * 10, "a slow delivery");
    expect(cut.afterMs).toBeGreaterThanOrEqual(requestTimeoutMs - 50);
    expect(cut.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(await scrapeStatus(url)).toBe(200);
  });

  it("cuts off a connection that sends no request at the headers timeout", async () => {
    const url = await listener({ headersTimeoutMs, requestTimeoutMs });
    const cut = await cutWithin(await silentConnection(url), headersTimeoutMs * 10, "a silent connection");
    expect(cut.afterMs).toBeGreaterThanOrEqual(headersTimeoutMs - 50);
    expect(cut.answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe("the connection cap", () => {
  it("closes connections past the cap as they arrive, says so once, and serves again once slots are free", async () => {
    const maxConnections = 4;
    const log: string[] = [];
    const held = { headersTimeoutMs: 1000, requestTimeoutMs: 1000 };
    const url = await listener({ ...held, maxConnections }, (line) => log.push(line));
    const holders = [];
    for (let i = 0; i < maxConnections; i++)
      holders.push(await slowBody(url, { path: "/events", everyMs: 50 }));
    // The listener runs in this process: let it accept them before more arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const extra = await Promise.all([silentConnection(url), silentConnection(url)]);
    for (const refused of extra) {
      expect((await cutWithin(refused, held.requestTimeoutMs / 2, "a connection past the cap")).answer).toBe(
        "",
      );
    }
    expect(holders.filter((h) => h.isClosed())).toEqual([]);
    expect(log.filter((line) => line.includes("refused"))).toEqual([
      "Warning: the listener refused 1 connection(s) since the last such warning (one a minute at most): 4 are open, the most it takes (--max-connections).",
    ]);

    for (const holder of holders) {
      const cut = await cutWithin(holder, held.requestTimeoutMs * 10, "a held connection");
      expect(cut.answer).toMatch(/^HTTP\/1\.1 408 /);
    }
    expect(await scrapeStatus(url)).toBe(200);
  });
});
