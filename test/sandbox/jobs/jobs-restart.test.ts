import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client, startTestSandbox } from "../../helpers/sandbox.ts";
import { key, monitorBody, runJob, settle } from "./helpers.ts";

/** `--data`: jobs running when the sandbox stopped come back `interrupted`; queued ones stay queued and run. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-jobs-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The job item documents a stopped sandbox left in its data file. */
function storedItems(dataFile: string): Array<{ index: number; status: string; input?: unknown }> {
  const db = new DatabaseSync(dataFile, { readOnly: true });
  try {
    const rows = db.prepare("SELECT body FROM docs WHERE collection = 'jobItem'").all();
    return rows.map((row) => JSON.parse(row.body as string));
  } finally {
    db.close();
  }
}

/** Waits until the job has processed at least one item (it is `running`). */
async function untilRunning(c: Client, jobId: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const res = await c.get(`/job/${jobId}`);
    if (res.body.progress.done > 0) {
      expect(res.body.state).toBe("running");
      return;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`job ${jobId} did not start`);
}

/** Starts a sandbox on `dataFile` with a 1000-item monitor bulk create running, then stops it. */
async function stopWhileRunning(dataFile: string, extra?: (acct: Client) => Promise<void>) {
  const first = await startTestSandbox({ dataFile });
  const acct = await first.account({ plan: "enterprise" });
  // Each item commits to the file on its own: far more than can finish before the close below.
  const items = Array.from({ length: 1000 }, () => monitorBody());
  const running = await acct.post("/monitor/bulk", { items }, key());
  expect(running.status).toBe(202);
  await untilRunning(acct, running.body.jobId);
  await extra?.(acct);
  await first.close();
  return { token: acct.token, jobId: running.body.jobId as string };
}

it("marks a running job interrupted on restart and resumes it; a queued job stays queued and runs", async () => {
  const dataFile = join(dir, "state.db");
  let queuedId = "";
  const { token, jobId } = await stopWhileRunning(dataFile, async (acct) => {
    const queued = await acct.post("/monitor/bulk", { items: [monitorBody(), monitorBody()] }, key());
    expect(queued.status).toBe(202);
    queuedId = queued.body.jobId;
  });

  const second = await startTestSandbox({ dataFile });
  try {
    const c = new Client(second.url, token);
    const interrupted = await c.get(`/job/${jobId}`);
    expect(interrupted.body.state).toBe("interrupted");
    const doneBefore = interrupted.body.progress.done as number;
    expect(doneBefore).toBeGreaterThan(0);
    expect(doneBefore).toBeLessThan(1000);
    // Not terminal: every poll carries a fresh Retry-After (about a second per 200 items left), and
    // nothing moves until resumed.
    const expectedWait = Math.min(10, Math.max(1, Math.ceil((1000 - doneBefore) / 200)));
    expect(interrupted.headers["retry-after"]).toBe(String(expectedWait));
    const again = await c.get(`/job/${jobId}`);
    expect(again.headers["retry-after"]).toMatch(/^\d+$/);
    expect(Number(again.headers["retry-after"])).toBe(expectedWait);
    expect(again.body.progress.done).toBe(doneBefore);

    // The queued job never started: it was not interrupted, and runs after the restart.
    const queued = await settle(c, queuedId);
    expect(queued.body).toMatchObject({ state: "succeeded", summary: { created: 2 } });
    expect((await c.get("/job?state=interrupted")).body.data.map((j: any) => j.id)).toEqual([jobId]);
    expect((await c.post(`/job/${queuedId}/resume`, undefined, key())).body.code).toBe("job_not_resumable");

    const resumed = await c.post(`/job/${jobId}/resume`, undefined, key());
    expect(resumed.status).toBe(202);
    expect(resumed.headers.location).toBe(`/job/${jobId}`);
    expect(resumed.body).toEqual({ jobId, accepted: 1000 - doneBefore });
    const finished = await settle(c, jobId, "?status=failed");
    expect(finished.body).toMatchObject({ state: "succeeded", progress: { done: 1000, total: 1000 } });
    expect(finished.body.results).toEqual([]);
    expect(finished.body.summary.created).toBe(1000);
    const count = (await c.get("/monitor?expand=count&limit=1")).body.count.total;
    expect(count).toBe(1002);
  } finally {
    await second.close();
  }
});

