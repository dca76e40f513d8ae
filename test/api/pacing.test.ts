import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxClock, SandboxTime } from "../../bench/lib.ts";
import { VigilClient } from "../../src/api/client.ts";
import { QuotaPacer } from "../../src/api/pacing.ts";
import type { Client } from "../helpers/sandbox.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `POST /_sandbox/clock` through the test sandbox's admin client. */
const clockOf =
  (admin: Client): SandboxClock =>
  async (body) => {
    const res = await admin.post("/_sandbox/clock", body);
    expect(res.status).toBe(200);
    return res.body.now as number;
  };

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("pacing against the sandbox", () => {
  it("100 concurrent reads on a Trial account meet no 429 and take about the quota's time", async () => {
    const acct = await sb.account({ plan: "trial", metered: true });
    const start = 1_900_000_037; // mid-minute: the windows are aligned to the clock, the burst is not
    const time = await SandboxTime.start(clockOf(sb.admin), start);
    // The test clock's sub-second lag eats up to a second of the default safety margin; give it back.
    const pacer = new QuotaPacer({ time, safetyMs: 2000 });
    const client = new VigilClient({ baseUrl: sb.url, token: acct.token, pacer, time });
    try {
      const quota = await client.call({
        method: "GET",
        path: "/account/quota",
        route: "GET /account/quota",
        quotaClass: "read",
      });
      pacer.prime(quota.body);
      await sb.admin.delete("/_sandbox/stats");

      const answers = await Promise.all(
        Array.from({ length: 100 }, () =>
          client.call({ method: "GET", path: "/account", route: "GET /account", quotaClass: "read" }),
        ),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);

      const stats = (await sb.admin.get("/_sandbox/stats")).body;
      expect(stats.byStatus).toEqual({ "200": 100 });
      expect(client.metrics.snapshot().retries).toBe(0);

      const end = (await sb.admin.post("/_sandbox/clock", {})).body.now as number;
      const elapsed = end - start;
      // 10 reads a minute: 100 reads need at least 9 window turns (540 s); evenly paced with 2 s of slack
      // per window, 99 gaps of 6.2 s (614 s).
      expect(elapsed).toBeGreaterThanOrEqual(540);
      expect(elapsed).toBeLessThanOrEqual(630);
    } finally {
      await client.close();
    }
  });
});
