import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { runJob } from "../jobs/helpers.ts";

/** Each monitor's history is its own: many monitors with history in one account do not mix. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const outcome = async (id: string, state: "up" | "down") => {
  const res = await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe("history across many monitors", () => {
  it("keeps each monitor's results, incidents and spans apart, through outcomes, resets and deletes", async () => {
    const c = await sb.account();
    const others = await Promise.all(Array.from({ length: 20 }, () => monitor(c)));
    const target = await monitor(c);
    // Three episodes on every other monitor, so the account holds far more history than the target.
    for (let episode = 0; episode < 3; episode++) {
      await Promise.all(others.map((id) => outcome(id, "down")));
      await sb.advance(60);
      await Promise.all(others.map((id) => outcome(id, "up")));
      await sb.advance(60);
    }
    const first = await outcome(target, "up");
    await sb.advance(60);
    // An identical check folds into the target's own last row, not another monitor's newer one.
    await Promise.all(others.map((id) => outcome(id, "up")));
    expect(await outcome(target, "up")).toMatchObject({ resultId: first.resultId, changed: false });
    const down = await outcome(target, "down");
    expect(down).toMatchObject({ changed: true });
    await sb.advance(60);
    expect(await outcome(target, "down")).toMatchObject({ incidentId: down.incidentId, changed: false });

    const results = (await c.get(`/monitor/${target}/result`)).body.data;
    expect(results.map((r: any) => [r.id, r.state, r.checkCount])).toEqual([
      [down.resultId, "down", 2],
      [first.resultId, "up", 2],
    ]);
    const incidents = (await c.get(`/monitor/${target}/incident`)).body.data;
    expect(incidents).toEqual([
      expect.objectContaining({ id: down.incidentId, state: "open", checkCount: 2 }),
    ]);
    const spans = (await c.get(`/monitor/${target}/span`)).body.data;
    expect(spans.map((s: any) => [s.state, s.to === null])).toEqual([
      ["down", true],
      ["up", false],
    ]);
    const all = await c.get("/monitor/incident?expand=count&limit=1");
    expect(all.body.count).toEqual({ total: 61, matched: 61 });

    // A reset forgets the target's two result rows and two spans, keeps its open incident, and touches nobody else.
    const reset = await runJob(c, `/monitor/${target}/reset-stats`, undefined);
    expect(reset.body.results[0].result).toEqual({ removed: 4 });
    expect((await c.get(`/monitor/${target}/result`)).body.data).toEqual([]);
    expect((await c.get(`/monitor/incident/${down.incidentId}`)).body.state).toBe("open");
    expect((await c.get(`/monitor/${others[0]}/incident`)).body.data).toHaveLength(3);

    // Deleting another monitor forgets its history only.
    expect((await c.delete(`/monitor/${others[1]}`)).status).toBe(200);
    expect((await c.get("/monitor/incident?expand=count&limit=1")).body.count.total).toBe(58);
    expect((await c.get(`/monitor/${others[2]}/result`)).body.data).toHaveLength(6);
    const closed = await outcome(target, "up");
    expect(closed).toMatchObject({ changed: true, incidentId: null });
    expect((await c.get(`/monitor/incident/${down.incidentId}`)).body.state).toBe("resolved");
  });
});
