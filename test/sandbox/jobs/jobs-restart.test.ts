import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Client, startTestSandbox } from "../../helpers/sandbox.ts";
import { key, monitorBody, settle } from "./helpers.ts";

/** `--data`: jobs queued or running when the sandbox stopped come back `interrupted`, and resume. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "vigil-jobs-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("marks unfinished jobs interrupted on restart; resume finishes one, cancel ends the other", async () => {
  const dataFile = join(dir, "state.db");
  const first = await startTestSandbox({ dataFile });
  const acct = await first.account({ plan: "enterprise" });
  // Each item commits to the file on its own: far more than can finish before the close below.
  const big = Array.from({ length: 300 }, () => monitorBody());
  const running = await acct.post("/monitor/bulk", { items: big }, key());
  expect(running.status).toBe(202);
  const queued = await acct.post("/monitor/bulk", { items: [monitorBody(), monitorBody()] }, key());
  expect(queued.status).toBe(202);
  await first.close();

  const second = await startTestSandbox({ dataFile });
  try {
    const c = new Client(second.url, acct.token);
    const interrupted = await c.get(`/job/${running.body.jobId}`);
    expect(interrupted.body.state).toBe("interrupted");
    const doneBefore = interrupted.body.progress.done as number;
    expect(doneBefore).toBeLessThan(300);
    // Not terminal: every poll carries a fresh Retry-After, and nothing moves until resumed.
    expect(Number(interrupted.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    const again = await c.get(`/job/${running.body.jobId}`);
    expect(again.headers["retry-after"]).toBeDefined();
    expect(again.body.progress.done).toBe(doneBefore);
    expect((await c.get("/job?state=interrupted")).body.data).toHaveLength(2);

    const resumed = await c.post(`/job/${running.body.jobId}/resume`, undefined, key());
    expect(resumed.status).toBe(202);
    expect(resumed.headers.location).toBe(`/job/${running.body.jobId}`);
    expect(resumed.body).toEqual({ jobId: running.body.jobId, accepted: 300 - doneBefore });
    const finished = await settle(c, running.body.jobId, "?status=failed");
    expect(finished.body).toMatchObject({ state: "succeeded", progress: { done: 300, total: 300 } });
    expect(finished.body.results).toEqual([]);
    expect(finished.body.summary.created).toBe(300);

    const cancel = await c.post(`/job/${queued.body.jobId}/cancel`, undefined, key());
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ state: "cancelled", summary: { cancelled: 2, pending: 0 } });
    expect(cancel.body.results.map((r: any) => r.status)).toEqual(["cancelled", "cancelled"]);
    expect(cancel.headers["retry-after"]).toBeUndefined();
    const count = (await c.get("/monitor?expand=count&limit=1")).body.count.total;
    expect(count).toBe(300);
    expect((await c.post(`/job/${queued.body.jobId}/resume`, undefined, key())).body.code).toBe(
      "job_not_resumable",
    );
  } finally {
    await second.close();
  }
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
    // Nothing runs after the cancel: the monitors are exactly the items processed before it.
    await new Promise((r) => setTimeout(r, 200));
    const after = await c.get(`/job/${created.body.jobId}?status=created&limit=500`);
    expect(after.body.summary).toEqual(summary);
    expect(after.body.results).toHaveLength(Math.min(500, summary.created));
    expect((await c.get("/monitor?expand=count&limit=1")).body.count.total).toBe(summary.created);
  } finally {
    await sb.close();
  }
});
