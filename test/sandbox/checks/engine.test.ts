import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contact, monitor } from "../../helpers/fixtures.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** The state machine behind `POST /_sandbox/monitor/{id}/outcome`: incidents, spans, alerts, reminders. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const outcome = async (id: string, state: "up" | "down", error?: Record<string, unknown>) => {
  const res = await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state, ...(error && { error }) });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

async function subscribe(c: Client, monitorId: string, contactId: string, alertTypes: string[]) {
  const res = await c.put(`/monitor/${monitorId}/alert/${contactId}`, { alertTypes });
  expect(res.status, res.text).toBeLessThan(300);
}

/** The account's notifications, oldest first, as `contactId kind event outcome`. */
async function notifications(c: Client): Promise<string[]> {
  const res = await c.get("/contact/notification?sort=time:asc&limit=500");
  expect(res.status).toBe(200);
  return res.body.data.map((n: any) => `${n.contactId} ${n.kind} ${n.event} ${n.outcome}`);
}

describe("a down episode", () => {
  it("opens an incident, alerts each contact after its delay, reminds, and closes with severity", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const fast = await contact(c, { type: "http", address: "https://hooks.example.com/fast" });
    const slow = await contact(c, {
      type: "http",
      address: "https://hooks.example.com/slow",
      alertDelay: 10,
    });
    const unconfirmed = await contact(c, { type: "email", address: "ops@example.com" });
    await subscribe(c, m, fast, ["down", "up"]);
    await subscribe(c, m, slow, ["down", "up", "repeatedlyDown"]);
    await subscribe(c, m, unconfirmed, ["down"]);

    const start = await sb.advance(60);
    const down = await outcome(m, "down", { code: 6, message: "Could not resolve host", codename: "dns" });
    expect(down).toMatchObject({ id: m, state: "down", changed: true });

    const read = await c.get(`/monitor/${m}`);
    expect(read.body).toMatchObject({ state: "down", since: start });
    const incidents = await c.get(`/monitor/${m}/incident`);
    expect(incidents.body.data).toEqual([
      {
        id: down.incidentId,
        monitorId: m,
        start,
        end: start,
        durationSec: 0,
        state: "open",
        severity: "minor",
        cause: { code: 6, message: "Could not resolve host", codename: "dns" },
        underMaintenance: false,
        comment: null,
        checkCount: 1,
      },
    ]);
    // alertDelay 0 alerts at once; the unconfirmed contact's alert is blocked; the slow one waits.
    expect((await notifications(c)).sort()).toEqual(
      [`${fast} alert down sent`, `${unconfirmed} alert down blocked`].sort(),
    );
    const sent = (await sb.outbox()).filter((msg) => msg.contactId === fast);
    expect(sent).toEqual([
      expect.objectContaining({ kind: "alert", event: "down", channel: "http", monitorIds: [m] }),
    ]);

    await sb.advance(9 * 60);
    expect(await notifications(c)).toHaveLength(2);
    await sb.advance(60);
    expect((await notifications(c)).at(-1)).toBe(`${slow} alert down sent`);

    // A second identical failure is one more check on the same row.
    const again = await outcome(m, "down", { code: 6, message: "Could not resolve host", codename: "dns" });
    expect(again).toMatchObject({ resultId: down.resultId, incidentId: down.incidentId, changed: false });

    // 30 minutes after confirmation: one reminder, to the contact subscribed to repeatedlyDown.
    await sb.advance(20 * 60);
    expect((await notifications(c)).at(-1)).toBe(`${slow} reminder repeatedlyDown sent`);
    await sb.advance(60);
    expect(await notifications(c)).toHaveLength(4);

    const upAt = await sb.advance(10 * 60);
    const up = await outcome(m, "up");
    expect(up).toMatchObject({ state: "up", incidentId: null, changed: true });
    const closed = await c.get(`/monitor/incident/${down.incidentId}`);
    expect(closed.body).toMatchObject({
      state: "resolved",
      start,
      end: upAt,
      durationSec: upAt - start,
      severity: "major",
      checkCount: 2,
    });
    // Up alerts go to contacts subscribed to `up` that the episode reached.
    expect((await notifications(c)).slice(4).sort()).toEqual(
      [`${fast} alert up sent`, `${slow} alert up sent`].sort(),
    );
    expect((await c.get(`/monitor/${m}`)).body).toMatchObject({ state: "up", since: upAt });

    const spans = await c.get(`/monitor/${m}/span`);
    expect(spans.body.data).toEqual([
      expect.objectContaining({ state: "up", from: upAt, to: null, incidentId: null }),
      expect.objectContaining({
        state: "down",
        from: start,
        to: upAt,
        durationSec: upAt - start,
        incidentId: down.incidentId,
      }),
    ]);
  });

  it("sends nothing to a contact whose delay had not passed when the monitor recovered", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const slow = await contact(c, { type: "http", address: "https://hooks.example.com/late", alertDelay: 5 });
    await subscribe(c, m, slow, ["down", "up"]);
    const downAt = await sb.setClock((await sb.advance(0)) + 1);
    await outcome(m, "down");
    await sb.setClock(downAt + 4 * 60);
    await outcome(m, "up");
    await sb.advance(10 * 60);
    expect(await notifications(c)).toEqual([]);
    const [incident] = (await c.get(`/monitor/${m}/incident`)).body.data;
    expect(incident).toMatchObject({
      state: "resolved",
      severity: "minor",
      durationSec: 240,
      cause: { codename: "timeout" },
    });
  });

  it("rates an hour or more critical, and each episode gets its own incident", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const first = await outcome(m, "down");
    await sb.advance(3600);
    await outcome(m, "up");
    await sb.advance(60);
    const second = await outcome(m, "down");
    expect(second.incidentId).not.toBe(first.incidentId);
    const list = await c.get(`/monitor/${m}/incident`);
    expect(list.body.data.map((i: any) => [i.id, i.state, i.severity])).toEqual([
      [second.incidentId, "open", "minor"],
      [first.incidentId, "resolved", "critical"],
    ]);
  });

  it("an up outcome while up records one more check, not a change", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const a = await outcome(m, "up");
    await sb.advance(60);
    const b = await outcome(m, "up");
    expect(b).toMatchObject({ resultId: a.resultId, changed: false, incidentId: null });
    const [row] = (await c.get(`/monitor/${m}/result`)).body.data;
    expect(row).toMatchObject({ id: a.resultId, state: "up", checkCount: 2, error: null });
    expect(row.lastTime - row.time).toBe(60);
    expect((await c.get(`/monitor/${m}/incident`)).body.data).toEqual([]);
  });
});
