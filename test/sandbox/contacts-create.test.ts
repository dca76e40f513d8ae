import { describe, expect, it } from "vitest";
import { contactSchema, defaultsOf } from "../../src/kinds/index.ts";
import { create, key, sb, useSandbox } from "./contacts-setup.ts";

/** Contacts: POST /contact. */
useSandbox();

describe("POST /contact", () => {
  it("creates an email contact unconfirmed, with defaults, Location and a code in the outbox", async () => {
    const c = await sb.account();
    const res = await c.post("/contact", { type: "email", address: "ops@example.com" }, key());
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/contact/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(String),
      type: "email",
      address: "ops@example.com",
      name: "ops@example.com",
      language: "en",
      alertDelay: 0,
      activePeriod: null,
      confirmed: false,
      confirmedAt: null,
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    const mail = (await sb.outbox()).filter((m) => m.to === "ops@example.com");
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({
      kind: "confirmation",
      channel: "email",
      code: expect.stringMatching(/^\d{6}$/),
    });
  });

  it("creates every creatable type; http contacts are born confirmed with their http members", async () => {
    const c = await sb.account({ plan: "enterprise" });
    const sms = await create(c, { type: "sms", address: "+14155550100" });
    const voice = await create(c, { type: "voiceCall", address: "+14155550101" });
    const push = await create(c, { type: "webPush", address: "https://push.example.com/sub/1" });
    expect([sms.confirmed, voice.confirmed, push.confirmed]).toEqual([false, false, true]);
    const http = await create(c, {
      type: "http",
      address: "https://hooks.slack.com/services/T/B/X",
      httpHeaders: [{ header: "X-Team", value: "ops" }],
      templates: [{ event: "down", content: "[[taskName]] is down" }],
      mimeType: "text/plain",
      groupedAlerts: true,
    });
    expect(http).toMatchObject({
      confirmed: true,
      gateway: "slack",
      mimeType: "text/plain",
      groupedAlerts: true,
      httpHeaders: [{ header: "X-Team", value: "ops" }],
      templates: [{ event: "down", content: "[[taskName]] is down" }],
    });
    expect(http.confirmedAt).toBe(http.created);
    expect("gateway" in push).toBe(false);
  });

  it("refuses messenger types with contact_type_not_creatable", async () => {
    const c = await sb.account();
    const res = await c.post("/contact", { type: "telegram", address: "12345" });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("contact_type_not_creatable");
    expect(res.body.errors[0]).toMatchObject({
      pointer: "/type",
      value: "telegram",
      allowed: ["email", "sms", "voiceCall", "http", "webPush"],
    });
  });

  it("refuses a second contact with the same type and address (emails without case)", async () => {
    const c = await sb.account();
    const first = await create(c, { type: "email", address: "dup@example.com" });
    const res = await c.post("/contact", { type: "email", address: "DUP@example.com" }, key());
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "duplicate_contact", existingId: first.id });
    expect(res.body.errors[0]).toMatchObject({
      pointer: "/address",
      reason: "duplicate",
      existingId: first.id,
    });
    // Another type with the same text is another contact.
    await create(c, { type: "http", address: "https://dup.example.com/hook" });
  });

  it("answers validation_failed for missing, unknown, read-only and malformed members", async () => {
    const c = await sb.account();
    const missing = await c.post("/contact", { type: "email" }, key());
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe("validation_failed");
    expect(missing.body.errors).toContainEqual(
      expect.objectContaining({ pointer: "/address", reason: "required" }),
    );

    const unknown = await c.post("/contact", { type: "email", address: "a@example.com", nmae: "x" }, key());
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({
      pointer: "/nmae",
      reason: "unknown_member",
      didYouMean: "name",
    });
    expect(unknown.body.errors[0].allowed).toContain("alertDelay");
    expect(unknown.body.errors[0].allowed).not.toContain("confirmed");

    const readOnly = await c.post(
      "/contact",
      { type: "email", address: "a@example.com", confirmed: true },
      key(),
    );
    expect(readOnly.status).toBe(422);
    expect(readOnly.body.errors[0]).toMatchObject({ pointer: "/confirmed", reason: "unknown_member" });

    const header = await c.post("/contact", {
      type: "http",
      address: "https://x.example.com",
      httpHeaders: [{ value: "v" }],
    });
    expect(header.status).toBe(422);
    expect(header.body.errors[0]).toMatchObject({ pointer: "/httpHeaders/0/header", reason: "required" });

    const template = await c.post("/contact", {
      type: "http",
      address: "https://x.example.com",
      templates: [{ content: "x" }],
    });
    expect(template.status).toBe(422);
    expect(template.body.errors[0]).toMatchObject({ pointer: "/templates/0/event", reason: "required" });
  });

  it("checks addresses, http-only members, template-only mime types and the alert delay", async () => {
    const c = await sb.account();
    const email = await c.post("/contact", { type: "email", address: "not-an-email" }, key());
    expect(email.status).toBe(422);
    expect(email.body.errors[0]).toMatchObject({ pointer: "/address", reason: "invalid_format" });

    const phone = await c.post("/contact", { type: "sms", address: "5550100" }, key());
    expect(phone.status).toBe(422);
    expect(phone.body.errors[0]).toMatchObject({ pointer: "/address", reason: "invalid_format" });

    const httpOnly = await c.post(
      "/contact",
      { type: "email", address: "a@example.com", mimeType: "text/xml" },
      key(),
    );
    expect(httpOnly.status).toBe(422);
    expect(httpOnly.body.errors[0]).toMatchObject({ pointer: "/mimeType", reason: "not_allowed" });

    const mime = await c.post("/contact", {
      type: "http",
      address: "https://x.example.com",
      mimeType: "text/html",
    });
    expect(mime.status).toBe(422);
    expect(mime.body.errors[0]).toMatchObject({ pointer: "/mimeType", reason: "needs_template" });
    expect(mime.body.errors[0].allowed).toContain("application/json");

    const delay = await c.post("/contact", {
      type: "http",
      address: "https://x.example.com",
      alertDelay: 5000,
    });
    expect(delay.status).toBe(422);
    expect(delay.body.code).toBe("invalid_alert_delay");
    expect(delay.body.errors[0]).toMatchObject({
      pointer: "/alertDelay",
      value: 5000,
      minimum: 0,
      maximum: 1440,
    });
  });

  it("takes http and webPush URLs by the kinds' rule (any-case scheme, as monitor urls)", async () => {
    const c = await sb.account();
    for (const type of ["http", "webPush"]) {
      const ok = await c.post("/contact", { type, address: "HTTPS://Hooks.Example.com/up" }, key());
      expect(ok.status, `${type} ${ok.text}`).toBe(201);
      const bad = await c.post("/contact", { type, address: "ftp://hooks.example.com/up" }, key());
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0]).toMatchObject({ pointer: "/address", reason: "invalid_format" });
    }
  });

  it("fills unsent members with the defaults the contact kind declares", async () => {
    const c = await sb.account();
    const http = await create(c, { type: "http", address: "https://defaults.example.com/hook" });
    expect(http).toMatchObject(defaultsOf(contactSchema));
  });

  it("refuses voice contacts on a plan without them (403 package_limit)", async () => {
    const c = await sb.account({ plan: "trial" });
    const res = await c.post("/contact", { type: "voiceCall", address: "+14155550100" }, key());
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "package_limit", feature: "voiceContacts" });
  });
});
