import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contact, monitor } from "../../helpers/fixtures.ts";
import type { Client, TestSandbox } from "../../helpers/sandbox.ts";
import { closeWithReceiver, type Receiver, startWithReceiver } from "../webhooks/receiver.ts";

/** `monitor.down` waits for the monitor's alert delay: the shortest delay of the contacts subscribed to down. */
let sb: TestSandbox;
let rx: Receiver;
beforeAll(async () => ({ sb, rx } = await startWithReceiver()));
afterAll(() => closeWithReceiver(sb, rx));

const outcome = async (id: string, state: "up" | "down") => {
  const res = await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

async function subscribe(c: Client, monitorId: string, contactId: string, alertTypes: string[]) {
  const res = await c.put(`/monitor/${monitorId}/alert/${contactId}`, { alertTypes });
  expect(res.status, res.text).toBeLessThan(300);
}

/** A webhook on a real local receiver for the engine events of one monitor. */
async function hook(c: Client, monitorId: string) {
  const target = rx.hook();
  const res = await c.post("/webhook", {
    url: target.url,
    events: ["incident.opened", "incident.closed", "monitor.down", "monitor.up"],
    scope: { monitorIds: [monitorId] },
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as string, path: target.path };
}

/** The webhook's deliveries as `event@occurredAt`, by time, then by name (events of one moment tie). */
async function events(c: Client, webhookId: string): Promise<string[]> {
  const rows = (await c.get(`/webhook/${webhookId}/delivery`)).body.data as any[];
  return rows
    .sort((a, b) => a.occurredAt - b.occurredAt || a.event.localeCompare(b.event))
    .map((d) => `${d.event}@${d.occurredAt}`);
}

describe("monitor.down and the alert delay", () => {
  it("fires once the shortest delay among contacts subscribed to down has passed", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const h = await hook(c, m);
    const five = await contact(c, { type: "http", address: "https://hooks.example.com/5", alertDelay: 5 });
    const ten = await contact(c, { type: "http", address: "https://hooks.example.com/10", alertDelay: 10 });
    // Subscribed to up only: its delay of 0 does not count for monitor.down.
    const upOnly = await contact(c, { type: "http", address: "https://hooks.example.com/up" });
    await subscribe(c, m, five, ["down"]);
    await subscribe(c, m, ten, ["down", "up"]);
    await subscribe(c, m, upOnly, ["up"]);

    const down = await outcome(m, "down");
    const start = (await c.get(`/monitor/incident/${down.incidentId}`)).body.start as number;
    expect(await events(c, h.id)).toEqual([`incident.opened@${start}`]);
    // The sandbox clock also moves with real time: margins of a minute keep the test steady.
    await sb.advance(4 * 60);
    expect(await events(c, h.id)).toEqual([`incident.opened@${start}`]);
    const now = await sb.advance(2 * 60);
    const [, sent] = (await c.get(`/webhook/${h.id}/delivery?sort=occurredAt:asc`)).body.data as any[];
    expect(sent?.event).toBe("monitor.down");
    expect(sent!.occurredAt).toBeGreaterThanOrEqual(start + 300);
    expect(sent!.occurredAt).toBeLessThanOrEqual(now);

    const [, delivered] = await rx.waitFor(h.path, 2);
    expect(delivered!.body).toMatchObject({
      event: "monitor.down",
      data: { monitor: { id: m }, state: "down", failedAt: start, occurredAt: sent!.occurredAt },
    });
    // It goes out once, however long the episode lasts.
    await sb.advance(10 * 60);
    expect((await events(c, h.id)).filter((e) => e.startsWith("monitor.down"))).toHaveLength(1);
    await outcome(m, "up");
    expect((await events(c, h.id)).map((e) => e.split("@")[0])).toEqual([
      "incident.opened",
      "monitor.down",
      "incident.closed",
      "monitor.up",
    ]);
  });

  it("fires at confirmation when no contact is subscribed to down alerts", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const h = await hook(c, m);
    const late = await contact(c, {
      type: "http",
      address: "https://hooks.example.com/late",
      alertDelay: 30,
    });
    await subscribe(c, m, late, ["up"]);
    const down = await outcome(m, "down");
    const start = (await c.get(`/monitor/incident/${down.incidentId}`)).body.start as number;
    expect(await events(c, h.id)).toEqual([`incident.opened@${start}`, `monitor.down@${start}`]);
  });

  it("is not sent, nor monitor.up, when the monitor recovers before the delay", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const h = await hook(c, m);
    const slow = await contact(c, { type: "http", address: "https://hooks.example.com/slow", alertDelay: 5 });
    await subscribe(c, m, slow, ["down", "up"]);
    await outcome(m, "down");
    await sb.advance(4 * 60);
    await outcome(m, "up");
    await sb.advance(10 * 60);
    expect((await events(c, h.id)).map((e) => e.split("@")[0])).toEqual([
      "incident.opened",
      "incident.closed",
    ]);
  });

  it("reschedules an open incident when subscriptions or delays change", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const h = await hook(c, m);
    const slow = await contact(c, {
      type: "http",
      address: "https://hooks.example.com/slow",
      alertDelay: 20,
    });
    await subscribe(c, m, slow, ["down"]);
    const down = await outcome(m, "down");
    const start = (await c.get(`/monitor/incident/${down.incidentId}`)).body.start as number;
    const alerts = async (contactId: string) =>
      ((await c.get(`/contact/${contactId}/notification`)).body.data as any[]).map((n) => n.event);

    // A contact subscribed mid-incident with a 1-minute delay is alerted after its minute, not the 20.
    const fast = await contact(c, { type: "http", address: "https://hooks.example.com/fast", alertDelay: 1 });
    await subscribe(c, m, fast, ["down"]);
    await sb.advance(3 * 60);
    expect(await alerts(fast)).toEqual(["down"]);
    expect(await alerts(slow)).toEqual([]);
    // monitor.down follows the shortest delay among the subscribers, now the new one's.
    expect((await events(c, h.id)).filter((e) => e.startsWith("monitor.down"))).toHaveLength(1);

    // Shortening a contact's delay brings its alert forward too.
    expect((await c.patch(`/contact/${slow}`, { alertDelay: 2 })).status).toBe(200);
    await sb.advance(60);
    expect(await alerts(slow)).toEqual(["down"]);
    expect((await c.get(`/monitor/incident/${down.incidentId}`)).body.start).toBe(start);
  });
});
