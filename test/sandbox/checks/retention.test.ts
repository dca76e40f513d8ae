import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** History is kept for a while: results 30 days, closed spans and resolved incidents 400 days. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const day = 86400;
const outcome = async (id: string, state: "up" | "down") => {
  const res = await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe("retention sweep", () => {
  it("removes rows past retention and keeps the open incident and the current spans", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const n = await monitor(c);
    const downOfM = await outcome(m, "down");
    await sb.advance(600);
    const upOfM = await outcome(m, "up");
    const downOfN = await outcome(n, "down");
    const resultStatus = async (monitorId: string, resultId: string) =>
      (await c.get(`/monitor/${monitorId}/result/${resultId}`)).status;
    expect(await resultStatus(m, downOfM.resultId)).toBe(200);

    // Past 30 days: the result rows go; incidents and spans stay.
    await sb.advance(31 * day);
    expect(await resultStatus(m, downOfM.resultId)).toBe(404);
    expect(await resultStatus(m, upOfM.resultId)).toBe(404);
    expect(await resultStatus(n, downOfN.resultId)).toBe(404);
    const last = await c.get(`/monitor/${m}?expand=lastResult,lastIncident`);
    expect(last.body).toMatchObject({ lastResult: null, lastIncident: { id: downOfM.incidentId } });
    expect((await c.get(`/monitor/incident/${downOfM.incidentId}`)).body.state).toBe("resolved");
    // The monitor's history goes on: a new check is a new row, the open incident takes more failures.
    const nextUp = await outcome(m, "up");
    expect(nextUp).toMatchObject({ changed: false });
    expect(nextUp.resultId).not.toBe(upOfM.resultId);
    expect(await outcome(n, "down")).toMatchObject({ incidentId: downOfN.incidentId, changed: false });

    // Past 400 days: the resolved incident and the closed span go; what goes on stays.
    await sb.advance(400 * day);
    expect((await c.get(`/monitor/incident/${downOfM.incidentId}`)).status).toBe(404);
    const open = await c.get(`/monitor/incident/${downOfN.incidentId}`);
    expect(open.body).toMatchObject({ state: "open", checkCount: 2 });
    const spansOfM = (await c.get(`/monitor/${m}/span?from=0`)).body.data;
    expect(spansOfM).toEqual([expect.objectContaining({ state: "up", to: null })]);
    const spansOfN = (await c.get(`/monitor/${n}/span?from=0`)).body.data;
    expect(spansOfN).toEqual([
      expect.objectContaining({ state: "down", to: null, incidentId: downOfN.incidentId }),
    ]);
    expect((await c.get(`/monitor/${m}/incident?from=0`)).body.data).toEqual([]);
    // The open incident still closes as usual.
    expect(await outcome(n, "up")).toMatchObject({ changed: true, incidentId: null });
    expect((await c.get(`/monitor/incident/${downOfN.incidentId}`)).body.state).toBe("resolved");
  });
});
