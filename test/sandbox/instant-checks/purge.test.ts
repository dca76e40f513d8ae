import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client, startTestSandbox } from "../../helpers/sandbox.ts";

/**
 * The background task reads only unfinished checks; checks past their 7 days
 * leave the data file in a sweep that runs at most every 5 minutes of sandbox
 * time. (The running sandbox locks its file, so it is read after a stop.)
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-instant-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const day = 86400;
const http = (url: string) => ({ type: "http", url, locations: { pools: ["asia"] } });

/** Document ids per collection in a stopped sandbox's data file. */
function stored(dataFile: string, collection: string): string[] {
  const db = new DatabaseSync(dataFile, { readOnly: true });
  try {
    const rows = db.prepare("SELECT id FROM docs WHERE collection = ? ORDER BY id").all(collection);
    return rows.map((row) => row.id as string);
  } finally {
    db.close();
  }
}

it("queues only unfinished checks, and sweeps expired ones on schedule after the clock moves", async () => {
  const dataFile = join(dir, "state.db");
  const first = await startTestSandbox({ dataFile });
  const acct = await first.account();
  await first.admin.post("/_sandbox/clock", { now: 1_900_000_000 });
  const old = await acct.post("/check", http("https://old.example.com"));
  expect(old.status).toBe(201);
  // Sweeps here (the clock moved far), a hundred seconds before the check expires.
  await first.advance(7 * day - 100);
  const kept = await acct.post("/check", http("https://kept.example.com"));
  await first.advance(1);
  expect((await acct.get(kept.headers.location!)).body.state).toBe("finished");
  // Expired: reads answer 404 at once, but the last sweep was under 5 minutes ago.
  await first.advance(150);
  expect((await acct.get(old.headers.location!)).status).toBe(404);
  await first.close();
  expect(stored(dataFile, "instantCheck")).toEqual([old.body.id, kept.body.id].sort());
  expect(stored(dataFile, "instantCheckPending")).toEqual([]);

  // The schedule is kept in the data file: the next sweep comes 5 minutes after the last.
  const second = await startTestSandbox({ dataFile });
  try {
    const c = new Client(second.url, acct.token);
    await second.advance(300);
    expect((await c.get(kept.headers.location!)).status).toBe(200);
    expect((await c.get("/check")).body.data.map((r: any) => r.id)).toEqual([kept.body.id]);
  } finally {
    await second.close();
  }
  expect(stored(dataFile, "instantCheck")).toEqual([kept.body.id]);
});
