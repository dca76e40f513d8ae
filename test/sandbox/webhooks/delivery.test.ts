import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventEnvelope, subscribableEvents } from "../../../src/kinds/index.ts";
import { contact, monitor } from "../../helpers/fixtures.ts";
import type { Client, TestSandbox } from "../../helpers/sandbox.ts";
import {
  type Answer,
  closeWithReceiver,
  eventually,
  type Received,
  Receiver,
  startWithReceiver,
} from "./receiver.ts";

/** Deliveries to a real local receiver, with --allow-insecure-webhooks so http on 127.0.0.1 is allowed. */
let sb: TestSandbox;
let rx: Receiver;
beforeAll(async () => ({ sb, rx } = await startWithReceiver()));
afterAll(() => closeWithReceiver(sb, rx));

async function hook(c: Client, body: Record<string, unknown> = {}, answer?: (r: Received) => Answer) {
  const target = rx.hook(answer);
  const res = await c.post("/webhook", {
    url: target.url,
    events: ["monitor.created", "monitor.updated", "monitor.deleted"],
    scope: { all: true },
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return { ...res.body, path: target.path } as { id: string; secret: string; path: string; url: string };
}

/** The SVC-Signature scheme, checked here with node:crypto only. */
function svcValid(received: Received, secret: string): boolean {
  const header = String(received.headers["svc-signature"]);
  const [tPart, ...sigs] = header.split(",");
  const t = tPart!.slice(2);
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${received.raw}`).digest();
  return sigs.some((s) => {
    const given = Buffer.from(s.slice(3), "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const standardValid = (received: Received, secret: string | Webhook) => {
  try {
    (typeof secret === "string" ? new Webhook(secret) : secret).verify(
      received.raw,
      received.headers as Record<string, string>,
    );
    return true;
  } catch {
    return false;
  }
};

const deliveries = async (c: Client, webhookId: string, query = "") =>
  (await c.get(`/webhook/${webhookId}/delivery${query}`)).body.data as any[];

/** Sends one API-caused event (one attempt) to every webhook of the account. */
const createMonitor = (c: Client) => monitor(c);

describe("envelope, headers and signatures", () => {
  it("sends a custom header named after an Object.prototype member like any other", async () => {
    const c = await sb.account();
    const h = await hook(c, {
      headers: [
        { header: "__proto__", value: "p" },
        { header: "constructor", value: "c" },
      ],
    });
    await createMonitor(c);
    const [got] = await rx.waitFor(h.path);
    const sent = got!.rawHeaders.join("\n");
    expect(sent).toContain("__proto__\np");
    expect(sent).toContain("constructor\nc");
  });

  it("delivers the envelope with every header, both schemes verifying byte for byte", async () => {
    const c = await sb.account();
    const h = await hook(c, { headers: [{ header: "X-Team", value: "ops" }] });
    const monitorId = await createMonitor(c);
    const [got] = await rx.waitFor(h.path);
    const envelope = got!.body;
    expect(envelope.id).toMatch(/^d_[0-9a-f]{32}$/);
    expect(envelope).toMatchObject({ event: "monitor.created", apiVersion: "v2", data: { id: monitorId } });
    expect(eventEnvelope("monitor.created").safeParse(envelope).success).toBe(true);
    expect(got!.headers).toMatchObject({
      "content-type": "application/json",
      "svc-event": "monitor.created",
      "svc-delivery": envelope.id,
      "svc-webhook": h.id,
      "svc-attempt": "1",
      "webhook-id": envelope.id,
      "x-team": "ops",
    });
    expect(svcValid(got!, h.secret)).toBe(true);
    expect(standardValid(got!, h.secret)).toBe(true);
    expect(svcValid({ ...got!, raw: `${got!.raw} ` }, h.secret)).toBe(false);
    expect(standardValid({ ...got!, raw: `${got!.raw} ` }, h.secret)).toBe(false);

    const row = await eventually(async () => {
      const [d] = await deliveries(c, h.id);
      return d?.outcome === "delivered" ? d : undefined;
    });
    expect(row).toMatchObject({
      id: envelope.id,
      event: "monitor.created",
      resourceId: monitorId,
      nextRetryAt: null,
    });
    expect(row.payloadDigest).toBe(createHash("sha256").update(got!.raw).digest("hex"));
    expect(row.attempts).toEqual([
      { at: expect.any(Number), statusCode: 200, latencyMs: expect.any(Number), error: null },
    ]);
    expect((await c.get(`/webhook/${h.id}`)).body.lastDeliveryAt).toBe(row.attempts[0].at);
  });

  it("signs an own non-base64 secret with its raw bytes for Standard Webhooks", async () => {
    const c = await sb.account();
    const secret = "my own secret! with spaces";
    const h = await hook(c, { secret });
    await createMonitor(c);
    const [got] = await rx.waitFor(h.path);
    expect(svcValid(got!, secret)).toBe(true);
    expect(standardValid(got!, new Webhook(Buffer.from(secret), { format: "raw" }))).toBe(true);
  });

  it("signs with both secrets for 24 hours after a rotation, then only the new one", async () => {
    const c = await sb.account();
    const h = await hook(c);
    const rotated = (await c.patch(`/webhook/${h.id}`, { secret: { rotate: true } })).body.secret as string;
    await createMonitor(c);
    const [during] = await rx.waitFor(h.path);
    expect(String(during!.headers["svc-signature"]).match(/v1=/g)).toHaveLength(2);
    expect(String(during!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [h.secret, rotated]) {
      expect(svcValid(during!, secret)).toBe(true);
      expect(standardValid(during!, secret)).toBe(true);
    }
    await sb.advance(86400);
    await createMonitor(c);
    const [, after] = await rx.waitFor(h.path, 2);
    expect(svcValid(after!, rotated)).toBe(true);
    expect(standardValid(after!, rotated)).toBe(true);
    expect(svcValid(after!, h.secret)).toBe(false);
    expect(standardValid(after!, h.secret)).toBe(false);
  });
});

describe("events from API routes", () => {
  it("sends monitor.created, updated and deleted with the monitor and the receipt", async () => {
    const c = await sb.account();
    const h = await hook(c);
    const id = await createMonitor(c);
    await c.patch(`/monitor/${id}`, { name: "Renamed" });
    const receipt = (await c.delete(`/monitor/${id}`)).body;
    const got = await rx.waitFor(h.path, 3);
    const byEvent = Object.fromEntries(got.map((r) => [r.body.event, r.body.data]));
    expect(byEvent["monitor.created"]).toMatchObject({ id, type: "http" });
    expect(byEvent["monitor.updated"]).toMatchObject({ id, name: "Renamed" });
    expect(byEvent["monitor.deleted"]).toEqual(receipt);
  });

  it("filters monitor events by a monitorIds or tags scope", async () => {
    const c = await sb.account();
    const watched = await createMonitor(c);
    const other = await createMonitor(c);
    const byId = await hook(c, { scope: { monitorIds: [watched] }, events: ["monitor.updated"] });
    const byTag = await hook(c, { scope: { tags: ["prod"] }, events: ["monitor.updated"] });
    await c.patch(`/monitor/${other}`, { name: "not watched" });
    await c.patch(`/monitor/${watched}`, { name: "watched" });
    // A tags scope catches monitors tagged later.
    await c.patch(`/monitor/${other}`, { tags: ["prod"] });
    const [idGot] = await rx.waitFor(byId.path);
    expect(idGot!.body.data).toMatchObject({ id: watched, name: "watched" });
    const [tagGot] = await rx.waitFor(byTag.path);
    expect(tagGot!.body.data).toMatchObject({ id: other, tags: ["prod"] });
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.received(byId.path)).toHaveLength(1);
    expect(rx.received(byTag.path)).toHaveLength(1);
  });

  it("sends contact.updated and contact.confirmed account-wide, whatever the scope", async () => {
    const c = await sb.account();
    const m = await createMonitor(c);
    const h = await hook(c, { scope: { monitorIds: [m] }, events: ["contact.updated", "contact.confirmed"] });
    const id = await contact(c, { type: "email", address: "hooks@example.com" });
    const code = (await sb.outbox()).find((x) => x.contactId === id && x.kind === "confirmation").code;
    await c.post(`/contact/${id}/confirmation/verify`, { code });
    await c.patch(`/contact/${id}`, { name: "Hooks" });
    const got = await rx.waitFor(h.path, 2);
    const confirmed = got.find((r) => r.body.event === "contact.confirmed")!.body.data;
    expect(confirmed).toMatchObject({
      contactId: id,
      type: "email",
      address: "hooks@example.com",
      via: "code",
    });
    const updated = got.find((r) => r.body.event === "contact.updated")!.body.data;
    expect(updated).toMatchObject({ id, name: "Hooks" });
  });

  it("sends nothing to disabled webhooks or for unsubscribed events", async () => {
    const c = await sb.account();
    const off = await hook(c);
    await c.patch(`/webhook/${off.id}`, { enabled: false });
    const other = await hook(c, { events: ["monitor.deleted"] });
    const on = await hook(c);
    await createMonitor(c);
    await rx.waitFor(on.path);
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.received(off.path)).toHaveLength(0);
    expect(rx.received(other.path)).toHaveLength(0);
  });
});

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
      await new Promise((r) => setTimeout(r, 150));
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
    await new Promise((r) => setTimeout(r, 200));
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

describe("POST /webhook/{id}/test", () => {
  it("sends a valid sample of each event and answers after the attempt, on disabled webhooks too", async () => {
    const c = await sb.account();
    const h = await hook(c);
    await c.patch(`/webhook/${h.id}`, { enabled: false });
    const res = await c.post(`/webhook/${h.id}/test`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      event: "monitor.down",
      outcome: "delivered",
      statusCode: 200,
      error: null,
    });
    const [got] = rx.received(h.path);
    expect(res.body.signatureSent).toBe(got!.headers["svc-signature"]);
    expect(standardValid(got!, h.secret)).toBe(true);
    for (const event of subscribableEvents) {
      const sent = await c.post(`/webhook/${h.id}/test`, { event });
      expect(sent.body.outcome, event).toBe("delivered");
      const last = rx.received(h.path).at(-1)!;
      const parsed = eventEnvelope(event).safeParse(last.body);
      expect(parsed.success, `${event}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    expect(await deliveries(c, h.id)).toHaveLength(0);
    expect((await c.post(`/webhook/${h.id}/test`, { event: "job.completed" })).body.code).toBe(
      "unknown_event_type",
    );
  });

  it("reports a refused or unreachable destination as a failed attempt", async () => {
    const c = await sb.account();
    const h = await hook(c);
    await rx.close();
    const res = await c.post(`/webhook/${h.id}/test`, { event: "monitor.up" });
    rx = await new Receiver().start();
    expect(res.body).toMatchObject({ outcome: "failed", statusCode: null });
    expect(res.body.error).toMatch(/ECONNREFUSED/);
  });
});

describe("--allow-insecure-webhooks", () => {
  it("allows http to loopback only; private addresses stay refused", async () => {
    const c = await sb.account();
    expect(
      (await c.post("/webhook", { url: "http://10.0.0.1/x", events: ["monitor.up"], scope: { all: true } }))
        .body.errors[0].reason,
    ).toBe("scheme_not_allowed");
    expect(
      (await c.post("/webhook", { url: "https://10.0.0.1/x", events: ["monitor.up"], scope: { all: true } }))
        .body.errors[0].reason,
    ).toBe("destination_not_allowed");
    expect(
      (
        await c.post("/webhook", {
          url: "http://example.com/x",
          events: ["monitor.up"],
          scope: { all: true },
        })
      ).body.errors[0].reason,
    ).toBe("scheme_not_allowed");
    expect(
      (
        await c.post("/webhook", {
          url: "http://localhost:1/x",
          events: ["monitor.up"],
          scope: { all: true },
        })
      ).status,
    ).toBe(201);
  });
});
