import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** Incident, span and result reads: windows, paging, expand, plan gating, isolation, monitor blocks. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const day = 86400;
const outcome = async (id: string, state: "up" | "down") =>
  (await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state })).body;

/** Two episodes on `a` (one 2 days ago, one open now) and one on `b`. */
async function history() {
  const c = await sb.account();
  const a = await monitor(c);
  const b = await monitor(c);
  const old = await outcome(a, "down");
  const oldStart = await sb.advance(0);
  await sb.advance(600);
  await outcome(a, "up");
  await sb.advance(2 * day);
  const other = await outcome(b, "down");
  await sb.advance(60);
  const open = await outcome(a, "down");
  const now = await sb.advance(30);
  return { c, a, b, old, oldStart, other, open, now };
}

describe("incident lists", () => {
  it("answer incidents overlapping the window, newest first, with sorts, paging, count and the /q twin", async () => {
    const { c, a, b, old, other, open, now } = await history();
    const all = await c.get("/monitor/incident?expand=count");
    expect(all.status).toBe(200);
    expect(all.body.data.map((i: any) => i.id)).toEqual([open.incidentId, other.incidentId, old.incidentId]);
    expect(all.body.count).toEqual({ total: 3, matched: 3 });

    const oldest = await c.get("/monitor/incident?sort=time:asc&limit=2");
    expect(oldest.body.data.map((i: any) => i.id)).toEqual([old.incidentId, other.incidentId]);
    const rest = await c.get(`/monitor/incident?sort=time:asc&limit=2&cursor=${oldest.body.nextCursor}`);
    expect(rest.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(rest.body.data.map((i: any) => i.id)).toEqual([open.incidentId]);

    const byMonitor = await c.post("/monitor/incident/q", { monitor: [b] });
    expect(byMonitor.body.data.map((i: any) => i.id)).toEqual([other.incidentId]);
    const sorted = await c.get("/monitor/incident?sort=monitor");
    const expected = [a, b].sort()[0] === a ? [open, old, other] : [other, open, old];
    expect(sorted.body.data.map((i: any) => i.id)).toEqual(expected.map((e) => e.incidentId));

    // The open incident goes on: a window ending now catches it; one ending before its start does not.
    const recent = await c.get(`/monitor/${a}/incident?from=${now - 10}`);
    expect(recent.body.data.map((i: any) => i.id)).toEqual([open.incidentId]);
    // Incidents are not clipped, and the window has no width cap.
    const wide = await c.get(`/monitor/${a}/incident?from=0&to=${now}`);
    expect(wide.status).toBe(200);
    // 600 s of sandbox time apart, plus whatever real second passed between the two calls.
    expect(wide.body.data[1]).toMatchObject({ id: old.incidentId });
    expect(wide.body.data[1].durationSec).toBeGreaterThanOrEqual(600);
    expect(wide.body.data[1].durationSec).toBeLessThanOrEqual(602);
  });

  it("read one incident with its transitions, take a comment, and gate failing checks by plan", async () => {
    const { c, open, old } = await history();
    const plain = await c.get(`/monitor/incident/${old.incidentId}`);
    expect(plain.body.recheck).toBeUndefined();
    const detailed = await c.get(`/monitor/incident/${old.incidentId}?expand=recheck`);
    expect(detailed.body.recheck.opening).toMatchObject({ state: "down", resultId: old.resultId });
    expect(detailed.body.recheck.opening.locations).toHaveLength(3);
    expect(detailed.body.recheck.opening.locations[0]).toMatchObject({
      state: "down",
      location: { id: expect.any(String), country: expect.any(String), ip: expect.any(String) },
      error: { codename: "timeout" },
    });
    expect(detailed.body.recheck.closing).toMatchObject({ state: "up" });
    expect(
      (await c.get(`/monitor/incident/${open.incidentId}?expand=recheck`)).body.recheck.closing,
    ).toBeNull();
    const badExpand = await c.get(`/monitor/incident/${old.incidentId}?expand=monitor`);
    expect(badExpand.body.code).toBe("unknown_expand");

    const first = await c.post(`/monitor/incident/${open.incidentId}/comment`, { comment: "DNS provider" });
    expect(first.status).toBe(200);
    expect(first.body.comment).toBe("DNS provider");
    await c.post(`/monitor/incident/${open.incidentId}/comment`, { comment: "Fixed upstream" });
    expect((await c.get(`/monitor/incident/${open.incidentId}`)).body.comment).toBe("Fixed upstream");
    const bad = await c.post(`/monitor/incident/${open.incidentId}/comment`, { note: "x" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toContainEqual(
      expect.objectContaining({ pointer: "/note", reason: "unknown_member" }),
    );

    const checks = await c.get(`/monitor/incident/${open.incidentId}/check?expand=metrics`);
    expect(checks.status).toBe(200);
    expect(checks.body.data).toEqual([
      expect.objectContaining({
        id: open.resultId,
        state: "down",
        incidentId: open.incidentId,
        metrics: expect.any(Object),
      }),
    ]);
    const trial = await sb.account({ plan: "trial" });
    const m = await monitor(trial);
    const trialDown = await outcome(m, "down");
    const refused = await trial.get(`/monitor/incident/${trialDown.incidentId}/check`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "package_limit", feature: "incidentChecks" });
  });
});

describe("results", () => {
  it("answer newest first within the window rules, fold identical checks, and read one by id", async () => {
    const { c, a, old, open, now } = await history();
    const mine = await c.get(`/monitor/${a}/result?expand=count`);
    expect(mine.body.data.map((r: any) => r.state)).toEqual(["down", "up", "down"]);
    expect(mine.body.data[0]).toMatchObject({
      id: open.resultId,
      incidentId: open.incidentId,
      checkCount: 1,
    });
    expect(mine.body.data[0].metrics).toBeUndefined();
    const withMetrics = await c.get(`/monitor/${a}/result?expand=metrics,recheck&limit=1`);
    expect(withMetrics.body.data[0].metrics).toMatchObject({ responseTime: 30000 });
    expect(withMetrics.body.data[0].recheck).toHaveLength(3);

    // Without `monitor`: the last 24 hours by default, 24 hours at most.
    const account = await c.get("/monitor/result");
    expect(account.body.data.map((r: any) => r.monitorId).sort()).toHaveLength(2);
    expect(account.body.data.some((r: any) => r.id === old.resultId)).toBe(false);
    const tooWide = await c.get(`/monitor/result?from=${now - 2 * day}`);
    expect(tooWide.status).toBe(422);
    expect(tooWide.body).toMatchObject({ code: "invalid_range", maxSpan: day });
    const withMonitor = await c.get(`/monitor/result?monitor=${a}&from=${now - 3 * day}`);
    expect(withMonitor.body.data).toHaveLength(3);
    const overMonth = await c.get(`/monitor/${a}/result?from=${now - 31 * day}`);
    expect(overMonth.body).toMatchObject({ code: "invalid_range", maxSpan: 30 * day });

    const one = await c.get(`/monitor/${a}/result/${old.resultId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: old.resultId, state: "down", metrics: expect.any(Object) });
    expect(one.body.recheck).toHaveLength(3);
    expect((await c.get(`/monitor/${randomUUID()}/result/${old.resultId}`)).status).toBe(404);
  });
});

describe("isolation and deletion", () => {
  it("answers 404 for another account's ids and for a deleted monitor's history", async () => {
    const { c, a, open } = await history();
    const stranger = await sb.account();
    expect((await stranger.get(`/monitor/incident/${open.incidentId}`)).status).toBe(404);
    expect((await stranger.get(`/monitor/${a}/result/${open.resultId}`)).status).toBe(404);
    expect((await stranger.get(`/monitor/${a}/span`)).status).toBe(404);
    expect(
      (await stranger.post(`/monitor/incident/${open.incidentId}/comment`, { comment: "x" })).status,
    ).toBe(404);
    expect((await stranger.get("/monitor/incident")).body.data).toEqual([]);

    expect((await c.delete(`/monitor/${a}`)).status).toBe(200);
    const gone = await c.get(`/monitor/incident/${open.incidentId}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("not_found");
    expect((await c.get(`/monitor/${a}/result`)).status).toBe(404);
    expect((await c.get("/monitor/incident")).body.data.every((i: any) => i.monitorId !== a)).toBe(true);
  });
});

describe("monitor expand blocks", () => {
  it("report the last incident and result, uptime, spans and summary", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const bare = await c.get(`/monitor/${m}?expand=lastIncident,lastResult,uptime,spans,summary`);
    expect(bare.body).toMatchObject({
      lastIncident: null,
      lastResult: null,
      spans: [],
      uptime: { uptimePercent: null, totalSec: 0 },
    });
    await c.patch(`/monitor/${m}`, { slaTarget: 99 });
    const upAt = await sb.setClock((await sb.advance(0)) + 1);
    await outcome(m, "up");
    await sb.setClock(upAt + 900);
    const down = await outcome(m, "down");
    await sb.setClock(upAt + 1000);
    const read = await c.get(`/monitor/${m}?expand=lastIncident,lastResult,uptime,spans,summary`);
    expect(read.body.lastIncident).toMatchObject({ id: down.incidentId, state: "open", durationSec: 0 });
    expect(read.body.lastResult).toMatchObject({ id: down.resultId, state: "down" });
    expect(read.body.uptime).toMatchObject({ upSec: 900, downSec: 100, totalSec: 1000, uptimePercent: 90 });
    expect(read.body.spans.map((s: any) => s.state)).toEqual(["down", "up"]);
    expect(read.body.spans[0]).toMatchObject({ incidentId: down.incidentId, to: null, durationSec: 100 });
    expect(read.body.summary).toMatchObject({
      uptimePercent: 90,
      slaTarget: 99,
      slaMet: false,
      incidents: 1,
    });
  });
});
