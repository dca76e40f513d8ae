import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shutdownGraceMs } from "../../src/sandbox/index.ts";
import { Client } from "../helpers/sandbox.ts";
import { type SandboxProcess, startCli, stopCli } from "./sandbox-process.ts";

/**
 * Shutdown is bounded: a webhook receiver that accepts and never answers, and a client that sends half a
 * request, once held a sandbox past SIGTERM for as long as its queue of deliveries took (10 s an attempt).
 */
let dir: string;
/** A receiver that accepts every connection and never answers: each attempt waits out its 10-second deadline. */
let hole: Server;
const held: Socket[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vigil-shutdown-"));
  hole = createServer((socket) => {
    held.push(socket);
    socket.on("error", () => {});
    socket.resume();
  });
  await new Promise<void>((done) => hole.listen(0, "127.0.0.1", done));
});
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((done) => hole.close(done));
  rmSync(dir, { recursive: true, force: true });
});

const holeUrl = () => `http://127.0.0.1:${(hole.address() as { port: number }).port}/hook`;

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A sandbox whose webhook has 20 deliveries queued for the receiver, the first one on its way. */
async function stuckSandbox(data: string): Promise<SandboxProcess> {
  const p = await startCli(["--allow-insecure-webhooks", "--data", data], 60_000);
  const client = new Client(p.info.url, p.info.token);
  const hook = await client.post(
    "/webhook",
    { url: holeUrl(), events: ["monitor.down"], scope: { all: true } },
    { headers: { "idempotency-key": randomUUID() } },
  );
  expect(hook.status, hook.text).toBe(201);
  const admin = new Client(p.info.url, p.info.adminToken);
  const connections = held.length;
  for (let i = 0; i < 20; i++) {
    const queued = await admin.post(`/_sandbox/webhook/${hook.body.id}/event`, { event: "monitor.down" });
    expect(queued.status, queued.text).toBe(202);
  }
  await until(() => held.length > connections, "the first delivery to reach the receiver");
  return p;
}

/** A client connection holding half a request: headers sent, the body promised but never finished. */
async function halfRequest(p: SandboxProcess): Promise<Socket> {
  const { hostname, port } = new URL(p.info.url);
  const socket = await new Promise<Socket>((done, fail) => {
    const s = connect(Number(port), hostname, () => done(s));
    s.once("error", fail);
  });
  socket.on("error", () => {});
  socket.write(
    `POST /monitor HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${p.info.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type":`,
  );
  return socket;
}

describe("sandbox shutdown", { timeout: 180_000 }, () => {
  it("SIGTERM stops within the grace, cutting off a hung delivery and a half-sent request; the delivery goes out again after a restart", async () => {
    const data = join(dir, "stuck.db");
    const p = await stuckSandbox(data);
    const client = await halfRequest(p);
    try {
      const started = Date.now();
      p.child.kill("SIGTERM");
      expect(await p.exited).toEqual({ code: 0, signal: null });
      const took = Date.now() - started;
      // Without the bound, 20 deliveries at 10 s an attempt kept it running for minutes. Past the grace,
      // the exit takes about 0.7 s on a loaded machine: 7.5 s keeps a tenfold margin.
      expect(took).toBeLessThan(shutdownGraceMs + 7500);
      expect(p.stderr()).toContain(
        `vigil sandbox: warning: background work still running after ${shutdownGraceMs} ms was abandoned`,
      );
    } finally {
      client.destroy();
      await stopCli(p);
    }

    // The attempt cut off was never recorded: the next start sends it again.
    const connections = held.length;
    const again = await startCli(["--allow-insecure-webhooks", "--data", data], 60_000);
    try {
      await until(() => held.length > connections, "the delivery to be sent again");
    } finally {
      again.child.kill("SIGKILL");
      await again.exited;
    }
  });

  it("a second signal exits at once", async () => {
    const p = await stuckSandbox(join(dir, "twice.db"));
    try {
      p.child.kill("SIGINT");
      await new Promise((r) => setTimeout(r, 300));
      const started = Date.now();
      p.child.kill("SIGTERM");
      expect(await p.exited).toEqual({ code: 1, signal: null });
      // About 0.3 s on a loaded machine: a tenfold margin.
      expect(Date.now() - started).toBeLessThan(3000);
      expect(p.stderr()).toContain("vigil sandbox: SIGTERM again: exiting without waiting.");
    } finally {
      await stopCli(p);
    }
  });
});
