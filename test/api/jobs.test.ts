import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobItemError } from "../../src/api/jobs.ts";
import { operations } from "../../src/api/operations.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { accountCaller, quickTime } from "./caller.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});

const http = (path: string) => ({
  type: "http" as const,
  url: `https://example.com/${path}`,
  locations: { pools: ["allworld"] },
});

describe("job runner", () => {
  it("runs a bulk create with invalid items: typed per-item problems, partial state, every row", async () => {
    const caller = await accountCaller(sb);
    const ops = operations(caller);
    const time = quickTime();
    const tag = randomUUID().slice(0, 8);
    const items = [
      { ...http(`${tag}/0`), tags: [tag] },
      { ...http(`${tag}/1`), tags: [tag], interval: 7 },
      { ...http(`${tag}/2`), tags: [tag] },
      { type: "http" as const, url: "", tags: [tag] },
      { ...http(`${tag}/4`), tags: [tag] },
    ];
    // A results page of 2 rows makes the runner follow resultsNextCursor over three pages.
    const outcome = await ops.monitor.bulkCreate(items, { time, pageSize: 2 });

    expect(outcome.job.state).toBe("partial");
    expect(outcome.job.kind).toBe("monitor.bulkCreate");
    expect(outcome.rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(outcome.ok.map((r) => r.index)).toEqual([0, 2, 4]);
    expect(outcome.failures.map((f) => f.index)).toEqual([1, 3]);
    for (const failure of outcome.failures) {
      expect(failure).toBeInstanceOf(JobItemError);
      expect(failure.status).toBe(422);
      expect(failure.code).toMatch(/^[a-z_]+$/);
      expect(failure.errors.length).toBeGreaterThan(0);
      expect(failure.errors[0]?.pointer).toMatch(new RegExp(`^/items/${failure.index}/`));
    }
    expect(outcome.failures[0]?.itemRef).toBe(`https://example.com/${tag}/1`);

    // Partial state: exactly the good items exist.
    const stored = await ops.monitor.all({ filters: { tag: [tag] } });
    expect(stored.map((m) => m.url).sort()).toEqual([0, 2, 4].map((i) => `https://example.com/${tag}/${i}`));
    expect(new Set(outcome.ok.map((r) => r.entityId))).toEqual(new Set(stored.map((m) => m.id)));

    // Paced by Retry-After (whole seconds), and the submission carried a key.
    expect(time.sleeps.length).toBeGreaterThan(0);
    for (const ms of time.sleeps) expect(ms % 1000).toBe(0);
    const submit = caller.specs.find((s) => s.route === "POST /monitor/bulk");
    expect(submit?.quotaClass).toBe("write");
    const polls = caller.specs.filter((s) => s.route === "GET /job/{id}");
    expect(polls.every((s) => s.quotaClass === "read")).toBe(true);
    // Every poll asks for a page; the terminal one brought the first, so two more pages follow its cursor.
    expect(polls.every((s) => s.query?.limit === 2)).toBe(true);
    expect(polls.filter((s) => s.query?.cursor !== undefined)).toHaveLength(2);
  });

  it("replays a submission with the same key instead of starting a second job", async () => {
    const caller = await accountCaller(sb);
    const ops = operations(caller);
    const tag = randomUUID().slice(0, 8);
    const key = randomUUID();
    const items = [{ ...http(`${tag}/a`), tags: [tag] }];
    const first = await ops.monitor.bulkCreate(items, { time: quickTime(), idempotencyKey: key });
    const replayTime = quickTime();
    const again = await ops.monitor.bulkCreate(items, { time: replayTime, idempotencyKey: key });
    expect(again.job.id).toBe(first.job.id);
    // The replayed 202's pause ran from the first submission: the finished job is polled at once.
    expect(replayTime.sleeps).toEqual([]);
    expect(await ops.monitor.all({ filters: { tag: [tag] } })).toHaveLength(1);
  });

  it("runs the two-phase bulk delete, and a failed job reports every item", async () => {
    const caller = await accountCaller(sb);
    const ops = operations(caller);
    const tag = randomUUID().slice(0, 8);
    await ops.monitor.bulkCreate(
      [0, 1, 2].map((i) => ({ ...http(`${tag}/${i}`), tags: [tag] })),
      { time: quickTime() },
    );
    const selection = await ops.monitor.bulkDeleteValidate({ tag: [tag] });
    expect(selection.matched).toBe(3);
    const deleted = await ops.monitor.bulkDelete({ tag: [tag] }, selection.matched, { time: quickTime() });
    expect(deleted.job.state).toBe("succeeded");
    expect(deleted.ok.map((r) => r.status)).toEqual(["deleted", "deleted", "deleted"]);
    expect(await ops.monitor.all({ filters: { tag: [tag] } })).toEqual([]);

    const failed = await ops.monitor.bulkCreate([{ ...http(`${tag}/x`), interval: 7 }], {
      time: quickTime(),
    });
    expect(failed.job.state).toBe("failed");
    expect(failed.job.error?.code).toBe(failed.failures[0]?.code);
  });

  it("lists jobs and reads one job's results by status", async () => {
    const caller = await accountCaller(sb);
    const ops = operations(caller);
    const tag = randomUUID().slice(0, 8);
    const outcome = await ops.monitor.bulkCreate(
      [{ ...http(`${tag}/ok`) }, { ...http(`${tag}/bad`), interval: 7 }],
      { time: quickTime() },
    );
    const id = outcome.job.id as string;
    const failedOnly = await ops.jobs.results(id, { status: ["failed"] });
    expect(failedOnly.map((r) => r.index)).toEqual([1]);
    const listed = await ops.jobs.all();
    expect(listed.map((j) => j.id)).toContain(id);
    // waiting on a finished job (say, after a crash) answers the same outcome, in one read: the poll that
    // finds it finished carries its rows
    const before = caller.specs.length;
    const again = await ops.jobs.wait(id, { time: quickTime() });
    expect(again.rows).toEqual(outcome.rows);
    expect(caller.specs.slice(before).map((s) => s.route)).toEqual(["GET /job/{id}"]);
  });
});
