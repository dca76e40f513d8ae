import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client, startTestSandbox } from "../../helpers/sandbox.ts";
import { monitorBody, runJob } from "./helpers.ts";

/**
 * The runner reads only queued and running jobs; jobs past their 7 days (with
 * their items) and delete-validate records past their hour leave the data file
 * in a sweep that runs at most every 5 minutes of sandbox time. (The running
 * sandbox locks its file, so it is read after a stop.)
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-jobs-purge-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const day = 86400;

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

it("indexes only runnable jobs, and sweeps expired jobs and selections on schedule after the clock moves", async () => {
  const dataFile = join(dir, "state.db");
  const first = await startTestSandbox({ dataFile });
  const acct = await first.account();
  await first.admin.post("/_sandbox/clock", { now: 1_900_000_000 });
  const old = await runJob(acct, "/monitor/bulk", { items: [monitorBody(), monitorBody()] });
  expect(
    (await acct.post("/monitor/bulk-delete-validate", { filter: { type: ["http"] } })).body.matched,
  ).toBe(2);
  // Sweeps here (the clock moved far): the selection's hour is over, the job has a hundred seconds left.
  await first.advance(7 * day - 100);
  const kept = await runJob(acct, "/monitor/bulk", { items: [monitorBody()] });
  // Expired: reads answer 404 at once, but the last sweep was under 5 minutes ago.
  await first.advance(150);
  expect((await acct.get(`/job/${old.body.id}`)).status).toBe(404);
  await first.close();
  expect(stored(dataFile, "job")).toEqual([old.body.id, kept.body.id].sort());
  expect(stored(dataFile, "jobItem")).toHaveLength(3);
  expect(stored(dataFile, "jobRunnable")).toEqual([]);
  expect(stored(dataFile, "bulkDeleteSelection")).toEqual([]);

  // The schedule is kept in the data file: the next sweep comes 5 minutes after the last.
  const second = await startTestSandbox({ dataFile });
  try {
    const c = new Client(second.url, acct.token);
    await second.advance(300);
    expect((await c.get("/job")).body.data.map((j: any) => j.id)).toEqual([kept.body.id]);
  } finally {
    await second.close();
  }
  expect(stored(dataFile, "job")).toEqual([kept.body.id]);
  expect(stored(dataFile, "jobItem")).toEqual([`${kept.body.id}:0`]);
});
