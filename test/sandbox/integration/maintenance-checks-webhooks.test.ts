import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contact, monitor } from "../../helpers/fixtures.ts";
import type { Client, TestSandbox } from "../../helpers/sandbox.ts";
import { closeWithReceiver, type Receiver, startWithReceiver } from "../webhooks/receiver.ts";
import { arrivals, eventsAt, hook, outcome, verified } from "./helpers.ts";

/** Maintenance windows hold back the engine's alerts, and their end releases them, over HTTP only. */
let sb: TestSandbox;
let rx: Receiver;
// The sandbox clock moves only when a test moves it: a duration asserted is the one advanced, on any machine.
beforeAll(async () => ({ sb, rx } = await startWithReceiver({ manualClock: true })));
afterAll(() => closeWithReceiver(sb, rx));

const events = ["incident.opened", "monitor.down", "maintenance.ended"];

async function alerts(c: Client, contactId: string) {
  const res = await c.get(`/contact/notification?sort=time:asc&limit=500`);
  expect(res.status, res.text).toBe(200);
  const mine = res.body.data.filter((n: any) => n.contactId === contactId);
  const sent = (await sb.outbox()).filter((msg) => msg.contactId === contactId && msg.kind === "alert");
  return { notifications: mine.map((n: any) => `${n.kind} ${n.event} ${n.outcome}`), outbox: sent };
}

async function window(c: Client, body: Record<string, unknown>) {
  const res = await c.post("/maintenance", body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("maintenance → checks → webhooks", () => {
  it("holds back alerts and monitor.down inside a suppressing window, and releases them when it ends", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const contactId = await contact(c, { type: "http", address: "https://hooks.example.com/maint" });
    expect(
      (await c.put(`/monitor/${m}/alert/${contactId}`, { alertTypes: ["down", "up"] })).status,
    ).toBeLessThan(300);
    const h = await hook(c, rx, { events, scope: { monitorIds: [m] } });

    const now = await sb.advance(1);
    const w = await window(c, { name: "Upgrade", from: now, to: now + 3600, monitorIds: [m] });
    expect(w).toMatchObject({ state: "active", suppressAlerts: true });
    expect((await c.get(`/monitor/${m}`)).body.state).toBe("maintenance");

    const down = await outcome(sb, m, "down");
    const [opened] = await arrivals(rx, h.path, "incident.opened");
    expect(verified(opened!, h.secret, "incident.opened").data).toMatchObject({
      incidentId: down.incidentId,
      underMaintenance: true,
    });
    // Still inside: the monitor reads maintenance, and nothing is said about the outage.
    await sb.advance(1800);
    await sb.settle();
    expect((await c.get(`/monitor/${m}`)).body.state).toBe("maintenance");
    expect(eventsAt(rx, h.path)).toEqual(["incident.opened"]);
    expect(await alerts(c, contactId)).toEqual({ notifications: [], outbox: [] });

    // The window ends on the clock: maintenance.ended, then the held alerts.
    await sb.advance(1800);
    const [ended] = await arrivals(rx, h.path, "maintenance.ended");
    expect(verified(ended!, h.secret, "maintenance.ended").data).toEqual({
      maintenanceId: w.id,
      name: "Upgrade",
      from: now,
      to: now + 3600,
      endedAt: now + 3600,
      endedEarly: false,
      monitorIds: [m],
    });
    const [released] = await arrivals(rx, h.path, "monitor.down");
    expect(verified(released!, h.secret, "monitor.down").data).toMatchObject({
      monitor: { id: m },
      state: "down",
    });
    const after = await alerts(c, contactId);
    expect(after.notifications).toEqual(["alert down sent"]);
    expect(after.outbox).toEqual([expect.objectContaining({ event: "down", monitorIds: [m] })]);
    expect((await c.get(`/monitor/${m}`)).body.state).toBe("down");
    expect((await c.get(`/maintenance/${w.id}`)).body.state).toBe("finished");
  });

  it("deleting an active window sends maintenance.ended with endedEarly true and releases held alerts", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const h = await hook(c, rx, { events, scope: { monitorIds: [m] } });
    const now = await sb.advance(1);
    const w = await window(c, { name: "Cut short", from: now, to: now + 7200, monitorIds: [m] });
    await outcome(sb, m, "down");
    await arrivals(rx, h.path, "incident.opened");
    const at = await sb.advance(600);

    const receipt = await c.delete(`/maintenance/${w.id}`);
    expect(receipt.status, receipt.text).toBe(200);
    expect(receipt.body).toMatchObject({ id: w.id, deleted: true, state: "active", endedEarly: true });
    const [ended] = await arrivals(rx, h.path, "maintenance.ended");
    expect(verified(ended!, h.secret, "maintenance.ended").data).toMatchObject({
      maintenanceId: w.id,
      from: now,
      to: now + 7200,
      endedAt: at,
      endedEarly: true,
      monitorIds: [m],
    });
    await arrivals(rx, h.path, "monitor.down");
    expect((await c.get(`/monitor/${m}`)).body.state).toBe("down");
  });

  it("a window without suppressAlerts reads maintenance but lets monitor.down through", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const h = await hook(c, rx, { events, scope: { monitorIds: [m] } });
    const now = await sb.advance(1);
    await window(c, { name: "Loud", from: now, to: now + 3600, monitorIds: [m], suppressAlerts: false });
    expect((await c.get(`/monitor/${m}`)).body.state).toBe("maintenance");
    await outcome(sb, m, "down");
    await arrivals(rx, h.path, "monitor.down");
  });
});
