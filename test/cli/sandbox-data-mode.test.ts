import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../helpers/sandbox.ts";
import { runCli, startCli, stopCli } from "./sandbox-process.ts";

/** The data file holds the signing key and admin secret: it, and SQLite's side files, are 0600. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-data-mode-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (path: string) => statSync(path).mode & 0o777;
/** The data file and whichever side files SQLite has made. */
const filesOf = (data: string) =>
  [data, `${data}-wal`, `${data}-shm`, `${data}-journal`].filter((path) => existsSync(path));

describe.skipIf(process.platform === "win32")("the sandbox's data file", { timeout: 150_000 }, () => {
  it("is created 0600, and so are its side files", async () => {
    const data = join(dir, "new.db");
    const p = await startCli(["--data", data], 60_000);
    try {
      const client = new Client(p.info.url, p.info.token);
      expect((await client.patch("/account", { name: "Modes" })).status).toBe(200);
      const files = filesOf(data);
      expect(files).toContain(`${data}-wal`);
      for (const file of files) expect(modeOf(file).toString(8), file).toBe("600");
      expect(p.stderr()).toBe("");
    } finally {
      await stopCli(p);
    }
  });

  it("that others can read is tightened to 0600 at start, with a warning per file", async () => {
    const data = join(dir, "old.db");
    const first = await startCli(["--data", data], 60_000);
    const client = new Client(first.info.url, first.info.token);
    expect((await client.patch("/account", { name: "Kept" })).status).toBe(200);
    // Killed: its WAL stays beside the database, as an older vigil would have left both, 0644.
    first.child.kill("SIGKILL");
    await first.exited;
    const left = filesOf(data);
    expect(left).toContain(`${data}-wal`);
    for (const file of left) chmodSync(file, 0o644);

    const again = await startCli(["--data", data], 60_000);
    try {
      for (const file of filesOf(data)) expect(modeOf(file).toString(8), file).toBe("600");
      for (const file of left)
        expect(again.stderr()).toContain(
          `vigil sandbox: warning: ${file} was readable by others (mode 0644); it is now 0600.`,
        );
      expect((await new Client(again.info.url, first.info.token).get("/account")).body.name).toBe("Kept");
    } finally {
      await stopCli(again);
    }
  });

  it("that cannot be created is refused in one line, not a stack trace", async () => {
    const data = join(dir, "missing", "x.db");
    const run = runCli(["sandbox", "--data", data]);
    expect(await run.exited).toEqual({ code: 1, signal: null });
    expect(run.stderr()).toBe(
      `vigil sandbox: the data file ${data} cannot be used: its directory does not exist.\n`,
    );
  });
});
