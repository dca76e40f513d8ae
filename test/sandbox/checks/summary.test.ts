import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** `GET /monitor/result/summary`: buckets, uptime arithmetic, SLA members, the account roll-up and its limits. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const hour = 3600;
const outcome = (id: string, state: "up" | "down") =>
  sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state });

describe("uptime summary", () => {
  it("answers one row per monitor and bucket with uptime, SLA and incident counts", async () => {
    const c = await sb.account();
    const a = await monitor(c);
    const b = await monitor(c);
    // Align to an hour so the buckets are easy to read: a is up 45 min then down 15 min.
    // Each moment is set, not advanced to: real seconds spent between calls would shift the buckets.
    const now = await sb.advance(0);
    const start = now - (now % hour) + hour;
    await sb.setClock(start);
    await outcome(a, "up");
    await sb.setClock(start + 45 * 60);
    await outcome(a, "down");
    await sb.setClock(start + hour);
    await outcome(a, "up");
    await outcome(b, "up");
    const end = start + 2 * hour;
    await sb.setClock(end);

    const res = await c.get(
      `/monitor/result/summary?monitor=${a},${b}&from=${start}&to=${end}&bucket=hour&sla=99&expand=incidentCounts&metrics=responseTime`,
    );
    expect(res.status, res.text).toBe(200);
    const rows = res.body.data;
    expect(rows.map((r: any) => [r.monitorId, r.from])).toEqual(
      [a, b].sort().flatMap((id) => [
        [id, start],
        [id, start + hour],
      ]),
    );
    const first = rows.find((r: any) => r.monitorId === a && r.from === start);
    expect(first).toMatchObject({
      to: start + hour,
      upSec: 2700,
      downSec: 900,
      totalSec: 3600,
      uptimePercent: 75,
      slaTarget: 99,
      slaMet: false,
      errorBudgetSecRemaining: Math.round(0.01 * 3600 - 900),
      downSpans: 1,
      // The recovery at the bucket's end belongs to the next bucket: buckets are half-open.
      incidents: { opened: 1, restored: 0 },
      checks: { total: 2, up: 1, down: 1 },
    });
    expect(first.metrics.responseTime).toHaveLength(1);
    const second = rows.find((r: any) => r.monitorId === a && r.from === start + hour);
    expect(second).toMatchObject({
      upSec: 3600,
      uptimePercent: 100,
      slaMet: true,
      incidents: { opened: 0, restored: 1 },
    });
    const emptyB = rows.find((r: any) => r.monitorId === b && r.from === start);
    expect(emptyB).toMatchObject({ totalSec: 0, uptimePercent: null, slaMet: null });

    const rollup = await c.get(`/monitor/result/summary?groupBy=account&from=${start}&to=${end}`);
    expect(rollup.body.data).toEqual([
      expect.objectContaining({ scope: "account", monitors: 2, sampled: false, upSec: 2700 + 3600 + 3600 }),
    ]);
    expect(rollup.body.data[0].monitorId).toBeUndefined();
  });

  it("refuses a missing selection, over-wide roll-ups, too many buckets and foreign monitors", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const now = await sb.advance(0);
    const missing = await c.get("/monitor/result/summary");
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ pointer: "/monitor", reason: "required" });
    const wide = await c.get(`/monitor/result/summary?groupBy=account&from=${now - 31 * 86400}`);
    expect(wide.body).toMatchObject({ code: "invalid_range", maxSpan: 30 * 86400 });
    const buckets = await c.get(`/monitor/result/summary?monitor=${m}&bucket=hour&from=${now - 50 * 86400}`);
    expect(buckets.status).toBe(422);
    expect(buckets.body.errors[0]).toMatchObject({ pointer: "/bucket", reason: "too_many_buckets" });
    const stranger = await sb.account();
    expect((await stranger.get(`/monitor/result/summary?monitor=${m}`)).status).toBe(404);
    expect((await c.get(`/monitor/result/summary?monitor=${randomUUID()}`)).status).toBe(404);
    const badSla = await c.get(`/monitor/result/summary?monitor=${m}&sla=120`);
    expect(badSla.body.errors[0]).toMatchObject({ pointer: "/sla", reason: "out_of_range" });
  });
});
