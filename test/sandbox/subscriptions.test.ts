import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contact, monitor } from "../helpers/fixtures.ts";
import { Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Alert and report subscriptions nested under monitors and contacts, and the flat lists. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

type Account = Client & { accountId: string };

async function tokenWith(c: Account, scopes: string[]): Promise<Client> {
  const res = await sb.mint({ accountId: c.accountId, scopes });
  expect(res.status, res.text).toBe(201);
  return new Client(c.url, res.body.token);
}

const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((r) => r.id);

describe("PUT /monitor/{id}/alert/{contactId}", () => {
  it("creates the pair with 201 and Location, then replaces its set with 200", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const k = await contact(c, { type: "http", address: "https://hooks.example.com/a" });
    const created = await c.put(`/monitor/${m}/alert/${k}`, { alertTypes: ["down", "up"] });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/monitor/${m}/alert/${k}`);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^als_/),
      monitorId: m,
      contactId: k,
      alertTypes: ["down", "up"],
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    const replaced = await c.put(`/monitor/${m}/alert/${k}`, { alertTypes: ["repeatedlyDown"] });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, alertTypes: ["repeatedlyDown"] });
  });

  it("refuses an empty or unknown set and unknown members", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const k = await contact(c, { type: "http", address: "https://hooks.example.com/b" });
    const empty = await c.put(`/monitor/${m}/alert/${k}`, { alertTypes: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.code).toBe("validation_failed");
    expect(empty.body.errors[0]).toMatchObject({ pointer: "/alertTypes", reason: "too_few", minimum: 1 });
    const unknown = await c.put(`/monitor/${m}/alert/${k}`, { alertTypes: ["sideways"] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({
      pointer: "/alertTypes/0",
      reason: "not_allowed",
      allowed: ["down", "up", "repeatedlyDown"],
    });
    const missing = await c.put(`/monitor/${m}/alert/${k}`, { frequencies: ["daily"] });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toContainEqual(
      expect.objectContaining({ pointer: "/alertTypes", reason: "required" }),
    );
    expect(missing.body.errors).toContainEqual(
      expect.objectContaining({ pointer: "/frequencies", reason: "unknown_member" }),
    );
  });

  it("answers 404 for a missing or foreign monitor or contact", async () => {
    const c = await sb.account();
    const other = await sb.account();
    const m = await monitor(c);
    const k = await contact(c, { type: "http", address: "https://hooks.example.com/c" });
    const foreignMonitor = await monitor(other);
    for (const path of [
      `/monitor/${randomUUID()}/alert/${k}`,
      `/monitor/${m}/alert/${randomUUID()}`,
      `/monitor/${foreignMonitor}/alert/${k}`,
    ]) {
      const res = await c.put(path, { alertTypes: ["down"] });
      expect(res.status, path).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
  });
});

describe("monitor-side reads and deletes", () => {
  it("lists, reads and deletes the pairs of a monitor", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const other = await monitor(c);
    const a = await contact(c, { type: "http", address: "https://hooks.example.com/1" });
    const b = await contact(c, { type: "http", address: "https://hooks.example.com/2" });
    const sa = await c.put(`/monitor/${m}/alert/${a}`, { alertTypes: ["down"] });
    await sb.advance(1);
    const sb2 = await c.put(`/monitor/${m}/alert/${b}`, { alertTypes: ["up"] });
    await c.put(`/monitor/${other}/alert/${a}`, { alertTypes: ["down"] });

    const list = await c.get(`/monitor/${m}/alert?expand=count`);
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([sb2.body.id, sa.body.id]);
    expect(list.body).toMatchObject({ hasMore: false, nextCursor: null, count: { total: 2, matched: 2 } });
    const filtered = await c.get(`/monitor/${m}/alert?alertType=up`);
    expect(ids(filtered)).toEqual([sb2.body.id]);
    const byContact = await c.get(`/monitor/${m}/alert?contact=${a}`);
    expect(ids(byContact)).toEqual([sa.body.id]);

    const one = await c.get(`/monitor/${m}/alert/${a}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(sa.body);

    const del = await c.delete(`/monitor/${m}/alert/${a}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({
      id: sa.body.id,
      deleted: true,
      monitorId: m,
      contactId: a,
      alertTypes: ["down"],
    });
    const gone = await c.get(`/monitor/${m}/alert/${a}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("not_found");
    const again = await c.delete(`/monitor/${m}/alert/${a}`);
    expect(again.status).toBe(404);

    const all = await c.delete(`/monitor/${m}/alert`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ monitorId: m, deleted: true, alertSubscriptions: [sb2.body.id] });
    expect((await c.get(`/monitor/${m}/alert`)).body.data).toEqual([]);
    expect((await c.get(`/monitor/${other}/alert`)).body.data).toHaveLength(1);

    const ghost = randomUUID();
    const missing = await c.get(`/monitor/${ghost}/alert`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
    // The same 404 as the monitor's own routes.
    expect(missing.body.detail).toBe((await c.get(`/monitor/${ghost}`)).body.detail);
    const missingDelete = await c.delete(`/monitor/${randomUUID()}/alert`);
    expect(missingDelete.status).toBe(404);
  });
});

describe("contact-side mirror", () => {
  it("writes, lists, reads and deletes the same pairs from the contact's side", async () => {
    const c = await sb.account();
    const m1 = await monitor(c);
    const m2 = await monitor(c);
    const k = await contact(c, { type: "email", address: "mirror@example.com" });
    const put = await c.put(`/contact/${k}/alert/${m1}`, { alertTypes: ["down", "up"] });
    expect(put.status).toBe(201);
    expect(put.headers.location).toBe(`/monitor/${m1}/alert/${k}`);
    expect((await c.get(`/monitor/${m1}/alert/${k}`)).body).toEqual(put.body);
    await c.put(`/contact/${k}/alert/${m2}`, { alertTypes: ["down"] });

    const list = await c.get(`/contact/${k}/alert?monitor=${m2}`);
    expect(list.body.data).toEqual([expect.objectContaining({ monitorId: m2, alertTypes: ["down"] })]);
    expect((await c.get(`/contact/${k}/alert/${m1}`)).body.alertTypes).toEqual(["down", "up"]);
    const del = await c.delete(`/contact/${k}/alert/${m1}`);
    expect(del.body).toMatchObject({ deleted: true, monitorId: m1, contactId: k });
    const all = await c.delete(`/contact/${k}/alert`);
    expect(all.body).toEqual({
      contactId: k,
      deleted: true,
      alertSubscriptions: [expect.stringMatching(/^als_/)],
    });
    const missing = await c.get(`/contact/${k}/alert/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
  });

  it("uses the contact scopes, and the monitor scopes on the monitor side", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const k = await contact(c, { type: "http", address: "https://hooks.example.com/scoped" });
    const contactOnly = await tokenWith(c, ["contact:write", "contact:read"]);
    const ok = await contactOnly.put(`/contact/${k}/alert/${m}`, { alertTypes: ["down"] });
    expect(ok.status).toBe(201);
    const refused = await contactOnly.put(`/monitor/${m}/alert/${k}`, { alertTypes: ["down"] });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("missing_scope");
    expect(refused.body.errors[0]).toEqual({
      required: "monitor:write",
      granted: ["contact:write", "contact:read"],
    });
    const read = await contactOnly.get(`/monitor/${m}/alert`);
    expect(read.status).toBe(403);
    expect(read.body.errors[0].required).toBe("monitor:read");
  });
});

describe("report subscriptions", () => {
  it("PUTs frequencies for email contacts on both sides and deletes them", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const k = await contact(c, { type: "email", address: "reports@example.com" });
    const put = await c.put(`/monitor/${m}/report/${k}`, { frequencies: ["weekly", "daily"] });
    expect(put.status).toBe(201);
    expect(put.headers.location).toBe(`/monitor/${m}/report/${k}`);
    expect(put.body).toMatchObject({ id: expect.stringMatching(/^rsub_/), frequencies: ["weekly", "daily"] });
    const mirror = await c.put(`/contact/${k}/report/${m}`, { frequencies: ["monthly"] });
    expect(mirror.status).toBe(200);
    expect(mirror.body).toMatchObject({ id: put.body.id, frequencies: ["monthly"] });
    expect((await c.get(`/contact/${k}/report`)).body.data).toHaveLength(1);
    expect((await c.get(`/monitor/${m}/report?frequency=monthly`)).body.data).toHaveLength(1);
    expect((await c.get(`/monitor/${m}/report?frequency=daily`)).body.data).toHaveLength(0);
    const del = await c.delete(`/contact/${k}/report/${m}`);
    expect(del.body).toEqual({
      id: put.body.id,
      deleted: true,
      monitorId: m,
      contactId: k,
      frequencies: ["monthly"],
    });
    expect((await c.delete(`/monitor/${m}/report`)).body).toEqual({
      monitorId: m,
      deleted: true,
      reportSubscriptions: [],
    });
  });

  it("refuses non-email contacts (unsupported_report_channel) and frequencies the plan lacks (package_limit)", async () => {
    const c = await sb.account({ plan: "trial" });
    const m = await monitor(c);
    const http = await contact(c, { type: "http", address: "https://hooks.example.com/r" });
    const email = await contact(c, { type: "email", address: "trial@example.com" });
    const channel = await c.put(`/monitor/${m}/report/${http}`, { frequencies: ["weekly"] });
    expect(channel.status).toBe(422);
    expect(channel.body.code).toBe("unsupported_report_channel");
    expect(channel.body.errors[0]).toMatchObject({ reason: "not_email", value: "http", allowed: ["email"] });
    const plan = await c.put(`/contact/${email}/report/${m}`, { frequencies: ["weekly", "daily"] });
    expect(plan.status).toBe(403);
    expect(plan.body).toMatchObject({ code: "package_limit", feature: "reportFrequencies" });
    expect(plan.body.errors[0]).toMatchObject({
      pointer: "/frequencies",
      value: ["daily"],
      reason: "not_in_plan",
      allowed: ["weekly", "monthly"],
    });
  });
});

describe("flat lists", () => {
  it("list every pair of the account with filters, by monitor, by contact and by flat id", async () => {
    const c = await sb.account();
    const m1 = await monitor(c);
    const m2 = await monitor(c);
    const a = await contact(c, { type: "email", address: "flat-a@example.com" });
    const b = await contact(c, { type: "http", address: "https://hooks.example.com/flat" });
    const s1 = (await c.put(`/monitor/${m1}/alert/${a}`, { alertTypes: ["down"] })).body;
    await sb.advance(1);
    const s2 = (await c.put(`/monitor/${m1}/alert/${b}`, { alertTypes: ["up", "down"] })).body;
    await sb.advance(1);
    const s3 = (await c.put(`/monitor/${m2}/alert/${a}`, { alertTypes: ["repeatedlyDown"] })).body;
    const r1 = (await c.put(`/monitor/${m2}/report/${a}`, { frequencies: ["weekly"] })).body;

    const all = await c.get("/alert?expand=count");
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual([s3.id, s2.id, s1.id]);
    expect(all.body.count).toEqual({ total: 3, matched: 3 });
    expect(ids(await c.get("/alert?sort=created:asc"))).toEqual([s1.id, s2.id, s3.id]);
    expect(ids(await c.get(`/alert?monitor=${m1}&alertType=down`))).toEqual([s2.id, s1.id]);
    expect(ids(await c.get(`/alert?contact=${a}`))).toEqual([s3.id, s1.id]);
    expect((await c.get("/alert?fields=alertTypes&limit=1")).body).toMatchObject({
      data: [{ id: s3.id, alertTypes: ["repeatedlyDown"] }],
      hasMore: true,
    });
    const twin = await c.post("/alert/q", { monitor: [m2] });
    expect(ids(twin)).toEqual([s3.id]);

    const byMonitor = await c.get("/alert/by-monitor");
    expect(byMonitor.status).toBe(200);
    const m1Row = byMonitor.body.data.find((r: { monitorId: string }) => r.monitorId === m1);
    expect(m1Row.count).toBe(2);
    expect(m1Row.subscriptions.map((s: { id: string }) => s.id)).toEqual([s1.id, s2.id]);
    const byContact = await c.get(`/alert/by-contact?contact=${a}`);
    expect(byContact.body.data).toEqual([
      {
        contactId: a,
        count: 2,
        subscriptions: [expect.objectContaining({ id: s1.id }), expect.objectContaining({ id: s3.id })],
      },
    ]);

    expect((await c.get(`/alert/${s2.id}`)).body).toEqual(s2);
    expect((await c.get(`/report/${r1.id}`)).body).toEqual(r1);
    expect(ids(await c.get("/report?frequency=weekly"))).toEqual([r1.id]);
    expect((await c.get("/report/by-monitor")).body.data).toEqual([
      { monitorId: m2, count: 1, subscriptions: [r1] },
    ]);
    const notAlert = await c.get(`/alert/${r1.id}`);
    expect(notAlert.status).toBe(404);
    expect(notAlert.body.code).toBe("not_found");
  });

  it("need subs:read, which monitor and contact scopes do not give", async () => {
    const c = await sb.account();
    const narrow = await tokenWith(c, ["monitor", "contact"]);
    const res = await narrow.get("/alert");
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("missing_scope");
    expect(res.body.errors[0]).toEqual({ required: "subs:read", granted: ["monitor", "contact"] });
    const subs = await tokenWith(c, ["subs:read"]);
    expect((await subs.get("/report/by-contact")).status).toBe(200);
  });

  it("refuse unknown filters and values", async () => {
    const c = await sb.account();
    const res = await c.get("/alert?frequency=daily");
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("unknown_parameter");
    expect(res.body.errors[0]).toMatchObject({ pointer: "/frequency", parameter: "frequency" });
    const value = await c.get("/report?frequency=hourly");
    expect(value.status).toBe(422);
    expect(value.body.code).toBe("unknown_enum_value");
    expect(value.body.errors[0].allowed).toEqual(["daily", "weekly", "monthly", "quarterly", "yearly"]);
  });
});
