/**
 * Writes as bulk-job items (`src/engine/bulk/jobs.ts`): the one threshold policy applied to each request for
 * apply and for a provider's batch, requests of at most `maxBulkItems`, and what each result row makes of its
 * write.
 */
import { describe, expect, it } from "vitest";
import type { JobResultRow } from "../../../src/api/index.ts";
import { type JobRequest, rowOutcome, runJobs } from "../../../src/engine/bulk/jobs.ts";
import { applyPolicy, batchPolicy } from "../../../src/engine/bulk/policy.ts";
import type { BulkCreate } from "../../../src/engine/bulk/route.ts";
import { jobOf, monitorKind, recording } from "./recording-context.ts";

const createsOf = (n: number): BulkCreate[] =>
  Array.from({ length: n }, (_, i) => ({
    op: "create",
    kind: monitorKind,
    body: { type: "http", url: `https://m${i}.example.com/` },
  }));

/** A bulk create that answers every item created, recording the items of each job. */
function creating(jobs: unknown[][], rows?: (items: unknown[]) => JobResultRow[]): JobRequest<BulkCreate> {
  return {
    route: "POST /monitor/bulk",
    source: "monitor bulk create",
    item: (w) => w.body,
    submit: async (items) => {
      jobs.push(items);
      return jobOf(
        rows?.(items) ??
          items.map((_, index) => ({
            index,
            status: "created" as const,
            entityId: `id-${jobs.length}-${index}`,
          })),
      );
    },
  };
}

describe("when a job pays", () => {
  it.each([
    ["apply", applyPolicy, 2, 0],
    ["apply", applyPolicy, 3, 1],
    ["a provider's batch", batchPolicy, 1, 0],
    ["a provider's batch", batchPolicy, 2, 1],
  ] as const)("%s, %i writes: %i job(s)", async (_, policy, writes, expected) => {
    const jobs: unknown[][] = [];
    const r = recording({ policy });
    const creates = createsOf(writes);
    await runJobs(r.ctx, creates, creating(jobs));
    expect(jobs).toHaveLength(expected);
    expect(r.alone).toEqual(expected === 0 ? creates : []);
  });

  it("judges each request of at most maxBulkItems: a remainder too small to pay goes alone", async () => {
    const jobs: unknown[][] = [];
    const r = recording({ policy: applyPolicy, maxItems: 3 });
    const creates = createsOf(8);
    await runJobs(r.ctx, creates, creating(jobs));
    expect(jobs.map((items) => items.length)).toEqual([3, 3]);
    expect(r.alone).toEqual(creates.slice(6));
    expect(creates.slice(0, 6).map((w) => r.outcomes.get(w)?.done)).toEqual(Array(6).fill(true));
  });

  it("a job refused as a whole gives every write its problem", async () => {
    const r = recording({ policy: batchPolicy });
    const error = new Error("interrupted");
    const creates = createsOf(2);
    await runJobs(r.ctx, creates, {
      ...creating([]),
      submit: async () => {
        throw error;
      },
    });
    expect(creates.map((w) => r.outcomes.get(w))).toEqual([
      { done: false, error },
      { done: false, error },
    ]);
  });
});

describe("a result row", () => {
  const job = jobOf([]);
  it.each(["created", "createdDisabled", "updated", "skipped", "deleted"] as const)("%s: done", (status) => {
    expect(rowOutcome({ index: 0, status, entityId: "x1" }, job, true, "monitor bulk create")).toEqual({
      done: true,
      id: "x1",
      status,
      receipt: undefined,
      replayed: true,
    });
  });

  it("failed: refused with its own problem at its own pointers, and the object a duplicate names", () => {
    const error = {
      type: "about:blank",
      title: "Duplicate monitor",
      status: 409,
      code: "duplicate_monitor",
      existingId: "m-7",
      errors: [{ pointer: "/items/4/url", reason: "duplicate" }],
    };
    const outcome = rowOutcome({ index: 4, status: "failed", error }, job, false, "monitor bulk create");
    expect(outcome).toMatchObject({ done: false, happened: false, duplicate: "m-7" });
    const refused = (outcome as { error: { errors: { pointer: string }[]; message: string } }).error;
    expect(refused.errors[0]?.pointer).toBe("/url");
    expect(refused.message).toMatch(/^monitor bulk create: 409 duplicate_monitor/);
  });

  it.each(["cancelled", "pending"] as const)("%s: never ran, so it changed nothing", (status) => {
    expect(rowOutcome({ index: 0, status }, job, false, "monitor bulk create")).toEqual({
      done: false,
      error: new Error("job job-1 was cancelled before this item ran"),
      happened: false,
    });
  });

  it("absent: not reported, so whether it happened is unknown", () => {
    const outcome = rowOutcome(undefined, job, false, "monitor bulk create");
    expect(outcome).toEqual({ done: false, error: new Error("job job-1 did not report this item") });
    expect("happened" in outcome).toBe(false);
  });
});
