import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import {
  ApiError,
  type Caller,
  JobInterruptedError,
  operations,
  type Pacer,
  type QuotaClass,
  VigilClient,
  waitForJob,
} from "../../src/api/index.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Where the client stops waiting: a Retry-After too long to wait for, a call that spends nothing, a job that cannot go on. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
afterEach(async () => {
  await sb.admin.delete("/_sandbox/faults");
});

/** A pacer that lets everything through and remembers what it was asked. */
function recordingPacer() {
  const seen: string[] = [];
  const pacer: Pacer = {
    acquire: async (cls: QuotaClass) => void seen.push(`acquire ${cls}`),
    observe: (cls: QuotaClass, status: number) => void seen.push(`observe ${cls} ${status}`),
  };
  return { pacer, seen };
}

it("ends a call at once when its Retry-After is longer than it may wait", async () => {
  const acct = await sb.account();
  const { pacer } = recordingPacer();
  const sleeps: number[] = [];
  const client = new VigilClient({
    baseUrl: sb.url,
    token: acct.token,
    pacer,
    time: { now: () => Date.now(), sleep: async (ms) => void sleeps.push(ms) },
    maxBlockMs: 500,
  });
  // Fault 429s carry Retry-After: 1, longer than the 500 ms this client will wait.
  await sb.admin.post("/_sandbox/faults", { rate: 1, statuses: [429], when: "before", seed: 1 });
  const error = await client
    .call({ method: "GET", path: "/account", route: "GET /account", quotaClass: "read" })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status: 429, code: "rate_limited", attempts: 1 });
  expect(sleeps).toEqual([]);
  await client.close();
});

it("reads the quota without the pacer: the call spends nothing and its answer has no RateLimit headers", async () => {
  const acct = await sb.account({ plan: "trial", metered: true });
  const { pacer, seen } = recordingPacer();
  const client = new VigilClient({ baseUrl: sb.url, token: acct.token, pacer });
  const quota = (await operations(client).account.quota()) as { pools: unknown };
  expect(quota.pools).toBeDefined();
  expect(seen).toEqual([]);
  await operations(client).account.get();
  expect(seen).toEqual(["acquire read", "observe read 200"]);
  await client.close();
});

it("stops waiting for a job the server marked interrupted, naming it for resume", async () => {
  let polls = 0;
  const caller: Caller = {
    call: async <T>() => {
      polls++;
      return {
        status: 200,
        headers: {},
        body: { id: "j1", state: "interrupted" } as T,
        requestId: "r",
        replayed: false,
      };
    },
  };
  const error = await waitForJob(caller, "j1").then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JobInterruptedError);
  expect((error as JobInterruptedError).jobId).toBe("j1");
  expect(polls).toBe(1);
});