it("cancels an interrupted job: the items processed before the stop stay, the rest are cancelled", async () => {
  const dataFile = join(dir, "interrupted-cancel.db");
  const { token, jobId } = await stopWhileRunning(dataFile);
  // Only the items still to do keep their input: resume needs it, nothing else does.
  const stopped = storedItems(dataFile);
  expect(stopped).toHaveLength(1000);
  const pending = stopped.filter((item) => item.status === "pending");
  expect(pending.length).toBeGreaterThan(0);
  expect(pending.every((item) => item.input !== undefined)).toBe(true);
  expect(stopped.filter((item) => item.status !== "pending").every((item) => !("input" in item))).toBe(true);
  const second = await startTestSandbox({ dataFile });
  try {
    const c = new Client(second.url, token);
    const before = await c.get(`/job/${jobId}`);
    expect(before.body.state).toBe("interrupted");
    const done = before.body.progress.done as number;
    const cancel = await c.post(`/job/${jobId}/cancel`, undefined, key());
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({
      state: "cancelled",
      summary: { created: done, cancelled: 1000 - done, pending: 0 },
    });
    expect(cancel.headers["retry-after"]).toBeUndefined();
    expect((await c.get("/monitor?expand=count&limit=1")).body.count.total).toBe(done);
  } finally {
    await second.close();
  }
  // Cancelled items drop their input too.
  expect(storedItems(dataFile).filter((item) => "input" in item)).toEqual([]);
});

it("keeps no item input once the item is recorded: credentials are not stored for the job's 7 days", async () => {
  const dataFile = join(dir, "inputs.db");
  const sb = await startTestSandbox({ dataFile });
  try {
    const c = await sb.account();
    const secret = "s3cret-bulk-credential";
    const withCredentials = monitorBody({ settings: { username: "probe", password: secret } });
    const job = await runJob(c, "/monitor/bulk", {
      items: [withCredentials, { ...withCredentials, interval: "often" }],
    });
    expect(job.body.summary).toMatchObject({ created: 1, failed: 1 });
  } finally {
    await sb.close();
  }
  const items = storedItems(dataFile);
  expect(items.map((item) => item.status).sort()).toEqual(["created", "failed"]);
  expect(items.filter((item) => "input" in item)).toEqual([]);
  expect(JSON.stringify(items)).not.toContain("s3cret-bulk-credential");
});

it("cancels a running job between items: processed items stay, the rest are cancelled", async () => {
  const sb = await startTestSandbox({ dataFile: join(dir, "cancel.db") });
  try {
    const c = await sb.account({ plan: "enterprise" });
    const items = Array.from({ length: 1000 }, () => monitorBody());
    const created = await c.post("/monitor/bulk", { items }, key());
    const cancel = await c.post(`/job/${created.body.jobId}/cancel`, undefined, key());
    expect(cancel.status).toBe(200);
    expect(cancel.body.state).toBe("cancelled");
    const { summary } = cancel.body;
    expect(summary.cancelled).toBeGreaterThan(0);
    expect(summary.created + summary.cancelled).toBe(1000);
    // Nothing runs after the cancel: once the background work has settled, the monitors are exactly the
    // items processed before it.
    await sb.settle();
    const after = await c.get(`/job/${created.body.jobId}?status=created&limit=500`);
    expect(after.body.summary).toEqual(summary);
    expect(after.body.results).toHaveLength(Math.min(500, summary.created));
    expect((await c.get("/monitor?expand=count&limit=1")).body.count.total).toBe(summary.created);
  } finally {
    await sb.close();
  }
});

it("keeps the delete-validate call's selection across a restart", async () => {
  const dataFile = join(dir, "selection.db");
  const first = await startTestSandbox({ dataFile });
  const acct = await first.account();
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) ids.push((await acct.post("/monitor", monitorBody({ tags: ["old"] }))).body.id);
  const filter = { tag: ["old"] };
  expect((await acct.post("/monitor/bulk-delete-validate", { filter })).body.matched).toBe(2);
  await first.close();

  const second = await startTestSandbox({ dataFile });
  try {
    const c = new Client(second.url, acct.token);
    expect((await c.patch(`/monitor/${ids[0]}`, { tags: [] })).status).toBe(200);
    expect((await c.post("/monitor", monitorBody({ tags: ["old"] }))).status).toBe(201);
    const swapped = await c.post("/monitor/bulk-delete", { filter, expectedCount: 2 }, key());
    expect(swapped.status).toBe(409);
    expect(swapped.body.errors[0]).toMatchObject({ pointer: "/filter", reason: "members_changed" });
  } finally {
    await second.close();
  }
});
