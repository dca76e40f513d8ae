import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { CallResult, Client } from "../../helpers/sandbox.ts";

export const key = () => ({ headers: { "idempotency-key": randomUUID() } });

/** An http monitor create body on a unique address. */
export const monitorBody = (extra: Record<string, unknown> = {}) => ({
  type: "http",
  url: `https://example.com/${randomUUID()}`,
  locations: { pools: ["allworld"] },
  ...extra,
});

/** Polls a job until it reaches a terminal state; answers the last read. */
export async function settle(c: Client, jobId: string, query = ""): Promise<CallResult> {
  for (let i = 0; i < 400; i++) {
    const res = await c.get(`/job/${jobId}${query}`);
    expect(res.status, res.text).toBe(200);
    if (["succeeded", "partial", "failed", "cancelled"].includes(res.body.state)) {
      expect(res.headers["retry-after"]).toBeUndefined();
      return res;
    }
    // Every non-terminal poll carries a fresh Retry-After.
    expect(Number(res.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** Posts a job-creating request with a fresh key, checks the 202 answer and waits for the job to finish. */
export async function runJob(c: Client, path: string, body: unknown): Promise<CallResult> {
  const res = await c.post(path, body, key());
  expect(res.status, res.text).toBe(202);
  return settle(c, res.body.jobId);
}
