import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contactSchema, defaultsOf } from "../../src/kinds/index.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Contacts: create, read, list, update, delete. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const key = () => ({ headers: { "idempotency-key": randomUUID() } });

async function create(c: Client, body: Record<string, unknown>) {
  const res = await c.post("/contact", body, key());
  expect(res.status, res.text).toBe(201);
  return res.body;
}

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

describe("GET /contact/{id}", () => {
  it("reads the contact with its templates by default; expand replaces the defaults", async () => {
    const c = await sb.account();
    const http = await create(c, {
      type: "http",
      address: "https://hooks.example.com/a",
      templates: [{ event: "up", content: "up!" }],
    });
    const read = await c.get(`/contact/${http.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(http);
    const bare = await c.get(`/contact/${http.id}?expand=group`);
    expect(bare.body.templates).toBeUndefined();
    expect(bare.body.groups).toEqual([]);
  });

  it("expands subscription and group blocks", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "email", address: "blocks@example.com" });
    const monitor = await c.post("/monitor", {
      type: "http",
      url: "https://example.com/blocks",
      locations: { pools: ["allworld"] },
    });
    expect(monitor.status, monitor.text).toBe(201);
    await c.put(`/monitor/${monitor.body.id}/alert/${contact.id}`, { alertTypes: ["down"] });
    await c.put(`/monitor/${monitor.body.id}/report/${contact.id}`, { frequencies: ["weekly"] });
    const group = await c.post("/contact/group", {
      name: "Ops",
      members: [{ contactId: contact.id, events: ["down", "weekly"] }],
    });
    const res = await c.get(`/contact/${contact.id}?expand=subscription,group`);
    expect(res.status).toBe(200);
    expect(res.body.subscription).toEqual({
      alert: [{ id: expect.stringMatching(/^als_/), monitorId: monitor.body.id, alertTypes: ["down"] }],
      report: [{ id: expect.stringMatching(/^rsub_/), monitorId: monitor.body.id, frequencies: ["weekly"] }],
    });
    expect(res.body.groups).toEqual([{ id: group.body.id, name: "Ops", events: ["down", "weekly"] }]);
  });

  it("keeps only the requested fields, and refuses unknown expand and field tokens", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "email", address: "fields@example.com", name: "F" });
    const res = await c.get(`/contact/${contact.id}?fields=name,confirmed`);
    expect(res.body).toEqual({ id: contact.id, name: "F", confirmed: false });

    const expand = await c.get(`/contact/${contact.id}?expand=count`);
    expect(expand.status).toBe(422);
    expect(expand.body.code).toBe("unknown_expand");
    expect(expand.body.errors[0]).toMatchObject({
      pointer: "/expand",
      value: "count",
      allowed: ["subscription", "group", "template"],
    });

    const field = await c.get(`/contact/${contact.id}?fields=code`);
    expect(field.status).toBe(422);
    expect(field.body.code).toBe("unknown_field");
    expect(field.body.errors[0]).toMatchObject({ pointer: "/fields", value: "code" });
  });

  it("never shows bookkeeping, and answers 404 for a missing or foreign id", async () => {
    const c = await sb.account();
    const other = await sb.account();
    const contact = await create(c, { type: "email", address: "secret@example.com" });
    const read = await c.get(`/contact/${contact.id}`);
    for (const hidden of ["confirmationCode", "syncSeq", "accountId", "confirmedVia", "groupIds"])
      expect(read.body[hidden], hidden).toBeUndefined();
    const foreign = await other.get(`/contact/${contact.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    const missing = await c.get(`/contact/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
  });
});

describe("GET /contact", () => {
  it("filters by q, type, confirmed and id, sorts, counts and pages", async () => {
    const c = await sb.account();
    const alice = await create(c, { type: "email", address: "alice@example.com", name: "Alice" });
    await sb.advance(1);
    const bob = await create(c, { type: "http", address: "https://bob.example.com/hook", name: "bob" });
    await sb.advance(1);
    const carol = await create(c, { type: "sms", address: "+14155550111", name: "Carol" });

    const all = await c.get("/contact?expand=count");
    expect(all.body.data.map((r: { id: string }) => r.id)).toEqual([carol.id, bob.id, alice.id]);
    expect(all.body).toMatchObject({ hasMore: false, nextCursor: null, count: { total: 3, matched: 3 } });
    expect(all.body.data[0].templates).toBeUndefined();

    const q = await c.get("/contact?q=ALICE&expand=count");
    expect(q.body.data.map((r: { id: string }) => r.id)).toEqual([alice.id]);
    expect(q.body.count).toEqual({ total: 3, matched: 1 });
    const byAddress = await c.get("/contact?q=bob.example");
    expect(byAddress.body.data.map((r: { id: string }) => r.id)).toEqual([bob.id]);

    const types = await c.get("/contact?type=sms,http");
    expect(types.body.data.map((r: { id: string }) => r.id)).toEqual([carol.id, bob.id]);
    const confirmed = await c.get("/contact?confirmed=true");
    expect(confirmed.body.data.map((r: { id: string }) => r.id)).toEqual([bob.id]);
    const ids = await c.get(`/contact?id=${alice.id}&id=${carol.id}`);
    expect(ids.body.data.map((r: { id: string }) => r.id)).toEqual([carol.id, alice.id]);

    const byName = await c.get("/contact?sort=name");
    expect(byName.body.data.map((r: { name: string }) => r.name)).toEqual(["Alice", "bob", "Carol"]);
    const byAddressDesc = await c.get("/contact?sort=address:desc");
    expect(byAddressDesc.body.data.map((r: { id: string }) => r.id)).toEqual([bob.id, alice.id, carol.id]);
    const oldest = await c.get("/contact?sort=created:asc&fields=name");
    expect(oldest.body.data).toEqual([
      { id: alice.id, name: "Alice" },
      { id: bob.id, name: "bob" },
      { id: carol.id, name: "Carol" },
    ]);

    const page1 = await c.get("/contact?limit=2&sort=name");
    expect(page1.body.hasMore).toBe(true);
    const page2 = await c.get(`/contact?limit=2&sort=name&cursor=${page1.body.nextCursor}`);
    expect(page2.body.data.map((r: { id: string }) => r.id)).toEqual([carol.id]);
    expect(page2.body).toMatchObject({ hasMore: false, nextCursor: null });

    const twin = await c.post("/contact/q", { type: ["email"], sort: "name" });
    expect(twin.status).toBe(200);
    expect(twin.body.data.map((r: { id: string }) => r.id)).toEqual([alice.id]);
  });

  it("refuses unknown parameters and values", async () => {
    const c = await sb.account();
    const param = await c.get("/contact?kind=email");
    expect(param.status).toBe(422);
    expect(param.body.code).toBe("unknown_parameter");
    expect(param.body.errors[0]).toMatchObject({ pointer: "/kind", parameter: "kind" });
    expect(param.body.errors[0].allowed).toEqual(expect.arrayContaining(["q", "type", "confirmed", "id"]));

    const value = await c.get("/contact?type=pager");
    expect(value.status).toBe(422);
    expect(value.body.code).toBe("unknown_enum_value");
    expect(value.body.errors[0]).toMatchObject({ pointer: "/type", value: "pager" });

    const sort = await c.get("/contact?sort=updated");
    expect(sort.status).toBe(422);
    expect(sort.body.code).toBe("unknown_enum_value");
    expect(sort.body.errors[0].allowed).toContain("address:desc");
  });

  it("delta sync catches creations only, never edits", async () => {
    const c = await sb.account();
    const first = await create(c, { type: "email", address: "sync1@example.com" });
    const start = await c.get("/contact");
    const cursor = start.body.syncCursor;
    expect(typeof cursor).toBe("string");

    const edited = await c.patch(`/contact/${first.id}`, { name: "Renamed" });
    expect(edited.status).toBe(200);
    const afterEdit = await c.get(`/contact?updatedSince=${cursor}`);
    expect(afterEdit.body.data).toEqual([]);

    const second = await create(c, { type: "email", address: "sync2@example.com" });
    const afterCreate = await c.get(`/contact?updatedSince=${cursor}`);
    expect(afterCreate.body.data.map((r: { id: string }) => r.id)).toEqual([second.id]);
    const later = await c.get(`/contact?updatedSince=${afterCreate.body.syncCursor}`);
    expect(later.body.data).toEqual([]);

    const bad = await c.get("/contact?updatedSince=garbage");
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("invalid_cursor");
    expect(bad.body.errors[0]).toMatchObject({ pointer: "/updatedSince" });
  });
});

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
