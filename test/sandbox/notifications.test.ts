import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contact, monitor } from "../helpers/fixtures.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** The notification log, its per-day summary, and report resends. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const day = 86400;

async function confirmedEmail(c: Client, address: string): Promise<string> {
  const id = await contact(c, { type: "email", address });
  const { code } = (await sb.outbox()).find((m) => m.contactId === id && m.kind === "confirmation");
  expect((await c.post(`/contact/${id}/confirmation/verify`, { code })).status).toBe(200);
  return id;
}

async function testSend(c: Client, id: string, alertType = "down") {
  const res = await c.post(`/contact/${id}/test`, { alertType });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("GET /contact/notification and /contact/{id}/notification", () => {
  it("lists newest first with filters, counts, paging, the /q twin, and a per-contact list", async () => {
    const c = await sb.account();
    const http = await contact(c, { type: "http", address: "https://hooks.example.com/n" });
    const email = await contact(c, { type: "email", address: "n@example.com" });
    const n1 = await testSend(c, http, "down");
    await sb.advance(1);
    const n2 = await testSend(c, email, "up");
    await sb.advance(1);
    const n3 = await testSend(c, http, "up");

    const all = await c.get("/contact/notification?expand=count");
    expect(all.status).toBe(200);
    expect(all.body.data.map((n: { id: string }) => n.id)).toEqual([n3.id, n2.id, n1.id]);
    expect(all.body.count).toEqual({ total: 3, matched: 3 });
    const blocked = await c.get("/contact/notification?outcome=blocked");
    expect(blocked.body.data).toEqual([n2]);
    const byContact = await c.get(`/contact/notification?contact=${http}&sort=time:asc`);
    expect(byContact.body.data.map((n: { id: string }) => n.id)).toEqual([n1.id, n3.id]);
    const tests = await c.get("/contact/notification?kind=test,report&limit=2");
    expect(tests.body).toMatchObject({ hasMore: true });
    const next = await c.get(
      `/contact/notification?kind=test,report&limit=2&cursor=${tests.body.nextCursor}`,
    );
    expect(next.body.data.map((n: { id: string }) => n.id)).toEqual([n1.id]);
    const twin = await c.post("/contact/notification/q", { outcome: ["sent"] });
    expect(twin.body.data.map((n: { id: string }) => n.id)).toEqual([n3.id, n1.id]);

    const mine = await c.get(`/contact/${http}/notification`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.map((n: { id: string }) => n.id)).toEqual([n3.id, n1.id]);
    const mineTwin = await c.post(`/contact/${email}/notification/q`, {});
    expect(mineTwin.body.data).toEqual([n2]);
    const missing = await c.get(`/contact/${randomUUID()}/notification`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
    const foreignFilter = await c.get(`/contact/${http}/notification?contact=${email}`);
    expect(foreignFilter.status).toBe(422);
    expect(foreignFilter.body.code).toBe("unknown_parameter");
  });

  it("keeps to the window: 30 days by default, at most 90", async () => {
    const c = await sb.account();
    const http = await contact(c, { type: "http", address: "https://hooks.example.com/w" });
    const old = await testSend(c, http);
    const now = await sb.advance(40 * day);
    expect((await c.get("/contact/notification")).body.data).toEqual([]);
    const wide = await c.get(`/contact/notification?from=${now - 50 * day}`);
    expect(wide.body.data.map((n: { id: string }) => n.id)).toEqual([old.id]);
    const tooWide = await c.get(`/contact/notification?from=${now - 91 * day}`);
    expect(tooWide.status).toBe(422);
    expect(tooWide.body).toMatchObject({ code: "invalid_range", maxSpan: 90 * day });
    expect(tooWide.body.errors[0]).toMatchObject({ pointer: "/from", reason: "too_wide" });
    const reversed = await c.get(`/contact/notification?from=${now}&to=${now - day}`);
    expect(reversed.status).toBe(422);
    expect(reversed.body.code).toBe("invalid_range");
  });

  it("reads one notification; missing and foreign ids are 404", async () => {
    const c = await sb.account();
    const other = await sb.account();
    const http = await contact(c, { type: "http", address: "https://hooks.example.com/one" });
    const n = await testSend(c, http);
    const res = await c.get(`/contact/notification/${n.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(n);
    for (const [client, id] of [
      [other, n.id],
      [c, "alt_missing"],
    ] as const) {
      const gone = await client.get(`/contact/notification/${id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe("not_found");
    }
  });
});

describe("GET /contact/notification/summary", () => {
  it("counts per contact and UTC day within the window", async () => {
    const c = await sb.account();
    const a = await contact(c, { type: "http", address: "https://hooks.example.com/sa" });
    const b = await contact(c, { type: "email", address: "sb@example.com" });
    await testSend(c, a);
    await testSend(c, a, "up");
    await testSend(c, b);
    await sb.advance(day);
    await testSend(c, a);

    const res = await c.get("/contact/notification/summary");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hasMore: false, nextCursor: null });
    const rows = res.body.data as Array<{ contactId: string; day: number; count: number }>;
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.day % day).toBe(0);
    const ofA = rows.filter((r) => r.contactId === a);
    expect(ofA.map((r) => r.count)).toEqual([2, 1]);
    expect(ofA[1]!.day - ofA[0]!.day).toBe(day);
    expect(rows.find((r) => r.contactId === b)).toMatchObject({
      count: 1,
      outcomes: { sent: 0, blocked: 1, sendFailed: 0 },
      kinds: { alert: 0, reminder: 0, test: 1, report: 0 },
    });

    const onlyB = await c.get(`/contact/notification/summary?contact=${b}`);
    expect(onlyB.body.data.map((r: { contactId: string }) => r.contactId)).toEqual([b]);
    const page = await c.get("/contact/notification/summary?limit=2");
    const rest = await c.get(`/contact/notification/summary?limit=2&cursor=${page.body.nextCursor}`);
    expect([...page.body.data, ...rest.body.data]).toEqual(rows);
    const twin = await c.post("/contact/notification/summary/q", { contact: [a] });
    expect(twin.body.data).toEqual(ofA);

    const now = await sb.advance(0);
    const lastDay = await c.get(`/contact/notification/summary?from=${now - 3600}`);
    expect(lastDay.body.data).toEqual([expect.objectContaining({ contactId: a, count: 1 })]);
    const tooWide = await c.get(`/contact/notification/summary?from=${now - 100 * day}`);
    expect(tooWide.status).toBe(422);
    expect(tooWide.body).toMatchObject({ code: "invalid_range", maxSpan: 90 * day });
    const sort = await c.get("/contact/notification/summary?sort=time");
    expect(sort.status).toBe(422);
    expect(sort.body.code).toBe("unknown_parameter");
  });
});

