import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../helpers/sandbox.ts";
import { startCli, stopCli } from "./sandbox-process.ts";

/** SIGINT and SIGTERM stop the sandbox cleanly: exit code 0, port freed, data file closed. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-signals-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether the port can be bound again, i.e. the sandbox really let go of it. */
function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, host, () => server.close(() => done(true)));
  });
}

describe("signals", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`${signal} exits 0 and frees the port and the data file`, async () => {
      const data = join(dir, `${signal}.db`);
      const p = await startCli(["--port", "0", "--data", data]);
      try {
        const client = new Client(p.info.url, p.info.token);
        expect((await client.patch("/account", { name: signal })).status).toBe(200);
        const { port, hostname } = new URL(p.info.url);
        expect(await portIsFree(hostname, Number(port))).toBe(false);
        p.child.kill(signal);
        expect(await p.exited).toEqual({ code: 0, signal: null });
        expect(await portIsFree(hostname, Number(port))).toBe(true);
        expect(p.stderr()).toBe("");
        // The data file is released and holds the write.
        const again = await startCli(["--port", port, "--data", data]);
        try {
          expect(again.info.url).toBe(p.info.url);
          expect((await new Client(again.info.url, p.info.token).get("/account")).body.name).toBe(signal);
        } finally {
          again.child.kill("SIGTERM");
          expect((await again.exited).code).toBe(0);
        }
      } finally {
        await stopCli(p);
      }
    });
  }

  it("stops while a client holds a keep-alive connection open", async () => {
    const p = await startCli(["--port", "0"]);
    try {
      const client = new Client(p.info.url, p.info.token);
      expect((await client.get("/account")).status).toBe(200);
      // undici keeps the connection alive after the call; the stop must not wait for it.
      const started = Date.now();
      p.child.kill("SIGTERM");
      expect((await p.exited).code).toBe(0);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await stopCli(p);
    }
  });
});
