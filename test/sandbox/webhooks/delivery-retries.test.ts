import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contact } from "../../helpers/fixtures.ts";
import {
  createMonitor,
  deliveries,
  hook,
  rx,
  sb,
  standardValid,
  svcValid,
  useSandbox,
} from "./delivery-setup.ts";
import { eventually } from "./receiver.ts";

/** Deliveries: retries, redirects, auto-disabling, redelivery, retention and the delivery list. */
useSandbox();

describe("delivery behaviour", () => {
  it("climbs the retry ladder on the sandbox clock (engine events), then fails", async () => {
    const c = await sb.account();
    const h = await hook(c, { events: ["monitor.down"] }, () => ({ status: 503 }));
    const queued = await sb.admin.post(`/_sandbox/webhook/${h.id}/event`, { event: "monitor.down" });
    expect(queued.status, queued.text).toBe(202);
    const id = queued.body.id;
    const row = async () => (await deliveries(c, h.id)).find((d) => d.id === id);
    const ladder = [10, 60, 300, 1800, 7200];
    for (let attempt = 1; attempt <= 6; attempt++) {
      const got = await rx.waitFor(h.path, attempt);
      expect(got[attempt - 1]!.headers["svc-attempt"]).toBe(String(attempt));
      const d = await eventually(async () => {
        const r = await row();
        return r?.attempts.length === attempt ? r : undefined;
      });
      if (attempt === 6) {
        expect(d).toMatchObject({ outcome: "failed", nextRetryAt: null });
        break;
      }
      const wait = d.nextRetryAt - d.attempts.at(-1).at;
      const step = ladder[attempt - 1]!;
      expect(d.outcome).toBe("pending");
      expect(wait).toBeGreaterThanOrEqual(step);
      expect(wait).toBeLessThanOrEqual(Math.ceil(step * 1.2));
      // Not before its time: two seconds short of the step sends nothing (the sandbox clock also
      // moves with real time, so one second short could cross a second boundary while we look).
      await sb.advance(step - 2);
      await sb.settle();
      expect(rx.received(h.path)).toHaveLength(attempt);
      await sb.advance(wait - step + 2);
    }
    // A failed delivery counts once, however many attempts it took.
    expect((await c.get(`/webhook/${h.id}`)).body.consecutiveFailures).toBe(1);
  });

  it("honours a longer Retry-After on 429", async () => {
    const c = await sb.account();
    const h = await hook(c, { events: ["monitor.down"] }, () => ({
      status: 429,
      headers: { "retry-after": "600" },
    }));
    const { body } = await sb.admin.post(`/_sandbox/webhook/${h.id}/event`, { event: "monitor.down" });
    const d = await eventually(async () => {
      const r = (await deliveries(c, h.id)).find((x) => x.id === body.id);
      return r?.attempts.length === 1 ? r : undefined;
    });
    expect(d.outcome).toBe("pending");
    expect(d.nextRetryAt - d.attempts[0].at).toBe(600);
  });

  it("caps a 429's Retry-After at the last ladder step (2 h)", async () => {
    const c = await sb.account();
    const h = await hook(c, { events: ["monitor.down"] }, () => ({
      status: 429,
      headers: { "retry-after": String(30 * 86400) },
    }));
    const { body } = await sb.admin.post(`/_sandbox/webhook/${h.id}/event`, { event: "monitor.down" });
    const d = await eventually(async () => {
      const r = (await deliveries(c, h.id)).find((x) => x.id === body.id);
      return r?.attempts.length === 1 ? r : undefined;
    });
    expect(d.outcome).toBe("pending");
    // The first step is 10 s (+20 % at most): the cap, not the ladder, decides here.
    expect(d.nextRetryAt - d.attempts[0].at).toBe(7200);
  });

  it("fails other 4xx permanently, without retries", async () => {
    const c = await sb.account();
    const h = await hook(c, { events: ["monitor.down"] }, () => ({ status: 404 }));
    const { body } = await sb.admin.post(`/_sandbox/webhook/${h.id}/event`, { event: "monitor.down" });
    const d = await eventually(async () => {
      const r = (await deliveries(c, h.id)).find((x) => x.id === body.id);
      return r?.outcome === "failed" ? r : undefined;
    });
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0].statusCode).toBe(404);
  });

  it("drops pending retries when the webhook is disabled", async () => {
    const c = await sb.account();
    const h = await hook(c, { events: ["monitor.down"] }, () => ({ status: 500 }));
    const { body } = await sb.admin.post(`/_sandbox/webhook/${h.id}/event`, { event: "monitor.down" });
    await eventually(async () => {
      const r = (await deliveries(c, h.id)).find((x) => x.id === body.id);
      return r?.attempts.length === 1 ? r : undefined;
    });
    await c.patch(`/webhook/${h.id}`, { enabled: false });
    const [d] = await deliveries(c, h.id);
    expect(d).toMatchObject({ outcome: "dropped", nextRetryAt: null });
  });

  it("follows up to 3 redirects, signing each hop afresh; a 4th fails the delivery", async () => {
    const c = await sb.account();
    const final = rx.hook();
    const hop2 = rx.hook(() => ({ status: 308, headers: { location: final.url } }));
    const hop1 = rx.hook(() => ({ status: 307, headers: { location: hop2.path } }));
    const h = await hook(c, {}, () => ({ status: 302, headers: { location: hop1.url } }));
    await createMonitor(c);
    const [got] = await rx.waitFor(final.path);
    expect(got!.headers["svc-delivery"]).toBe(rx.received(h.path)[0]!.headers["svc-delivery"]);
    expect(standardValid(got!, h.secret)).toBe(true);
    expect(svcValid(got!, h.secret)).toBe(true);

    rx.answer(final.path, () => ({ status: 301, headers: { location: rx.hook().url } }));
    await c.patch(`/webhook/${h.id}`, { name: "again" });
    await createMonitor(c);
    const failed = await eventually(async () => {
      const d = (await deliveries(c, h.id)).find((x) => x.outcome === "failed");
      return d;
    });
    expect(failed.attempts[0]).toMatchObject({ statusCode: 301, error: "more than 3 redirects" });
  });

  it("gives API-caused events one attempt; 5xx leaves the delivery failed", async () => {
    const c = await sb.account();
    const h = await hook(c, {}, () => ({ status: 500 }));
    await createMonitor(c);
    const row = await eventually(async () => {
      const [d] = await deliveries(c, h.id);
      return d?.outcome === "failed" ? d : undefined;
    });
    expect(row.attempts).toHaveLength(1);
    expect(row.attempts[0]).toMatchObject({ statusCode: 500, error: "receiver answered 500" });
    expect(row.nextRetryAt).toBeNull();
    expect((await c.get(`/webhook/${h.id}`)).body.consecutiveFailures).toBe(1);
  });

  it("disables the webhook at once on 410 (gone) and notifies confirmed email contacts", async () => {
    const c = await sb.account();
    const id = await contact(c, { type: "email", address: "owner@example.com" });
    const code = (await sb.outbox()).find((x) => x.contactId === id && x.kind === "confirmation").code;
    await c.post(`/contact/${id}/confirmation/verify`, { code });
    await contact(c, { type: "email", address: "unconfirmed@example.com" });
    const h = await hook(c, {}, () => ({ status: 410 }));
    await createMonitor(c);
    const disabled = await eventually(async () => {
      const w = (await c.get(`/webhook/${h.id}`)).body;
      return w.enabled ? undefined : w;
    });
    expect(disabled).toMatchObject({ disabledReason: "gone", consecutiveFailures: 1 });
    const notices = (await sb.outbox()).filter((m) => m.kind === "webhookDisabled" && m.webhookId === h.id);
    expect(notices.map((m) => m.to)).toEqual(["owner@example.com"]);
    expect(notices[0].reason).toBe("gone");
  });

  it("auto-disables after 20 consecutive failed deliveries, with one notice; enabling resets the count", async () => {
    const c = await sb.account();
    const id = await contact(c, { type: "email", address: "ops@example.com" });
    const code = (await sb.outbox()).find((x) => x.contactId === id && x.kind === "confirmation").code;
    await c.post(`/contact/${id}/confirmation/verify`, { code });
    const h = await hook(c, { events: ["monitor.updated"] }, () => ({ status: 400 }));
    const m = await createMonitor(c);
    for (let i = 1; i <= 19; i++) {
      await c.patch(`/monitor/${m}`, { name: `n${i}` });
      await rx.waitFor(h.path, i);
    }
    await eventually(async () =>
      (await c.get(`/webhook/${h.id}`)).body.consecutiveFailures === 19 ? true : undefined,
    );
    expect((await c.get(`/webhook/${h.id}`)).body.enabled).toBe(true);
    await c.patch(`/monitor/${m}`, { name: "n20" });
    const disabled = await eventually(async () => {
      const w = (await c.get(`/webhook/${h.id}`)).body;
      return w.enabled ? undefined : w;
    });
    expect(disabled).toMatchObject({ disabledReason: "deliveryFailure", consecutiveFailures: 20 });
    const notices = (await sb.outbox()).filter((x) => x.kind === "webhookDisabled" && x.webhookId === h.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ to: "ops@example.com", reason: "deliveryFailure" });

    const enabled = await c.patch(`/webhook/${h.id}`, { enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null });
  });

  it("redelivers with the same id and body, a fresh signature and the attempt count continued", async () => {
    const c = await sb.account();
    let status = 500;
    const h = await hook(c, {}, () => ({ status }));
    await createMonitor(c);
    const [first] = await rx.waitFor(h.path);
    const failed = await eventually(async () => {
      const [d] = await deliveries(c, h.id);
      return d?.outcome === "failed" ? d : undefined;
    });
    status = 200;
    const res = await c.post(`/webhook/${h.id}/delivery/${failed.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: failed.id, outcome: "pending" });
    const [, second] = await rx.waitFor(h.path, 2);
    expect(second!.raw).toBe(first!.raw);
    expect(second!.headers["svc-attempt"]).toBe("2");
    expect(second!.headers["svc-delivery"]).toBe(failed.id);
    expect(svcValid(second!, h.secret)).toBe(true);
    expect(standardValid(second!, h.secret)).toBe(true);
    const done = await eventually(async () => {
      const [d] = await deliveries(c, h.id);
      return d?.outcome === "delivered" ? d : undefined;
    });
    expect(done.attempts.map((a: any) => a.statusCode)).toEqual([500, 200]);

    await c.patch(`/webhook/${h.id}`, { enabled: false });
    const refused = await c.post(`/webhook/${h.id}/delivery/${failed.id}/redeliver`);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("webhook_disabled");
    expect((await c.post(`/webhook/${h.id}/delivery/d_${"0".repeat(32)}/redeliver`)).status).toBe(404);
  });

  it("redelivers a pending delivery at once as an extra attempt, keeping every remaining retry", async () => {
    const c = await sb.account();
    const h = await hook(c, { events: ["monitor.down"] }, () => ({ status: 503 }));
    const { body } = await sb.admin.post(`/_sandbox/webhook/${h.id}/event`, { event: "monitor.down" });
    const row = async () => (await deliveries(c, h.id)).find((d) => d.id === body.id);
    const afterFirst = await eventually(async () => {
      const r = await row();
      return r?.attempts.length === 1 ? r : undefined;
    });
    const ladderRetryAt = afterFirst.nextRetryAt;

    const res = await c.post(`/webhook/${h.id}/delivery/${body.id}/redeliver`);
    expect(res.status).toBe(202);
    // The row says the next attempt is now (the redelivery), not at the ladder time.
    expect(res.body.outcome).toBe("pending");
    expect(res.body.nextRetryAt).toBeLessThan(ladderRetryAt);
    const [, extra] = await rx.waitFor(h.path, 2);
    expect(extra!.headers["svc-attempt"]).toBe("2");
    // The failed extra attempt leaves the ladder as it was: the first retry still comes at its time.
    const afterExtra = await eventually(async () => {
      const r = await row();
      return r?.attempts.length === 2 ? r : undefined;
    });
    expect(afterExtra).toMatchObject({ outcome: "pending", nextRetryAt: ladderRetryAt });

    // All five ladder retries still follow: seven attempts in all, then failed.
    for (let attempt = 3; attempt <= 7; attempt++) {
      await sb.advance(7200 * 1.2 + 1);
      await rx.waitFor(h.path, attempt);
    }
    const failed = await eventually(async () => {
      const r = await row();
      return r?.outcome === "failed" ? r : undefined;
    });
    expect(failed.attempts).toHaveLength(7);
    expect(rx.received(h.path).map((r) => r.headers["svc-attempt"])).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
    ]);
  });

  it("sends a redelivery asked for while an attempt of the same delivery is on its way", async () => {
    const c = await sb.account();
    // The receiver takes its time: the redelivery arrives while the first attempt waits for its answer.
    const h = await hook(c, {}, () => ({ status: 200, delayMs: 300 }));
    await createMonitor(c);
    const [first] = await rx.waitFor(h.path);
    const id = first!.body.id;
    const res = await c.post(`/webhook/${h.id}/delivery/${id}/redeliver`);
    expect(res.status).toBe(202);
    const [, second] = await rx.waitFor(h.path, 2);
    expect(second!.headers["svc-attempt"]).toBe("2");
    const done = await eventually(async () => {
      const d = (await deliveries(c, h.id)).find((x) => x.id === id);
      return d?.outcome === "delivered" && d.attempts.length === 2 ? d : undefined;
    });
    expect(done.nextRetryAt).toBeNull();
  });

  it("sends nothing for an event whose request was rolled back (a bulk-validate dry run)", async () => {
    const c = await sb.account();
    const h = await hook(c);
    const dry = await c.post("/monitor/bulk-validate", {
      items: [
        { type: "http", url: `https://example.com/${randomUUID()}`, locations: { pools: ["allworld"] } },
      ],
    });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.valid).toBe(1);
    const monitorId = await createMonitor(c);
    const [got] = await rx.waitFor(h.path);
    expect(got!.body.data.id).toBe(monitorId);
    await sb.settle();
    expect(rx.received(h.path)).toHaveLength(1);
    expect(await deliveries(c, h.id)).toHaveLength(1);
  });

  it("sends payloads over 32 KB but does not retain them: redeliver answers payload_not_retained", async () => {
    const c = await sb.account();
    const h = await hook(c, {}, () => ({ status: 500 }));
    const res = await c.post("/monitor", {
      type: "http",
      url: `https://example.com/${randomUUID()}`,
      locations: { pools: ["allworld"] },
      tags: Array.from({ length: 600 }, (_, i) => `tag-${i}-${"x".repeat(52)}`),
    });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    const [got] = await rx.waitFor(h.path);
    expect(got!.raw.length).toBeGreaterThan(32 * 1024);
    const failed = await eventually(async () => {
      const [d] = await deliveries(c, h.id);
      return d?.outcome === "failed" ? d : undefined;
    });
    const again = await c.post(`/webhook/${h.id}/delivery/${failed.id}/redeliver`);
    expect(again.status).toBe(422);
    expect(again.body.code).toBe("payload_not_retained");
  });

  it("lists deliveries with event, outcome and window filters; deleting the webhook removes them", async () => {
    const c = await sb.account();
    const h = await hook(c, {}, (r) => ({ status: r.body.event === "monitor.updated" ? 500 : 200 }));
    const m = await createMonitor(c);
    await c.patch(`/monitor/${m}`, { name: "x" });
    await eventually(async () => {
      const rows = await deliveries(c, h.id);
      return rows.length === 2 && rows.every((d) => d.outcome !== "pending") ? rows : undefined;
    });
    expect((await deliveries(c, h.id, "?event=monitor.updated")).map((d) => d.outcome)).toEqual(["failed"]);
    expect((await deliveries(c, h.id, "?outcome=delivered")).map((d) => d.event)).toEqual([
      "monitor.created",
    ]);
    expect(await deliveries(c, h.id, "?outcome=pending,dropped")).toHaveLength(0);
    const now = (await c.get(`/webhook/${h.id}`)).body.created;
    expect(await deliveries(c, h.id, `?from=${now + 3600}&to=${now + 7200}`)).toHaveLength(0);
    const q = await c.post(`/webhook/${h.id}/delivery/q`, { event: ["monitor.created"], limit: 1 });
    expect(q.body.data).toHaveLength(1);
    expect((await c.get(`/webhook/${h.id}/delivery?outcome=lost`)).body.code).toBe("unknown_enum_value");

    const receipt = await c.delete(`/webhook/${h.id}`);
    expect(receipt.body).toMatchObject({ id: h.id, deleted: true });
    expect((await c.get(`/webhook/${h.id}/delivery`)).status).toBe(404);
  });

  it("keeps deliveries 7 days", async () => {
    const c = await sb.account();
    const h = await hook(c);
    await createMonitor(c);
    await eventually(async () =>
      (await deliveries(c, h.id))[0]?.outcome === "delivered" ? true : undefined,
    );
    // Still listed a minute before its 7 days are up (the sweep runs every 10 minutes)...
    await sb.advance(7 * 86400 - 60);
    expect(await deliveries(c, h.id)).toHaveLength(1);
    // ...and gone once they are.
    await sb.advance(700);
    await eventually(async () => ((await deliveries(c, h.id)).length === 0 ? true : undefined));
  });
});