describe("POST /contact/notification/resend", () => {
  it("re-sends the report of the period before `at` to each subscribed email contact", async () => {
    const c = await sb.account();
    const [m1, m2] = [await monitor(c), await monitor(c)];
    const confirmed = await confirmedEmail(c, "weekly@example.com");
    const unconfirmed = await contact(c, { type: "email", address: "pending@example.com" });
    const monthly = await confirmedEmail(c, "monthly@example.com");
    await c.put(`/monitor/${m1}/report/${confirmed}`, { frequencies: ["weekly"] });
    await c.put(`/monitor/${m2}/report/${confirmed}`, { frequencies: ["weekly", "daily"] });
    await c.put(`/monitor/${m1}/report/${unconfirmed}`, { frequencies: ["weekly"] });
    await c.put(`/monitor/${m1}/report/${monthly}`, { frequencies: ["monthly"] });

    // Wednesday 2025-01-15 12:00 UTC: the week before is Monday 6 to Monday 13 January.
    const at = Date.UTC(2025, 0, 15, 12) / 1000;
    const res = await c.post("/contact/notification/resend", { frequency: "weekly", at });
    expect(res.status, res.text).toBe(200);
    const period = { from: Date.UTC(2025, 0, 6) / 1000, to: Date.UTC(2025, 0, 13) / 1000 };
    expect(res.body.frequency).toBe("weekly");
    expect(res.body.period).toEqual(period);
    const byContact = new Map(res.body.notifications.map((n: { contactId: string }) => [n.contactId, n]));
    expect(byContact.size).toBe(2);
    expect(byContact.get(confirmed)).toMatchObject({
      id: expect.stringMatching(/^alt_/),
      kind: "report",
      event: "weekly",
      channel: "email",
      outcome: "sent",
      period,
      monitorIds: [m1, m2].sort(),
    });
    expect(byContact.get(unconfirmed)).toMatchObject({ outcome: "blocked", reason: "unconfirmed" });
    const mail = (await sb.outbox()).filter((m) => m.kind === "report" && m.contactId === confirmed);
    expect(mail).toEqual([expect.objectContaining({ to: "weekly@example.com", event: "weekly", period })]);
    expect((await sb.outbox()).some((m) => m.kind === "report" && m.contactId === unconfirmed)).toBe(false);

    // The resend is logged when it happens, not at the period it covers.
    const reports = await c.get("/contact/notification?kind=report");
    expect(reports.body.data).toHaveLength(2);
  });

  it("finds the right period for every frequency", async () => {
    const c = await sb.account({ plan: "enterprise" });
    const at = Date.UTC(2025, 4, 20, 8) / 1000; // Tuesday 2025-05-20
    const expected: Record<string, [number, number]> = {
      daily: [Date.UTC(2025, 4, 19), Date.UTC(2025, 4, 20)],
      weekly: [Date.UTC(2025, 4, 12), Date.UTC(2025, 4, 19)],
      monthly: [Date.UTC(2025, 3, 1), Date.UTC(2025, 4, 1)],
      quarterly: [Date.UTC(2025, 0, 1), Date.UTC(2025, 3, 1)],
      yearly: [Date.UTC(2024, 0, 1), Date.UTC(2025, 0, 1)],
    };
    for (const [frequency, [from, to]] of Object.entries(expected)) {
      const res = await c.post("/contact/notification/resend", { frequency, at });
      expect(res.status, frequency).toBe(200);
      expect(res.body.period, frequency).toEqual({ from: from / 1000, to: to / 1000 });
      expect(res.body.notifications).toEqual([]);
    }
    const january = await c.post("/contact/notification/resend", {
      frequency: "quarterly",
      at: Date.UTC(2025, 1, 1) / 1000,
    });
    expect(january.body.period).toEqual({
      from: Date.UTC(2024, 9, 1) / 1000,
      to: Date.UTC(2025, 0, 1) / 1000,
    });
  });

  it("refuses `at` in the future, unknown frequencies, and frequencies the plan lacks", async () => {
    const c = await sb.account({ plan: "trial" });
    const now = await sb.advance(0);
    const future = await c.post("/contact/notification/resend", { frequency: "weekly", at: now + 3600 });
    expect(future.status).toBe(422);
    expect(future.body.code).toBe("validation_failed");
    expect(future.body.errors[0]).toMatchObject({ pointer: "/at", value: now + 3600, reason: "in_future" });
    const unknown = await c.post("/contact/notification/resend", { frequency: "hourly", at: now });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ pointer: "/frequency", reason: "not_allowed" });
    const missing = await c.post("/contact/notification/resend", { frequency: "weekly" });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]).toMatchObject({ pointer: "/at", reason: "required" });
    const plan = await c.post("/contact/notification/resend", { frequency: "daily", at: now });
    expect(plan.status).toBe(403);
    expect(plan.body).toMatchObject({ code: "package_limit", feature: "reportFrequencies" });
    expect(plan.body.errors[0]).toMatchObject({
      pointer: "/frequency",
      value: "daily",
      reason: "not_in_plan",
      allowed: ["weekly", "monthly"],
    });
  });
});
