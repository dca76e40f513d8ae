import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../helpers/sandbox.ts";
import { cutWithin, silentConnection } from "../helpers/slow-clients.ts";
import { runCli, type SandboxProcess, startCli, stopCli } from "./sandbox-process.ts";

/** `vigil sandbox`: its first stdout line, its flags and their validation. */
let dir: string;
const running: SandboxProcess[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-cli-"));
});
afterAll(async () => {
  for (const p of running) await stopCli(p);
  rmSync(dir, { recursive: true, force: true });
});

describe("first stdout line", () => {
  it("is exactly one JSON object {url, token, adminToken}, and nothing else is printed", async () => {
    const p = await startCli(["--port", "0"]);
    running.push(p);
    const parsed = JSON.parse(p.firstLine);
    expect(Object.keys(parsed)).toEqual(["url", "token", "adminToken"]);
    expect(parsed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(parsed.token).toMatch(/^vgl_/);
    expect(parsed.adminToken).toMatch(/^vgla_/);
    const account = await new Client(parsed.url, parsed.token).get("/account");
    expect(account.status).toBe(200);
    expect(account.body.package.name).toBe("business");
    expect((await new Client(parsed.url, parsed.adminToken).get("/_sandbox/stats")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(p.stdout()).toBe(`${p.firstLine}\n`);
    expect(p.stderr()).toBe("");
  });
});

describe("flags", () => {
  it("--plan trial sets the default account's plan", async () => {
    const p = await startCli(["--port", "0", "--plan", "trial"]);
    running.push(p);
    const account = await new Client(p.info.url, p.info.token).get("/account");
    expect(account.body.package.name).toBe("trial");
    expect(account.headers["ratelimit-limit"]).toBe("10");
  });

  it("--plan refuses an unknown tier", async () => {
    const run = runCli(["sandbox", "--plan", "platinum"]);
    const { code } = await run.exited;
    expect(code).toBe(1);
    expect(run.stderr()).toMatch(/platinum/);
    expect(run.stderr()).toMatch(/trial, business, enterprise/);
    expect(run.stdout()).toBe("");
  });

  for (const port of ["abc", "-1", "65536", "1.5", ""]) {
    it(`--port ${JSON.stringify(port)} is refused with a usage error`, async () => {
      const run = runCli(["sandbox", "--port", port]);
      const { code } = await run.exited;
      expect(code).toBe(1);
      expect(run.stderr()).toMatch(/a port from 0 to 65535/);
      expect(run.stdout()).toBe("");
    });
  }

  for (const cap of ["0", "abc", "1.5", "-3"]) {
    it(`--max-connections ${JSON.stringify(cap)} is refused with a usage error`, async () => {
      const run = runCli(["sandbox", "--max-connections", cap]);
      expect((await run.exited).code).toBe(1);
      expect(run.stderr()).toMatch(/a whole number of connections, at least 1/);
      expect(run.stdout()).toBe("");
    });
  }

  it("--max-connections caps the open connections, and says on stderr when it refuses one", async () => {
    const p = await startCli(["--port", "0", "--max-connections", "2"]);
    running.push(p);
    const holders = [await silentConnection(p.info.url), await silentConnection(p.info.url)];
    // The sandbox is its own process: give it time to accept both before one more arrives.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await cutWithin(await silentConnection(p.info.url), 5000, "a connection past the cap");
    expect(refused.answer).toBe("");
    for (const holder of holders) holder.destroy();
    await expect
      .poll(() => p.stderr(), { timeout: 5000 })
      .toContain(
        "vigil sandbox: warning: refused 1 connection(s) since the last such warning (one a minute at most): 2 are open",
      );
  });

  it("a port already in use fails with a one-line error, not a stack trace", async () => {
    const p = await startCli(["--port", "0"]);
    running.push(p);
    const port = new URL(p.info.url).port;
    const run = runCli(["sandbox", "--port", port]);
    const { code } = await run.exited;
    expect(code).toBe(1);
    expect(run.stderr().trim()).toBe(`vigil sandbox: port ${port} on 127.0.0.1 is in use.`);
    expect(run.stdout()).toBe("");
  });

  it("a data file held by another sandbox fails with a one-line error", async () => {
    const data = join(dir, "held.db");
    const p = await startCli(["--port", "0", "--data", data]);
    running.push(p);
    const run = runCli(["sandbox", "--port", "0", "--data", data]);
    const { code } = await run.exited;
    expect(code).toBe(1);
    expect(run.stderr().trim()).toBe(`vigil sandbox: the data file ${data} is in use by another sandbox.`);
  });

  it("--host takes another loopback address", async () => {
    const p = await startCli(["--port", "0", "--host", "127.0.0.9"]);
    running.push(p);
    expect(p.info.url).toMatch(/^http:\/\/127\.0\.0\.9:\d+$/);
    expect((await new Client(p.info.url, p.info.token).get("/account")).status).toBe(200);
  });

  it("--help documents the flags", async () => {
    const run = runCli(["sandbox", "--help"]);
    await run.exited;
    for (const flag of ["--host", "--port", "--data", "--plan", "--max-connections"])
      expect(run.stdout()).toContain(flag);
  });
});
