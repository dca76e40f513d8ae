import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { create, sb, useSandbox } from "./contacts-setup.ts";

/** Contacts: PATCH and DELETE /contact/{id}. */
useSandbox();

describe("PATCH /contact/{id}", () => {
  it("changes only sent members, clears nullable ones with null, and keeps updated when nothing changed", async () => {
    const c = await sb.account();
    const contact = await create(c, {
      type: "email",
      address: "patch@example.com",
      name: "Before",
      activePeriod: { days: ["mon", "tue"], from: "09:00", to: "17:00" },
    });
    await sb.advance(5);
    const res = await c.patch(`/contact/${contact.id}`, { name: "After", alertDelay: 10 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "After",
      alertDelay: 10,
      address: "patch@example.com",
      activePeriod: { days: ["mon", "tue"], from: "09:00", to: "17:00" },
    });
    expect(res.body.updated).toBeGreaterThan(contact.updated);

    const cleared = await c.patch(`/contact/${contact.id}`, { activePeriod: null });
    expect(cleared.body.activePeriod).toBeNull();

    await sb.advance(5);
    const same = await c.patch(`/contact/${contact.id}`, { name: "After", type: "email" });
    expect(same.status).toBe(200);
    expect(same.body.updated).toBe(cleared.body.updated);
  });

  it("a new address unconfirms the contact and sends a fresh code; a case change does not", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "email", address: "old@example.com" });
    const code = (await sb.outbox()).find((m) => m.contactId === contact.id).code;
    const verified = await c.post(`/contact/${contact.id}/confirmation/verify`, { code });
    expect(verified.body.confirmed).toBe(true);

    const recased = await c.patch(`/contact/${contact.id}`, { address: "OLD@example.com" });
    expect(recased.body).toMatchObject({ address: "OLD@example.com", confirmed: true });

    const moved = await c.patch(`/contact/${contact.id}`, { address: "new@example.com" });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ address: "new@example.com", confirmed: false, confirmedAt: null });
    const codes = (await sb.outbox()).filter((m) => m.contactId === contact.id);
    expect(codes).toHaveLength(2);
    expect(codes).toContainEqual(expect.objectContaining({ kind: "confirmation", to: "new@example.com" }));
  });

  it("a defaulted name follows the address (sort and q too); a sent name sticks; null restores the default", async () => {
    const c = await sb.account();
    const plain = await create(c, { type: "email", address: "zed@example.com" });
    const named = await create(c, { type: "email", address: "named@example.com", name: "Named" });
    const moved = await c.patch(`/contact/${plain.id}`, { address: "amy@example.com" });
    expect(moved.body.name).toBe("amy@example.com");
    expect((await c.get(`/contact/${plain.id}`)).body.name).toBe("amy@example.com");
    const byName = await c.get("/contact?sort=name&fields=name");
    expect(byName.body.data.map((r: { name: string }) => r.name)).toEqual(["amy@example.com", "Named"]);
    expect((await c.get("/contact?q=amy")).body.data.map((r: { id: string }) => r.id)).toEqual([plain.id]);
    expect((await c.get("/contact?q=zed")).body.data).toEqual([]);

    const kept = await c.patch(`/contact/${named.id}`, { address: "renamed@example.com" });
    expect(kept.body.name).toBe("Named");
    const reset = await c.patch(`/contact/${named.id}`, { name: null });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.name).toBe("renamed@example.com");
    const receipt = await c.delete(`/contact/${plain.id}`);
    expect(receipt.body.name).toBe("amy@example.com");
  });

  it("recomputes the gateway of an http contact and keeps http contacts confirmed", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "http", address: "https://plain.example.com/hook" });
    expect(contact.gateway).toBeNull();
    const res = await c.patch(`/contact/${contact.id}`, { address: "https://discord.com/api/webhooks/1/x" });
    expect(res.body).toMatchObject({ gateway: "discord", confirmed: true });
  });

  it("refuses a type change with type_immutable", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "email", address: "typed@example.com" });
    const res = await c.patch(`/contact/${contact.id}`, { type: "sms" });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("type_immutable");
    expect(res.body.errors[0]).toMatchObject({ pointer: "/type", value: "sms", allowed: ["email"] });
  });

  it("refuses an address another contact of the type holds, and the rules of create", async () => {
    const c = await sb.account();
    const a = await create(c, { type: "email", address: "a@example.com" });
    const b = await create(c, { type: "email", address: "b@example.com" });
    const dup = await c.patch(`/contact/${b.id}`, { address: "a@example.com" });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: "duplicate_contact", existingId: a.id });

    const bad = await c.patch(`/contact/${b.id}`, { address: "nope" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ pointer: "/address", reason: "invalid_format" });
    const delay = await c.patch(`/contact/${b.id}`, { alertDelay: -1 });
    expect(delay.status).toBe(422);
    expect(delay.body.code).toBe("invalid_alert_delay");
    const unknown = await c.patch(`/contact/${b.id}`, { created: 1 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ pointer: "/created", reason: "unknown_member" });
    const http = await create(c, {
      type: "http",
      address: "https://t.example.com",
      templates: [{ event: "down", content: "x" }],
      mimeType: "text/plain",
    });
    const dropTemplates = await c.patch(`/contact/${http.id}`, { templates: [] });
    expect(dropTemplates.status).toBe(422);
    expect(dropTemplates.body.errors[0]).toMatchObject({ pointer: "/mimeType", reason: "needs_template" });
    const missing = await c.patch(`/contact/${randomUUID()}`, { name: "x" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
  });
});

describe("DELETE /contact/{id}", () => {
  it("answers a receipt naming the cascaded subscriptions and group memberships", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "email", address: "gone@example.com", name: "Gone" });
    const keep = await create(c, { type: "email", address: "keep@example.com" });
    const monitor = await c.post("/monitor", {
      type: "http",
      url: "https://example.com/gone",
      locations: { pools: ["allworld"] },
    });
    expect(monitor.status, monitor.text).toBe(201);
    const alert = await c.put(`/monitor/${monitor.body.id}/alert/${contact.id}`, {
      alertTypes: ["down", "up"],
    });
    const report = await c.put(`/monitor/${monitor.body.id}/report/${contact.id}`, {
      frequencies: ["monthly"],
    });
    const group = await c.post("/contact/group", {
      name: "G",
      members: [
        { contactId: contact.id, events: ["down"] },
        { contactId: keep.id, events: ["up"] },
      ],
    });

    const res = await c.delete(`/contact/${contact.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: contact.id,
      deleted: true,
      type: "email",
      name: "Gone",
      address: "gone@example.com",
      cascaded: {
        alertSubscriptions: [alert.body.id],
        reportSubscriptions: [report.body.id],
        groups: [group.body.id],
      },
    });
    expect((await c.get(`/contact/${contact.id}`)).status).toBe(404);
    expect((await c.get(`/alert/${alert.body.id}`)).status).toBe(404);
    const after = await c.get(`/contact/group/${group.body.id}`);
    expect(after.body.members).toEqual([{ contactId: keep.id, events: ["up"] }]);

    const again = await c.delete(`/contact/${contact.id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("not_found");
  });
});
