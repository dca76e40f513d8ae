import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { key, monitorBody, runJob, settle } from "./helpers.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("job creation and polling", () => {
  it("answers 202 with Location, Retry-After and {jobId, accepted}; a terminal poll has no Retry-After", async () => {
    const c = await sb.account();
    const res = await c.post("/monitor/bulk", { items: [monitorBody(), monitorBody()] }, key());
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe(`/job/${res.body.jobId}`);
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(res.body).toEqual({ jobId: expect.any(String), accepted: 2 });
    const job = await settle(c, res.body.jobId);
    expect(job.body).toMatchObject({
      id: res.body.jobId,
      kind: "monitor.bulkCreate",
      state: "succeeded",
      progress: { done: 2, total: 2 },
      summary: { created: 2, failed: 0, pending: 0 },
      callback: null,
      error: null,
      resultsHasMore: false,
      resultsNextCursor: null,
    });
    expect(job.body.expiresAt - job.body.created).toBe(7 * 86400);
    expect(job.body.finishedAt).toBeGreaterThanOrEqual(job.body.startedAt);
    // A second terminal poll still answers 200 and still carries no Retry-After.
    const again = await c.get(`/job/${res.body.jobId}`);
    expect(again.status).toBe(200);
    expect(again.headers["retry-after"]).toBeUndefined();
  });

  it("ends failed when every item failed, with the first failure as the job's error", async () => {
    const c = await sb.account();
    const job = await runJob(c, "/monitor/bulk", { items: [{ type: "http" }, { type: "nope" }] });
    expect(job.body.state).toBe("failed");
    expect(job.body.summary).toMatchObject({ failed: 2, created: 0 });
    expect(job.body.error).toEqual(job.body.results[0].error);
    expect(job.body.error.errors[0].pointer).toMatch(/^\/items\/0\//);
  });

  it("pages results with limit and cursor, and filters them by status", async () => {
    const c = await sb.account();
    const items = [
      monitorBody(),
      { type: "http", url: "bad" },
      monitorBody(),
      { type: "http", url: "bad2" },
      monitorBody(),
    ];
    const job = await runJob(c, "/monitor/bulk", { items });
    expect(job.body.state).toBe("partial");
    const first = await c.get(`/job/${job.body.id}?limit=2`);
    expect(first.body.results.map((r: any) => r.index)).toEqual([0, 1]);
    expect(first.body.resultsHasMore).toBe(true);
    const second = await c.get(`/job/${job.body.id}?limit=2&cursor=${first.body.resultsNextCursor}`);
    expect(second.body.results.map((r: any) => r.index)).toEqual([2, 3]);
    const last = await c.get(`/job/${job.body.id}?limit=2&cursor=${second.body.resultsNextCursor}`);
    expect(last.body.results.map((r: any) => r.index)).toEqual([4]);
    expect(last.body).toMatchObject({ resultsHasMore: false, resultsNextCursor: null });

    const failed = await c.get(`/job/${job.body.id}?status=failed&limit=1`);
    expect(failed.body.results.map((r: any) => r.index)).toEqual([1]);
    const nextFailed = await c.get(
      `/job/${job.body.id}?status=failed&limit=1&cursor=${failed.body.resultsNextCursor}`,
    );
    expect(nextFailed.body.results.map((r: any) => r.index)).toEqual([3]);
    // A cursor is bound to its status filter.
    const foreign = await c.get(`/job/${job.body.id}?limit=1&cursor=${failed.body.resultsNextCursor}`);
    expect(foreign.status).toBe(422);
    expect(foreign.body.code).toBe("invalid_cursor");
    expect((await c.get(`/job/${job.body.id}?limit=0`)).body.code).toBe("invalid_limit");
  });

  it("lists jobs newest first, filtered by state and kind", async () => {
    const c = await sb.account();
    const ok = await runJob(c, "/monitor/bulk", { items: [monitorBody()] });
    await sb.advance(5);
    const bad = await runJob(c, "/monitor/bulk", { items: [{ type: "http" }] });
    const all = await c.get("/job");
    expect(all.body.data.map((j: any) => j.id)).toEqual([bad.body.id, ok.body.id]);
    expect(all.body.data[0].results).toBeUndefined();
    const failed = await c.post("/job/q", { state: ["failed"] });
    expect(failed.body.data.map((j: any) => j.id)).toEqual([bad.body.id]);
    expect((await c.get("/job?kind=contact.bulkWrite")).body.data).toEqual([]);
    expect((await c.get("/job?state=done")).body.code).toBe("unknown_enum_value");
    // Another account sees none of them.
    const other = await sb.account();
    expect((await other.get("/job")).body.data).toEqual([]);
    expect((await other.get(`/job/${ok.body.id}`)).status).toBe(404);
  });

  it("keeps a job readable 7 days from creation, then answers 404", async () => {
    const c = await sb.account();
    const job = await runJob(c, "/monitor/bulk", { items: [monitorBody()] });
    await sb.advance(7 * 86400 - 60);
    expect((await c.get(`/job/${job.body.id}`)).status).toBe(200);
    await sb.advance(120);
    const gone = await c.get(`/job/${job.body.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("not_found");
    expect((await c.get("/job")).body.data).toEqual([]);
  });
});

describe("cancel and resume on finished jobs", () => {
  it("refuses to cancel a finished job (409 job_not_cancellable) and needs an Idempotency-Key", async () => {
    const c = await sb.account();
    const job = await runJob(c, "/monitor/bulk", { items: [monitorBody()] });
    const noKey = await c.post(`/job/${job.body.id}/cancel`);
    expect(noKey.status).toBe(400);
    expect(noKey.body.code).toBe("idempotency_key_required");
    const res = await c.post(`/job/${job.body.id}/cancel`, undefined, key());
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("job_not_cancellable");
    expect((await c.get(`/job/${job.body.id}`)).body.state).toBe("succeeded");
  });

  it("resumes only interrupted jobs (409 job_not_resumable)", async () => {
    const c = await sb.account();
    const job = await runJob(c, "/monitor/bulk", { items: [monitorBody()] });
    expect((await c.post(`/job/${job.body.id}/resume`)).body.code).toBe("idempotency_key_required");
    const res = await c.post(`/job/${job.body.id}/resume`, undefined, key());
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("job_not_resumable");
    expect((await c.post("/job/00000000-0000-4000-8000-000000000000/resume", undefined, key())).status).toBe(
      404,
    );
  });
});

describe("job scopes: those of the operation that created the job", () => {
  it("answers 403 missing_scope to a token without them, and lists only the jobs the token may see", async () => {
    const c = await sb.account();
    const monitorJob = await runJob(c, "/monitor/bulk", { items: [monitorBody()] });
    const contactJob = await runJob(c, "/contact/bulk", {
      items: [{ type: "http", address: "https://hooks.example.com/a" }],
    });
    const minted = await sb.mint({ accountId: c.accountId, scopes: ["contact:write"] });
    expect(minted.status).toBe(201);
    const contactsOnly = new Client(sb.url, minted.body.token);
    const refused = await contactsOnly.get(`/job/${monitorJob.body.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("missing_scope");
    expect(refused.body.errors[0]).toEqual({ required: "monitor:write", granted: ["contact:write"] });
    expect((await contactsOnly.post(`/job/${monitorJob.body.id}/cancel`, undefined, key())).status).toBe(403);
    expect((await contactsOnly.get(`/job/${contactJob.body.id}`)).status).toBe(200);
    const listed = await contactsOnly.get("/job");
    expect(listed.body.data.map((j: any) => j.id)).toEqual([contactJob.body.id]);
    // A family grants its leaves.
    const family = await sb.mint({ accountId: c.accountId, scopes: ["monitor"] });
    expect((await new Client(sb.url, family.body.token).get(`/job/${monitorJob.body.id}`)).status).toBe(200);
  });
});
