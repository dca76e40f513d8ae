import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Confirmation codes (resend, verify) and test sends. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const key = () => ({ headers: { "idempotency-key": randomUUID() } });

async function create(c: Client, body: Record<string, unknown>) {
  const res = await c.post("/contact", body, { headers: { "idempotency-key": randomUUID() } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The codes sent to a contact, oldest first. */
async function codes(contactId: string): Promise<string[]> {
  return (await sb.outbox())
    .filter((m) => m.contactId === contactId && m.kind === "confirmation")
    .map((m) => m.code);
}

describe("POST /contact/{id}/confirmation", () => {
  it("sends a fresh code that replaces the earlier one", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "email", address: "resend@example.com" });
    const [first] = await codes(contact.id);
    const res = await c.post(`/contact/${contact.id}/confirmation`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      contactId: contact.id,
      channel: "email",
      to: "resend@example.com",
      sentAt: expect.any(Number),
    });
    const sent = await codes(contact.id);
    expect(sent).toHaveLength(2);
    const latest = sent.find((code) => code !== first) ?? first!;
    // The superseded code no longer works (unless the fresh one happens to repeat it).
    if (latest !== first) {
      const stale = await c.post(`/contact/${contact.id}/confirmation/verify`, { code: first });
      expect(stale.status).toBe(422);
      expect(stale.body.code).toBe("invalid_confirmation_code");
    }
    const ok = await c.post(`/contact/${contact.id}/confirmation/verify`, { code: latest });
    expect(ok.status).toBe(200);
  });

  it("answers 409 contact_already_confirmed for confirmed contacts, 404 for unknown ones", async () => {
    const c = await sb.account();
    const http = await create(c, { type: "http", address: "https://hooks.example.com/confirmed" });
    const res = await c.post(`/contact/${http.id}/confirmation`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("contact_already_confirmed");
    expect(res.body.errors[0]).toMatchObject({ reason: "confirmed", confirmedAt: http.confirmedAt });
    const missing = await c.post(`/contact/${randomUUID()}/confirmation`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
  });
});

describe("POST /contact/{id}/confirmation/verify", () => {
  it("confirms with the right code, via code; a second verify is 409", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "sms", address: "+14155550199" });
    const [code] = await codes(contact.id);
    const res = await c.post(`/contact/${contact.id}/confirmation/verify`, { code });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: contact.id, confirmed: true, confirmedAt: expect.any(Number) });
    expect(res.body.confirmedVia).toBeUndefined();
    expect((await c.get(`/contact/${contact.id}`)).body.confirmed).toBe(true);
    const again = await c.post(`/contact/${contact.id}/confirmation/verify`, { code });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("contact_already_confirmed");
  });

  it("refuses a wrong code with invalid_confirmation_code pointing at /code", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "email", address: "wrong@example.com" });
    const [code] = await codes(contact.id);
    const wrong = code === "000000" ? "111111" : "000000";
    const res = await c.post(`/contact/${contact.id}/confirmation/verify`, { code: wrong });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("invalid_confirmation_code");
    expect(res.body.errors[0]).toMatchObject({ pointer: "/code", value: wrong, reason: "mismatch" });
    expect((await c.get(`/contact/${contact.id}`)).body.confirmed).toBe(false);
  });

  it("validates the body", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "email", address: "body@example.com" });
    const missing = await c.post(`/contact/${contact.id}/confirmation/verify`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe("validation_failed");
    expect(missing.body.errors[0]).toMatchObject({ pointer: "/code", reason: "required" });
    const number = await c.post(`/contact/${contact.id}/confirmation/verify`, { code: 123456 });
    expect(number.status).toBe(422);
    expect(number.body.errors[0]).toMatchObject({
      pointer: "/code",
      reason: "wrong_type",
      expected: "string",
    });
  });
});

