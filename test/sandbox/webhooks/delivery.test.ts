import { createHash } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { eventEnvelope } from "../../../src/kinds/events.ts";
import { subscribableEvents } from "../../../src/kinds/index.ts";
import { contact } from "../../helpers/fixtures.ts";
import {
  createMonitor,
  deliveries,
  hook,
  reopenReceiver,
  rx,
  sb,
  standardValid,
  svcValid,
  useSandbox,
} from "./delivery-setup.ts";
import { eventually } from "./receiver.ts";

/** Deliveries: envelope, headers, signatures, events from API routes, the test route and --allow-insecure-webhooks. */
useSandbox();

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
    await sb.settle();
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
    await sb.settle();
    expect(rx.received(off.path)).toHaveLength(0);
    expect(rx.received(other.path)).toHaveLength(0);
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
    await reopenReceiver();
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
