import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox } from "../helpers/sandbox.ts";

/**
 * A request whose commit the data file refuses is undone in memory too: the
 * client gets 500, and no later read sees the write. A trigger installed
 * between runs makes the file refuse one account name, and far clock jumps.
 */
let dir: string;
let dataFile: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vigil-commit-"));
  dataFile = join(dir, "state.db");
  const sb = await startTestSandbox({ dataFile });
  expect((await sb.client.patch("/account", { name: "Before" })).status).toBe(200);
  await sb.close();
  const db = new DatabaseSync(dataFile);
  db.exec(`
    CREATE TRIGGER refuse_doomed BEFORE INSERT ON docs WHEN new.body LIKE '%"name":"Doomed"%' BEGIN
      SELECT RAISE(ABORT, 'the disk says no');
    END;
    CREATE TRIGGER refuse_far_clock BEFORE INSERT ON meta
      WHEN new.key = 'clockOffsetMs' AND CAST(new.value AS INTEGER) > 100000000000 BEGIN
      SELECT RAISE(ABORT, 'the disk says no');
    END;
  `);
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a failed commit", () => {
  it("answers 500 and leaves memory as it was; later writes still commit", async () => {
    const sb = await startTestSandbox({ dataFile });
    try {
      const failed = await sb.client.patch("/account", { name: "Doomed", company: "Acme" });
      expect(failed.status).toBe(500);
      expect(failed.body.code).toBe("internal_error");
      expect((await sb.client.get("/account")).body).toMatchObject({ name: "Before", company: null });
      // An idempotent retry after the failure is not answered from a record that never committed.
      const keyed = { headers: { "idempotency-key": "after-failure" } };
      expect((await sb.client.patch("/account", { name: "Doomed" }, keyed)).status).toBe(500);
      expect((await sb.client.patch("/account", { name: "After" }, keyed)).status).toBe(200);
    } finally {
      await sb.close();
    }
    const again = await startTestSandbox({ dataFile });
    try {
      expect((await again.client.get("/account")).body.name).toBe("After");
    } finally {
      await again.close();
    }
  });

  it("undoes meta values too: a refused clock jump leaves the clock where it was", async () => {
    const sb = await startTestSandbox({ dataFile });
    try {
      const before = (await sb.admin.post("/_sandbox/clock", {})).body.now as number;
      const jump = await sb.admin.post("/_sandbox/clock", { advanceSec: 10 * 365 * 86400 });
      expect(jump.status).toBe(500);
      const after = (await sb.admin.post("/_sandbox/clock", {})).body.now as number;
      expect(after - before).toBeLessThan(60);
      expect((await sb.admin.post("/_sandbox/clock", { advanceSec: 60 })).body.now).toBeGreaterThan(after);
    } finally {
      await sb.close();
    }
  });
});
