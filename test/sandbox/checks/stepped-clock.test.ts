import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Clock } from "../../../src/sandbox/core/clock.ts";
import { Store } from "../../../src/sandbox/core/store.ts";
import type { ReceivedWebhook } from "../../../src/sandbox/index.ts";
import { ManualClock } from "../../helpers/clock.ts";
import { contact, monitor } from "../../helpers/fixtures.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/**
 * What `vigil test` runs the sandbox with (docs/sandbox.md): a manual clock, the clock route's stepped jumps
 * (each timer at its own moment), checkpoints and restores, and an in-process webhook receiver.
 */
let sb: TestSandbox;
const received: ReceivedWebhook[] = [];
beforeAll(async () => {
  sb = await startTestSandbox({
    manualClock: true,
    webhookReceiver: (request) => {
      received.push(request);
      return { status: 200 };
    },
  });
});
afterAll(() => sb.close());

const t0 = 1_800_000_000;

const outcome = async (id: string, state: "up" | "down") => {
  const res = await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

async function subscribe(c: Client, monitorId: string, contactId: string, alertTypes: string[]) {
  const res = await c.put(`/monitor/${monitorId}/alert/${contactId}`, { alertTypes });
  expect(res.status, res.text).toBeLessThan(300);
}

/** The account's notifications as `event@seconds after t` (kind reminder marked), oldest first. */
async function notifications(c: Client, t: number): Promise<string[]> {
  const rows = (await c.get(`/contact/notification?from=${t - 3600}&to=${t + 86400}&limit=100`)).body
    .data as any[];
  return rows
    .sort((a, b) => a.time - b.time || a.event.localeCompare(b.event))
    .map((n) => `${n.event}@${n.time - t}`);
}

/** A monitor with two http contacts subscribed, delays 5 and 10 minutes, the second to reminders too. */
async function alerting(c: Client) {
  const m = await monitor(c);
  const at = (path: string) => `https://hooks.example.com/${m}/${path}`;
  const five = await contact(c, { type: "http", address: at("5"), alertDelay: 5 });
  const ten = await contact(c, { type: "http", address: at("10"), alertDelay: 10 });
  await subscribe(c, m, five, ["down", "up"]);
  await subscribe(c, m, ten, ["down", "repeatedlyDown"]);
  return m;
}

describe("a manual clock", () => {
  it("stands still between requests: only the clock route moves it", async () => {
    const time = new ManualClock();
    const clock = new Clock(new Store(), { manual: true, time });
    const real = new Clock(new Store(), { time });
    const [manualBefore, realBefore] = [clock.nowMs(), real.nowMs()];
    await time.advance(5);
    expect(clock.nowMs()).toBe(manualBefore);
    expect(real.nowMs()).toBeGreaterThan(realBefore);
    clock.set(t0);
    clock.advance(90);
    expect(clock.now()).toBe(t0 + 90);

    expect(await sb.setClock(t0)).toBe(t0);
    expect((await sb.admin.post("/_sandbox/clock", {})).body.now).toBe(t0);
    expect(await sb.advance(90)).toBe(t0 + 90);
  });
});

describe("POST /_sandbox/clock with stepped: true", () => {
  it("fires each alert and reminder at its own moment, where a plain jump fires them once at its end", async () => {
    const c = await sb.account();
    const stepped = await alerting(c);
    const plain = await alerting(c);
    const t = await sb.setClock(t0 + 86400);
    await outcome(stepped, "down");
    await outcome(plain, "down");
    const res = await sb.admin.post("/_sandbox/clock", { advanceSec: 65 * 60, stepped: true });
    expect(res.body).toEqual({ now: t + 65 * 60, stops: 4 });
    const all = (await c.get(`/contact/notification?limit=100&from=${t}`)).body.data as any[];
    const times = (monitorId: string) =>
      all
        .filter((n) => n.monitorIds.includes(monitorId))
        .sort((a, b) => a.time - b.time)
        .map((n) => `${n.event}@${(n.time - t) / 60}m`);
    // Both monitors share the moments: the stepped jump stops at each one for both.
    expect(times(stepped)).toEqual(["down@5m", "down@10m", "repeatedlyDown@30m", "repeatedlyDown@60m"]);
    expect(times(plain)).toEqual(times(stepped));

    const c2 = await sb.account();
    const late = await alerting(c2);
    const t2 = await sb.setClock(t0 + 2 * 86400);
    await outcome(late, "down");
    await sb.admin.post("/_sandbox/clock", { advanceSec: 65 * 60 });
    // One jump: everything due fires once, at its end, and no reminder repeats what that run first says.
    expect(await notifications(c2, t2)).toEqual(["down@3900", "down@3900"]);
  });

  it("stops at a suppressing window's end, where the alerts it held back go out", async () => {
    const c = await sb.account();
    const m = await alerting(c);
    const t = await sb.setClock(t0 + 3 * 86400);
    const w = await c.post("/maintenance", {
      name: "deploy",
      from: t - 60,
      to: t + 20 * 60,
      monitorIds: [m],
    });
    expect(w.status, w.text).toBe(201);
    await outcome(m, "down");
    await sb.admin.post("/_sandbox/clock", { advanceSec: 40 * 60, stepped: true });
    // Held back while the window runs, both delays passed by its end (20m): both go out then, not at 40m;
    // the first reminder tier after that is the one at 30m.
    expect(await notifications(c, t)).toEqual(["down@1200", "down@1200", "repeatedlyDown@1800"]);
  });

  it("sets the clock back without stopping anywhere", async () => {
    const res = await sb.admin.post("/_sandbox/clock", { now: t0, stepped: true });
    expect(res.body).toEqual({ now: t0, stops: 0 });
  });
});

describe("checkpoint and restore", () => {
  it("go back to the objects, histories and clock of the checkpoint, and deliveries go out after it", async () => {
    const c = await sb.account();
    const m = await alerting(c);
    const hook = await c.post("/webhook", {
      url: "https://hooks.example.com/checkpoint",
      events: ["monitor.down", "incident.opened"],
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      scope: { monitorIds: [m] },
    });
    expect(hook.status, hook.text).toBe(201);
    const t = await sb.setClock(t0 + 4 * 86400);
    await sb.settle();
    const checkpoint = await sb.checkpoint();

    for (let round = 0; round < 2; round++) {
      received.length = 0;
      const down = await outcome(m, "down");
      expect(down.changed).toBe(true);
      await sb.admin.post("/_sandbox/clock", { advanceSec: 300, stepped: true });
      await sb.settle();
      expect(await notifications(c, t)).toEqual(["down@300"]);
      // The same deliveries each round: the restored store's index was built again.
      expect(received.map((r) => r.headers["SVC-Event"])).toEqual(["incident.opened", "monitor.down"]);
      const signed = received[1]!;
      const envelope = new Webhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").verify(
        signed.body,
        signed.headers,
      ) as { event: string; occurredAt: number };
      expect(envelope).toMatchObject({ event: "monitor.down", occurredAt: t + 300 });
      expect(signed.url).toBe("https://hooks.example.com/checkpoint");
      const rows = (await c.get(`/webhook/${hook.body.id}/delivery`)).body.data as any[];
      expect(rows.map((r) => r.outcome)).toEqual(["delivered", "delivered"]);

      await sb.restore(checkpoint);
      expect((await sb.admin.post("/_sandbox/clock", {})).body.now).toBe(t);
      expect(await notifications(c, t)).toEqual([]);
      expect((await c.get(`/monitor/${m}/incident`)).body.data).toEqual([]);
      expect((await c.get(`/webhook/${hook.body.id}/delivery`)).body.data).toEqual([]);
    }
  });

  it("refuses a sandbox with a data file", async () => {
    const { mkdtemp, rm } = await import("node:fs/promises");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = await mkdtemp(join(tmpdir(), "vigil-checkpoint-"));
    const filed = await startTestSandbox({ dataFile: join(dir, "data.db") });
    try {
      await expect(filed.checkpoint()).rejects.toThrow(/data file/);
    } finally {
      await filed.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
