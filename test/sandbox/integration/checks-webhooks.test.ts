import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import type { TestSandbox } from "../../helpers/sandbox.ts";
import { closeWithReceiver, type Receiver, startWithReceiver } from "../webhooks/receiver.ts";
import { arrivals, deliveries, eventsAt, eventually, hook, outcome, verified } from "./helpers.ts";

/** Simulated checks drive engine events to a real receiver, over HTTP only. */
let sb: TestSandbox;
let rx: Receiver;
// The sandbox clock moves only when a test moves it: a duration asserted is the one advanced, on any machine.
beforeAll(async () => ({ sb, rx } = await startWithReceiver({ manualClock: true })));
afterAll(() => closeWithReceiver(sb, rx));

const engineEvents = [
  "incident.opened",
  "incident.closed",
  "monitor.down",
  "monitor.up",
  "monitor.repeatedlyDown",
];

describe("simulated checks → webhooks", () => {
  it("delivers incident and monitor events to the webhook scoped to the monitor only", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const other = await monitor(c);
    expect((await c.patch(`/monitor/${other}`, { tags: ["prod"] })).status).toBe(200);
    const watching = await hook(c, rx, { events: engineEvents, scope: { monitorIds: [m] } });
    const byOther = await hook(c, rx, { events: engineEvents, scope: { monitorIds: [other] } });
    const byTag = await hook(c, rx, { events: engineEvents, scope: { tags: ["prod"] } });

    const start = await sb.advance(60);
    const down = await outcome(sb, m, "down");
    expect(down).toMatchObject({ state: "down", changed: true, incidentId: expect.stringMatching(/^inc_/) });

    const [opened] = await arrivals(rx, watching.path, "incident.opened");
    const openedEnvelope = verified(opened!, watching.secret, "incident.opened");
    expect(openedEnvelope.data).toEqual({
      incidentId: down.incidentId,
      monitorId: m,
      start,
      cause: "timeout",
      underMaintenance: false,
    });
    const [alert] = await arrivals(rx, watching.path, "monitor.down");
    const downEnvelope = verified(alert!, watching.secret, "monitor.down");
    expect(downEnvelope.data).toMatchObject({
      monitor: { id: m, type: "http" },
      state: "down",
      occurredAt: start,
      failedAt: start,
      error: { code: 28, codename: "timeout" },
    });
    expect(downEnvelope.data.recheck.length).toBeGreaterThanOrEqual(3);
    expect(downEnvelope.data.recheck.every((r: any) => r.state === "down")).toBe(true);

    // The incident read agrees with the event.
    const incident = await c.get(`/monitor/incident/${down.incidentId}`);
    expect(incident.body).toMatchObject({ id: down.incidentId, monitorId: m, start, state: "open" });

    const end = await sb.advance(120);
    const up = await outcome(sb, m, "up");
    expect(up).toMatchObject({ state: "up", changed: true, incidentId: null });
    const [closed] = await arrivals(rx, watching.path, "incident.closed");
    expect(verified(closed!, watching.secret, "incident.closed").data).toMatchObject({
      incidentId: down.incidentId,
      monitorId: m,
      start,
      end,
      durationSec: end - start,
      cause: "timeout",
    });
    const [recovered] = await arrivals(rx, watching.path, "monitor.up");
    expect(verified(recovered!, watching.secret, "monitor.up").data).toMatchObject({
      monitor: { id: m },
      state: "up",
      firstFailedAt: start,
      downtimeSec: end - start,
    });
    expect(eventsAt(rx, watching.path).sort()).toEqual(
      ["incident.closed", "incident.opened", "monitor.down", "monitor.up"].sort(),
    );

    await sb.settle();
    expect(rx.received(byOther.path)).toHaveLength(0);
    expect(rx.received(byTag.path)).toHaveLength(0);
    // A tag scope does see its own monitor's events.
    await outcome(sb, other, "down");
    await arrivals(rx, byTag.path, "monitor.down");
    await arrivals(rx, byOther.path, "monitor.down");
    expect(rx.received(watching.path)).toHaveLength(4);
  });

  it("retries an engine event to a failing receiver on the ladder as the clock moves", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const failing = await hook(c, rx, { events: ["incident.opened"], scope: { monitorIds: [m] } }, () => ({
      status: 503,
    }));
    await outcome(sb, m, "down");
    const [first] = await rx.waitFor(failing.path, 1);
    expect(first!.headers["svc-attempt"]).toBe("1");
    const pending = await eventually(async () => {
      const [d] = await deliveries(c, failing.id);
      return d?.attempts.length === 1 ? d : undefined;
    });
    expect(pending).toMatchObject({ event: "incident.opened", outcome: "pending" });
    expect(pending.attempts[0]).toMatchObject({ statusCode: 503 });
    const firstAt = pending.attempts[0].at;
    // 10 s with up to 20 % jitter.
    expect(pending.nextRetryAt - firstAt).toBeGreaterThanOrEqual(10);
    expect(pending.nextRetryAt - firstAt).toBeLessThanOrEqual(12);

    // Nothing before the retry is due: stop two seconds short of it (the sandbox clock also moves
    // with real time, so one second short could cross a second boundary while we look).
    const now = await sb.advance(0);
    await sb.advance(pending.nextRetryAt - now - 2);
    await sb.settle();
    expect(rx.received(failing.path)).toHaveLength(1);

    await sb.advance(3);
    const [, second] = await rx.waitFor(failing.path, 2);
    expect(second!.headers["svc-attempt"]).toBe("2");
    expect(second!.raw).toBe(first!.raw);
    verified(second!, failing.secret, "incident.opened");
    const afterTwo = await eventually(async () => {
      const [d] = await deliveries(c, failing.id);
      return d?.attempts.length === 2 ? d : undefined;
    });
    expect(afterTwo.nextRetryAt - afterTwo.attempts[1].at).toBeGreaterThanOrEqual(60);
    expect(afterTwo.nextRetryAt - afterTwo.attempts[1].at).toBeLessThanOrEqual(72);

    await sb.advance(72);
    const [, , third] = await rx.waitFor(failing.path, 3);
    expect(third!.headers["svc-attempt"]).toBe("3");
    const log = await eventually(async () => {
      const [d] = await deliveries(c, failing.id);
      return d?.attempts.length === 3 ? d : undefined;
    });
    expect(log).toMatchObject({ id: first!.body.id, outcome: "pending" });
    expect(log.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503]);

    // The receiver recovers: the next rung delivers.
    rx.answer(failing.path, () => ({ status: 200 }));
    await sb.advance(6 * 60);
    await rx.waitFor(failing.path, 4);
    const done = await eventually(async () => {
      const [d] = await deliveries(c, failing.id);
      return d?.outcome === "delivered" ? d : undefined;
    });
    expect(done.attempts).toHaveLength(4);
    expect(done.nextRetryAt).toBeNull();
  });

  it("sends a monitor.repeatedlyDown reminder after the reminder interval", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const h = await hook(c, rx, {
      events: ["monitor.down", "monitor.repeatedlyDown"],
      scope: { monitorIds: [m] },
    });
    const start = await sb.advance(1);
    await outcome(sb, m, "down");
    await arrivals(rx, h.path, "monitor.down");
    await sb.advance(29 * 60);
    await sb.settle();
    expect(eventsAt(rx, h.path)).toEqual(["monitor.down"]);
    await sb.advance(60);
    const [reminder] = await arrivals(rx, h.path, "monitor.repeatedlyDown");
    expect(verified(reminder!, h.secret, "monitor.repeatedlyDown").data).toMatchObject({
      monitor: { id: m },
      state: "down",
      recheck: [],
      firstFailedAt: start,
    });
  });
});