describe("inherited confirmation", () => {
  /** The stored `confirmedVia` (the API never shows it), read once the sandbox let go of its data file. */
  function storedVia(dataFile: string, ids: string[]) {
    const db = new DatabaseSync(dataFile);
    try {
      const read = db.prepare("SELECT body FROM docs WHERE collection = 'contact' AND id = ?");
      return ids.map((id) => JSON.parse(String(read.get(id)?.body)).confirmedVia);
    } finally {
      db.close();
    }
  }

  it("a number confirmed by sms confirms voiceCall contacts on it (create or PATCH) via inherit, with no code", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vigil-inherit-"));
    const dataFile = join(dir, "state.db");
    const own = await startTestSandbox({ dataFile });
    const sentTo = async (id: string) => (await own.outbox()).filter((m) => m.contactId === id);
    const make = async (c: Client, body: Record<string, unknown>) => {
      const res = await c.post("/contact", body, key());
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const verify = async (c: Client, id: string) => {
      const [code] = (await sentTo(id)).map((m) => m.code);
      expect((await c.post(`/contact/${id}/confirmation/verify`, { code })).status).toBe(200);
    };
    let ids: string[] = [];
    try {
      const c = await own.account({ plan: "enterprise" });
      const sms = await make(c, { type: "sms", address: "+14155550170" });
      // An unconfirmed number passes nothing on.
      const early = await make(c, { type: "voiceCall", address: "+14155550170" });
      expect(early.confirmed).toBe(false);

      await verify(c, sms.id);
      const other = await make(c, { type: "sms", address: "+14155550171" });
      await verify(c, other.id);
      const born = await make(c, { type: "voiceCall", address: "+14155550171" });
      expect(born).toMatchObject({ confirmed: true, confirmedAt: born.created });
      expect(await sentTo(born.id)).toEqual([]);

      // PATCH onto an already-confirmed number inherits too, and sends no code.
      const third = await make(c, { type: "sms", address: "+14155550172" });
      await verify(c, third.id);
      const moved = await c.patch(`/contact/${early.id}`, { address: "+14155550172" });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body).toMatchObject({ confirmed: true, confirmedAt: moved.body.updated });
      expect(await sentTo(early.id)).toHaveLength(1);
      ids = [sms.id, born.id, early.id];
    } finally {
      await own.close();
    }
    expect(storedVia(dataFile, ids)).toEqual(["code", "inherit", "inherit"]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("POST /contact/{id}/test", () => {
  it("records a sent notification and an outbox message for a confirmed contact", async () => {
    const c = await sb.account();
    const http = await create(c, { type: "http", address: "https://hooks.example.com/test" });
    const res = await c.post(`/contact/${http.id}/test`, { alertType: "up" });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/contact/notification/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^alt_/),
      contactId: http.id,
      kind: "test",
      event: "up",
      channel: "http",
      address: "https://hooks.example.com/test",
      monitorIds: [],
      period: null,
      outcome: "sent",
      reason: null,
      time: expect.any(Number),
    });
    const message = (await sb.outbox()).find((m) => m.notificationId === res.body.id);
    expect(message).toMatchObject({ kind: "test", channel: "http", to: http.address, event: "up" });
    const defaulted = await c.post(`/contact/${http.id}/test`, {});
    expect(defaulted.body.event).toBe("down");
  });

  it("blocks an unconfirmed contact: a notification, no message", async () => {
    const c = await sb.account();
    const contact = await create(c, { type: "email", address: "blocked@example.com" });
    const res = await c.post(`/contact/${contact.id}/test`, { alertType: "down" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ outcome: "blocked", reason: "unconfirmed" });
    expect((await sb.outbox()).some((m) => m.notificationId === res.body.id)).toBe(false);
  });

  it("answers 402 insufficient_balance for sms on a zero balance; business plans spend their balance", async () => {
    const trial = await sb.account({ plan: "trial" });
    const sms = await create(trial, { type: "sms", address: "+14155550123" });
    const [code] = await codes(sms.id);
    await trial.post(`/contact/${sms.id}/confirmation/verify`, { code });
    const res = await trial.post(`/contact/${sms.id}/test`, { alertType: "down" });
    expect(res.status).toBe(402);
    expect(res.body.code).toBe("insufficient_balance");
    expect(res.body.errors[0]).toMatchObject({ channel: "sms", balance: 0, required: 1 });
    expect((await trial.get(`/contact/${sms.id}/notification`)).body.data).toEqual([]);

    const business = await sb.account();
    const paid = await create(business, { type: "voiceCall", address: "+14155550124" });
    const [paidCode] = await codes(paid.id);
    await business.post(`/contact/${paid.id}/confirmation/verify`, { code: paidCode });
    const before = (await business.get("/account")).body.usage.smsBalance.allowed;
    const sent = await business.post(`/contact/${paid.id}/test`, { alertType: "down" });
    expect(sent.status).toBe(201);
    expect(sent.body.outcome).toBe("sent");
    expect((await business.get("/account")).body.usage.smsBalance.allowed).toBe(before - 1);
  });

  it("validates alertType and answers 404 for unknown contacts", async () => {
    const c = await sb.account();
    const http = await create(c, { type: "http", address: "https://hooks.example.com/t2" });
    const res = await c.post(`/contact/${http.id}/test`, { alertType: "sideways" });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({
      pointer: "/alertType",
      reason: "not_allowed",
      allowed: ["down", "up", "repeatedlyDown"],
    });
    const missing = await c.post(`/contact/${randomUUID()}/test`, { alertType: "down" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
  });
});
