import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, startTestSandbox } from "../helpers/sandbox.ts";

/**
 * Write-through stays cheap: a request writes only the documents it changed,
 * never the whole state, and reads write nothing. A trigger added to the data
 * file between runs logs every row the sandbox writes.
 */
let dir: string;
let dataFile: string;
const tokens: Array<{ accountId: string; token: string }> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vigil-writes-"));
  dataFile = join(dir, "state.db");
  const sb = await startTestSandbox({ dataFile });
  for (let i = 0; i < 100; i++) {
    const res = await sb.admin.post("/_sandbox/accounts", { metered: false });
    tokens.push(res.body);
  }
  await sb.close();
  const db = new DatabaseSync(dataFile);
  db.exec(`
    CREATE TABLE write_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT, collection TEXT, id TEXT);
    CREATE TRIGGER log_docs AFTER INSERT ON docs BEGIN
      INSERT INTO write_log (tbl, collection, id) VALUES ('docs', new.collection, new.id);
    END;
    CREATE TRIGGER log_meta AFTER INSERT ON meta BEGIN
      INSERT INTO write_log (tbl, collection, id) VALUES ('meta', NULL, new.key);
    END;
  `);
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writes(): Array<{ tbl: string; collection: string | null; id: string }> {
  const db = new DatabaseSync(dataFile);
  try {
    return db.prepare("SELECT tbl, collection, id FROM write_log ORDER BY seq").all() as never;
  } finally {
    db.close();
  }
}

describe("write-through", () => {
  it("writes one row for a PATCH, two with an idempotency key, none for reads or refusals", async () => {
    const sb = await startTestSandbox({ dataFile });
    const [a, b] = tokens as [{ accountId: string; token: string }, { accountId: string; token: string }];
    const ca = new Client(sb.url, a.token);
    const cb = new Client(sb.url, b.token);
    for (let i = 0; i < 20; i++) await ca.get("/account");
    await ca.get("/account/quota");
    await ca.patch("/account", { nmae: "refused" });
    await ca.patch("/account", { name: "Only me" });
    await cb.patch("/account", { name: "Keyed" }, { headers: { "idempotency-key": "k1" } });
    await cb.patch("/account", { name: "Keyed" }, { headers: { "idempotency-key": "k1" } });
    await sb.close();

    expect(writes()).toEqual([
      { tbl: "docs", collection: "account", id: a.accountId },
      { tbl: "docs", collection: "account", id: b.accountId },
      { tbl: "docs", collection: "idempotency", id: `${b.accountId}:k1` },
    ]);
  });

  it("the written rows are what a restart reads back", async () => {
    const sb = await startTestSandbox({ dataFile });
    try {
      expect((await new Client(sb.url, tokens[0]!.token).get("/account")).body.name).toBe("Only me");
      expect((await new Client(sb.url, tokens[1]!.token).get("/account")).body.name).toBe("Keyed");
      expect((await new Client(sb.url, tokens[2]!.token).get("/account")).body.name).toBe("Sandbox account");
    } finally {
      await sb.close();
    }
  });
});
