import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../helpers/sandbox.ts";
import { startCli, stopCli } from "./sandbox-process.ts";

/**
 * Kill safety: every write the sandbox acknowledged survives SIGKILL. Writers
 * loop on acknowledged writes while the process is killed mid-stream; after a
 * restart on the same file, each writer's last acknowledged value is there
 * (or the one after it, if that write committed but its answer was lost).
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-kill-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SIGKILL mid-stream", () => {
  it("keeps every acknowledged write, across repeated kills", async () => {
    const data = join(dir, "state.db");
    let p = await startCli(["--port", "0", "--data", data]);
    const admin = () => new Client(p.info.url, p.info.adminToken);

    // Unmetered accounts, so the writers never meet a quota.
    const writers: Array<{ token: string; accountId: string; acked: number }> = [];
    for (let i = 0; i < 4; i++) {
      const res = await admin().post("/_sandbox/accounts", { metered: false });
      writers.push({ ...res.body, acked: -1 });
    }
    const createdAccounts: string[] = [];

    try {
      for (let round = 0; round < 3; round++) {
        let stop = false;
        const loops = writers.map(async (w) => {
          for (let n = w.acked + 1; !stop; n++) {
            try {
              const res = await new Client(p.info.url, w.token).patch("/account", { name: `n${n}` });
              if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
              w.acked = n;
            } catch {
              return;
            }
          }
        });
        // A fifth writer creates accounts through the control routes.
        const creator = (async () => {
          while (!stop) {
            try {
              const res = await admin().post("/_sandbox/accounts", {
                metered: false,
                login: `c${createdAccounts.length}@x.test`,
              });
              if (res.status !== 201) return;
              createdAccounts.push(res.body.accountId);
            } catch {
              return;
            }
          }
        })();
        // Killed mid-stream, once every writer is under way: on a busy machine 250 ms may see no write done.
        const deadline = Date.now() + 30_000;
        while (writers.some((w) => w.acked <= round * 5) && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 250 + round * 100));
        p.child.kill("SIGKILL");
        const exit = await p.exited;
        stop = true;
        await Promise.all([...loops, creator]);
        expect(exit.signal).toBe("SIGKILL");
        for (const w of writers) expect(w.acked, "each writer made progress").toBeGreaterThan(round * 5);

        p = await startCli(["--port", "0", "--data", data]);
        for (const w of writers) {
          const res = await new Client(p.info.url, w.token).get("/account");
          expect(res.status).toBe(200);
          const stored = Number(res.body.name.slice(1));
          expect([w.acked, w.acked + 1]).toContain(stored);
          w.acked = stored;
        }
        for (const id of createdAccounts) {
          const minted = await admin().post("/_sandbox/tokens", { accountId: id, scopes: ["account:read"] });
          expect(minted.status, `account ${id} survived`).toBe(201);
        }
      }
    } finally {
      p.child.kill("SIGTERM");
      await p.exited;
      await stopCli(p);
    }

    // The file is a sound SQLite database once the sandbox has stopped.
    const db = new DatabaseSync(data);
    try {
      expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      const accounts = db.prepare("SELECT count(*) AS n FROM docs WHERE collection = 'account'").get() as {
        n: number;
      };
      expect(accounts.n).toBeGreaterThanOrEqual(1 + writers.length + createdAccounts.length);
    } finally {
      db.close();
    }
  }, 60_000);
});
