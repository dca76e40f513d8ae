import { afterAll, beforeAll, expect, it } from "vitest";
import { type TimeSource, VigilClient } from "../../src/api/index.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** The client with its default pacer, primed from `GET /account/quota`, on a metered Trial account. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

/** Time read from the sandbox clock; a sleep moves that clock instead of waiting. */
async function sandboxTime(): Promise<TimeSource> {
  let nowMs = (await sb.advance(0)) * 1000;
  return {
    now: () => nowMs,
    async sleep(ms) {
      nowMs = (await sb.advance(Math.ceil(ms / 1000))) * 1000;
    },
  };
}

it("prime() spends nothing, and 15 concurrent reads on Trial (10 a minute) meet no 429", async () => {
  const acct = await sb.account({ plan: "trial", metered: true });
  const time = await sandboxTime();
  const client = new VigilClient({ baseUrl: sb.url, token: acct.token, time });
  await client.prime();
  const started = time.now();
  const answers = await Promise.all(
    Array.from({ length: 15 }, () =>
      client.call({ method: "GET", path: "/account", route: "GET /account", quotaClass: "read" }),
    ),
  );
  await client.close();
  expect(answers.every((a) => a.status === 200)).toBe(true);
  const stats = client.metrics.snapshot();
  expect(stats.byStatus).toEqual({ "200": 16 });
  expect(stats.pacingWaits.count).toBeGreaterThan(0);
  // Ten a minute: fifteen reads cannot all go out in the first 20 s of sandbox time.
  expect(time.now() - started).toBeGreaterThanOrEqual(20_000);

  const quota = await acct.get("/account/quota");
  const readsThisMonth = quota.body.pools.account.quotas.find(
    (q: { scope: string; quota: string }) => q.scope === "account" && q.quota === "read_per_month",
  );
  expect(readsThisMonth.used).toBe(15);
});
