import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { monitorBody, monitorIds } from "./faults/helpers.ts";

/**
 * A request that ends, whichever way, releases or completes its idempotency key: a key must never stay
 * `in_flight` once nothing runs under it. (The client giving up mid-body is in idempotency-inflight.test.ts,
 * a handler's crash in http-internal-error.test.ts, a request timeout in server-limits.test.ts.)
 */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ allowInsecureWebhooks: true });
});
afterAll(() => sb.close());

const keyed = (key: string) => ({ headers: { "idempotency-key": key } });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a client that gives up", () => {
  it("during injected latency frees its key: once the faults are cleared, the retry creates the monitor", async () => {
    const acct = await sb.account();
    const latencyMs = 300;
    await sb.admin.post("/_sandbox/faults", { rate: 0, latencyMs, routes: ["POST /monitor"] });
    const body = monitorBody(`gave-up-${randomUUID()}`);
    const key = randomUUID();
    const gaveUp = new AbortController();
    const first = request(`${sb.url}/monitor`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${acct.token}`,
        "content-type": "application/json",
        "idempotency-key": key,
      },
      body: JSON.stringify(body),
      signal: gaveUp.signal,
    });
    // The call has reached the sandbox and waits out its latency when the client gives up.
    setTimeout(() => gaveUp.abort(), latencyMs / 4);
    await expect(first).rejects.toThrow();
    // The abandoned call's latency ends with nobody waiting for it (injected latency is real time).
    await pause(latencyMs * 2);
    await sb.admin.delete("/_sandbox/faults");

    const retry = await acct.post("/monitor", body, keyed(key));
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers["idempotency-replayed"]).toBeUndefined();
    const again = await acct.post("/monitor", body, keyed(key));
    expect(again.status).toBe(201);
    expect(again.headers["idempotency-replayed"]).toBe("true");
    expect(again.body.id).toBe(retry.body.id);
    expect(await monitorIds(acct)).toEqual([retry.body.id]);
  });

  it("while its operation runs keeps the key until the operation ends, then its answer replays: it never runs twice", async () => {
    const acct = await sb.account();
    // A receiver that holds the first test send until the test lets it go, and answers any other at once.
    const held: ServerResponse[] = [];
    let received = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received++;
        if (received === 1) held.push(res);
        else res.writeHead(200).end();
      });
    });
    receiver.listen(0, "127.0.0.1");
    await once(receiver, "listening");
    try {
      const { port } = receiver.address() as AddressInfo;
      const hook = await acct.post("/webhook", {
        url: `http://127.0.0.1:${port}/hook`,
        events: ["monitor.down"],
        scope: { all: true },
      });
      expect(hook.status, hook.text).toBe(201);
      const path = `/webhook/${hook.body.id}/test`;
      const key = randomUUID();
      const gaveUp = new AbortController();
      const first = request(`${sb.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${acct.token}`, "idempotency-key": key },
        signal: gaveUp.signal,
      });
      while (held.length === 0) await pause(10);
      gaveUp.abort();
      await expect(first).rejects.toThrow();
      // Retries while the abandoned send still waits on the receiver: in flight, never a second send.
      for (let i = 0; i < 5; i++) {
        const retry = await acct.post(path, undefined, keyed(key));
        expect(retry.status, retry.text).toBe(409);
        expect(retry.body.errors).toEqual([{ reason: "in_flight" }]);
        await pause(40);
      }
      expect(received).toBe(1);

      held[0]!.writeHead(204).end();
      let replay = await acct.post(path, undefined, keyed(key));
      for (let i = 0; i < 100 && replay.status === 409; i++) {
        await pause(20);
        replay = await acct.post(path, undefined, keyed(key));
      }
      expect(replay.status, replay.text).toBe(200);
      expect(replay.headers["idempotency-replayed"]).toBe("true");
      expect(replay.body).toMatchObject({ outcome: "delivered", statusCode: 204 });
      expect(received).toBe(1);
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });
});

describe("a restart", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "vigil-inflight-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("holds no key in flight: a request cut off by the stop leaves its key free on the same data file", async () => {
    const dataFile = join(dir, "state.db");
    const first = await startTestSandbox({ dataFile });
    const acct = await first.account();
    const { hostname, port } = new URL(first.url);
    const socket = connect({ host: hostname, port: Number(port) });
    await once(socket, "connect");
    socket.on("error", () => {});
    const body = JSON.stringify({ name: "Cut off" });
    // Headers and part of the body: the key is claimed, and the request never completes.
    socket.write(
      `PATCH /account HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${acct.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nIdempotency-Key: cut-off\r\n\r\n` +
        body.slice(0, 4),
    );
    // A probe whose body is refused before the operation runs: it never records the key, and meets the
    // `in_flight` conflict once the cut-off request holds it.
    const probe = () => acct.patch("/account", { noSuchMember: 1 }, keyed("cut-off"));
    let held = await probe();
    for (let i = 0; i < 50 && held.status !== 409; i++) {
      await pause(20);
      held = await probe();
    }
    expect(held.body.errors).toEqual([{ reason: "in_flight" }]);
    await first.close({ graceMs: 200 });
    socket.destroy();

    const second = await startTestSandbox({ dataFile });
    try {
      const again = new Client(second.url, acct.token);
      const retry = await again.patch("/account", { name: "Cut off" }, keyed("cut-off"));
      expect(retry.status, retry.text).toBe(200);
      expect(retry.headers["idempotency-replayed"]).toBeUndefined();
      expect(retry.body.name).toBe("Cut off");
    } finally {
      await second.close();
    }
  });
});
