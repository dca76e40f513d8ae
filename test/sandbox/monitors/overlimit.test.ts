import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { create, httpMonitor, refusal } from "./fixtures.ts";

/** `onOverlimit` when the plan has no room for another monitor (here a plan of one monitor). */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const oneMonitorPlan = () => sb.account({ featureOverrides: { monitors: 1 } });

describe("onOverlimit", () => {
  it("fail (the default) answers 403 package_limit, feature monitors, and creates nothing", async () => {
    const acct = await oneMonitorPlan();
    await create(acct, httpMonitor());
    for (const extra of [{}, { onOverlimit: "fail" }]) {
      const res = await acct.post("/monitor", httpMonitor(extra));
      expect(refusal(res)).toEqual({ status: 403, code: "package_limit", feature: "monitors", limit: 1 });
    }
    expect((await acct.get("/monitor")).body.data).toHaveLength(1);
  });

  it("disable creates the monitor disabled, overlimited, paused", async () => {
    const acct = await oneMonitorPlan();
    await create(acct, httpMonitor());
    const body = await create(acct, httpMonitor({ onOverlimit: "disable" }));
    expect(body).toMatchObject({ enabled: false, overlimited: true, state: "paused" });
    expect(body).not.toHaveProperty("onOverlimit");
    const account = (await acct.get("/account")).body;
    expect(account.flags.overlimited).toBe(true);
  });

  it("disable creates an ordinary monitor while the plan has room", async () => {
    const acct = await oneMonitorPlan();
    const body = await create(acct, httpMonitor({ onOverlimit: "disable" }));
    expect(body).toMatchObject({ enabled: true, state: "up" });
    expect(body).not.toHaveProperty("overlimited");
  });

  it("refuses another value", async () => {
    const acct = await oneMonitorPlan();
    const res = await acct.post("/monitor", httpMonitor({ onOverlimit: "stop" }));
    expect(refusal(res)).toEqual({
      status: 422,
      code: "validation_failed",
      errors: [
        { pointer: "/onOverlimit", reason: "not_allowed", value: "stop", allowed: ["fail", "disable"] },
      ],
    });
  });

  it("an over-limit monitor comes back only when the plan has room again", async () => {
    const acct = await oneMonitorPlan();
    const first = await create(acct, httpMonitor());
    const spare = await create(acct, httpMonitor({ onOverlimit: "disable" }));
    const blocked = await acct.patch(`/monitor/${spare.id}`, { enabled: true });
    expect(refusal(blocked)).toEqual({ status: 403, code: "package_limit", feature: "monitors", limit: 1 });
    expect((await acct.get(`/monitor/${spare.id}`)).body).toMatchObject({
      enabled: false,
      overlimited: true,
    });

    await acct.delete(`/monitor/${first.id}`);
    const resumed = await acct.patch(`/monitor/${spare.id}`, { enabled: true });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body).toMatchObject({ enabled: true, state: "up" });
    expect(resumed.body).not.toHaveProperty("overlimited");
  });

  it("an update with onOverlimit disable applies and leaves the monitor disabled while there is no room", async () => {
    const acct = await oneMonitorPlan();
    await create(acct, httpMonitor());
    const spare = await create(acct, httpMonitor({ onOverlimit: "disable" }));
    const res = await acct.patch(`/monitor/${spare.id}`, {
      enabled: true,
      name: "Waiting",
      onOverlimit: "disable",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "Waiting", enabled: false, overlimited: true, state: "paused" });
  });

  it("room counts enabled monitors: one the owner paused takes none, and resuming it needs room", async () => {
    const acct = await oneMonitorPlan();
    const paused = await create(acct, httpMonitor({ enabled: false }));
    const running = await create(acct, httpMonitor());
    expect(running).toMatchObject({ enabled: true, state: "up" });
    const resume = await acct.patch(`/monitor/${paused.id}`, { enabled: true });
    expect(refusal(resume)).toEqual({ status: 403, code: "package_limit", feature: "monitors", limit: 1 });
    // A disabled create needs no room either.
    expect(await create(acct, httpMonitor({ enabled: false }))).toMatchObject({ enabled: false });
  });

  it("over-limit monitors take no room: one slot stays one active monitor", async () => {
    const acct = await oneMonitorPlan();
    const first = await create(acct, httpMonitor());
    await create(acct, httpMonitor({ onOverlimit: "disable" }));
    await acct.delete(`/monitor/${first.id}`);
    const next = await create(acct, httpMonitor());
    expect(next).toMatchObject({ enabled: true, state: "up" });
  });
});
