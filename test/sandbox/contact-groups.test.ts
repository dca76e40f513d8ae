import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contact, monitor } from "../helpers/fixtures.ts";
import { Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Contact groups: presets that write ordinary subscriptions when applied. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("POST /contact/group", () => {
  it("creates a group with 201, Location and its members", async () => {
    const c = await sb.account();
    const a = await contact(c, { type: "email", address: "a@example.com" });
    const res = await c.post("/contact/group", {
      name: "On call",
      members: [{ contactId: a, events: ["down", "up", "down", "weekly"] }],
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/contact/group/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: "On call",
      members: [{ contactId: a, events: ["down", "up", "weekly"] }],
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    const empty = await c.post("/contact/group", { name: "Empty" });
    expect(empty.body.members).toEqual([]);
  });

  it("refuses a name already used (any case) with duplicate_resource and existingId", async () => {
    const c = await sb.account();
    const first = await c.post("/contact/group", { name: "Ops" });
    const res = await c.post("/contact/group", { name: "ops" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "duplicate_resource", existingId: first.body.id });
    expect(res.body.errors[0]).toMatchObject({ pointer: "/name", value: "ops", existingId: first.body.id });
  });

  it("refuses unknown, foreign and repeated contacts, and bad events, with pointers", async () => {
    const c = await sb.account();
    const other = await sb.account();
    const a = await contact(c, { type: "email", address: "a@example.com" });
    const foreign = await contact(other, { type: "email", address: "f@example.com" });
    const res = await c.post("/contact/group", {
      name: "Bad",
      members: [
        { contactId: a, events: ["down"] },
        { contactId: foreign, events: ["down"] },
        { contactId: a, events: ["up"] },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors).toEqual([
      expect.objectContaining({ pointer: "/members/1/contactId", value: foreign, reason: "unknown_contact" }),
      expect.objectContaining({ pointer: "/members/2/contactId", value: a, reason: "duplicate" }),
    ]);
    const events = await c.post("/contact/group", { name: "Bad", members: [{ contactId: a, events: [] }] });
    expect(events.status).toBe(422);
    expect(events.body.errors[0]).toMatchObject({ pointer: "/members/0/events", reason: "too_few" });
    const unknown = await c.post("/contact/group", {
      name: "Bad",
      members: [{ contactId: a, events: ["hourly"] }],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ pointer: "/members/0/events/0", reason: "not_allowed" });
    expect(unknown.body.errors[0].allowed).toEqual([
      "down",
      "up",
      "repeatedlyDown",
      "daily",
      "weekly",
      "monthly",
      "quarterly",
      "yearly",
    ]);
    const nameless = await c.post("/contact/group", { members: [] });
    expect(nameless.status).toBe(422);
    expect(nameless.body.errors[0]).toMatchObject({ pointer: "/name", reason: "required" });
  });

  it("refuses report events for non-email members and frequencies the plan lacks", async () => {
    const c = await sb.account({ plan: "trial" });
    const http = await contact(c, { type: "http", address: "https://hooks.example.com/g" });
    const email = await contact(c, { type: "email", address: "g@example.com" });
    const channel = await c.post("/contact/group", {
      name: "R",
      members: [{ contactId: http, events: ["weekly"] }],
    });
    expect(channel.status).toBe(422);
    expect(channel.body.code).toBe("unsupported_report_channel");
    expect(channel.body.errors[0]).toMatchObject({ pointer: "/members/0/events", reason: "not_email" });
    const plan = await c.post("/contact/group", {
      name: "R",
      members: [{ contactId: email, events: ["daily"] }],
    });
    expect(plan.status).toBe(403);
    expect(plan.body).toMatchObject({ code: "package_limit", feature: "reportFrequencies" });
    expect(plan.body.errors[0]).toMatchObject({ pointer: "/members/0/events", value: ["daily"] });
  });
});

describe("GET, PATCH, DELETE /contact/group", () => {
  it("lists by name (default) or newest first, reads, renames and replaces members", async () => {
    const c = await sb.account();
    const a = await contact(c, { type: "email", address: "a@example.com" });
    const b = await contact(c, { type: "http", address: "https://hooks.example.com/b" });
    const zeta = (await c.post("/contact/group", { name: "zeta" })).body;
    await sb.advance(1);
    const alpha = (
      await c.post("/contact/group", { name: "Alpha", members: [{ contactId: a, events: ["down"] }] })
    ).body;
    const list = await c.get("/contact/group");
    expect(list.status).toBe(200);
    expect(list.body.data.map((g: { name: string }) => g.name)).toEqual(["Alpha", "zeta"]);
    expect(list.body).toMatchObject({ hasMore: false, nextCursor: null });
    const byCreated = await c.get("/contact/group?sort=created&fields=name");
    expect(byCreated.body.data).toEqual([
      { id: alpha.id, name: "Alpha" },
      { id: zeta.id, name: "zeta" },
    ]);
    const unknown = await c.get("/contact/group?expand=count");
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe("unknown_parameter");

    expect((await c.get(`/contact/group/${alpha.id}`)).body).toEqual(alpha);

    await sb.advance(1);
    const patched = await c.patch(`/contact/group/${alpha.id}`, {
      members: [{ contactId: b, events: ["up"] }],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "Alpha", members: [{ contactId: b, events: ["up"] }] });
    expect(patched.body.updated).toBeGreaterThan(alpha.updated);
    const renamed = await c.patch(`/contact/group/${alpha.id}`, { name: "Beta" });
    expect(renamed.body).toMatchObject({ name: "Beta", members: [{ contactId: b, events: ["up"] }] });
    const clash = await c.patch(`/contact/group/${alpha.id}`, { name: "ZETA" });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: "duplicate_resource", existingId: zeta.id });
    const self = await c.patch(`/contact/group/${alpha.id}`, { name: "beta" });
    expect(self.status).toBe(200);
    const badMember = await c.patch(`/contact/group/${alpha.id}`, {
      members: [{ contactId: randomUUID(), events: ["up"] }],
    });
    expect(badMember.status).toBe(422);
    expect(badMember.body.errors[0]).toMatchObject({
      pointer: "/members/0/contactId",
      reason: "unknown_contact",
    });
  });

  it("deletes a group and keeps its contacts", async () => {
    const c = await sb.account();
    const a = await contact(c, { type: "email", address: "kept@example.com" });
    const group = (
      await c.post("/contact/group", { name: "G", members: [{ contactId: a, events: ["down"] }] })
    ).body;
    const res = await c.delete(`/contact/group/${group.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: group.id, deleted: true, name: "G", members: 1, cascaded: {} });
    expect((await c.get(`/contact/${a}`)).status).toBe(200);
    for (const call of [
      () => c.get(`/contact/group/${group.id}`),
      () => c.patch(`/contact/group/${group.id}`, { name: "x" }),
      () => c.delete(`/contact/group/${group.id}`),
    ]) {
      const gone = await call();
      expect(gone.status).toBe(404);
      expect(gone.body.code).toBe("not_found");
    }
  });
});

describe("PUT /contact/{id}/group", () => {
  it("sets a contact's memberships: keeps events, defaults new ones to down and up, leaves unlisted groups", async () => {
    const c = await sb.account();
    const a = await contact(c, { type: "email", address: "member@example.com" });
    const b = await contact(c, { type: "email", address: "other@example.com" });
    const g1 = (
      await c.post("/contact/group", {
        name: "G1",
        members: [
          { contactId: a, events: ["repeatedlyDown"] },
          { contactId: b, events: ["down"] },
        ],
      })
    ).body;
    const g2 = (await c.post("/contact/group", { name: "G2" })).body;
    const g3 = (await c.post("/contact/group", { name: "G3", members: [{ contactId: a, events: ["up"] }] }))
      .body;

    const res = await c.put(`/contact/${a}/group`, {
      groups: [{ id: g1.id }, { id: g2.id }, { id: g3.id, events: ["weekly"] }],
    });
    expect(res.status).toBe(200);
    expect(res.body.contactId).toBe(a);
    expect(res.body.groups).toEqual(
      expect.arrayContaining([
        { id: g1.id, name: "G1", events: ["repeatedlyDown"] },
        { id: g2.id, name: "G2", events: ["down", "up"] },
        { id: g3.id, name: "G3", events: ["weekly"] },
      ]),
    );

    const out = await c.put(`/contact/${a}/group`, { groups: [{ id: g2.id }] });
    expect(out.body.groups).toEqual([{ id: g2.id, name: "G2", events: ["down", "up"] }]);
    expect((await c.get(`/contact/group/${g1.id}`)).body.members).toEqual([
      { contactId: b, events: ["down"] },
    ]);
    expect((await c.get(`/contact/group/${g3.id}`)).body.members).toEqual([]);
    expect((await c.get(`/contact/${a}?expand=group`)).body.groups).toEqual([
      { id: g2.id, name: "G2", events: ["down", "up"] },
    ]);
    const none = await c.put(`/contact/${a}/group`, { groups: [] });
    expect(none.body.groups).toEqual([]);
  });

  it("documents the default events of a new membership, which the kind declares", async () => {
    const doc = (await sb.client.get("/openapi/v2.json", { token: null })).body;
    const body = doc.paths["/contact/{id}/group"].put.requestBody.content["application/json"].schema;
    expect(body.properties.groups.items.properties.events.default).toEqual(["down", "up"]);
  });

  it("refuses unknown and repeated groups, report events of non-email contacts, and unknown contacts", async () => {
    const c = await sb.account();
    const http = await contact(c, { type: "http", address: "https://hooks.example.com/m" });
    const g = (await c.post("/contact/group", { name: "G" })).body;
    const ghost = randomUUID();
    const res = await c.put(`/contact/${http}/group`, {
      groups: [{ id: g.id }, { id: ghost }, { id: g.id }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ pointer: "/groups/1/id", value: ghost, reason: "unknown_group" }),
      expect.objectContaining({ pointer: "/groups/2/id", value: g.id, reason: "duplicate" }),
    ]);
    const report = await c.put(`/contact/${http}/group`, { groups: [{ id: g.id, events: ["monthly"] }] });
    expect(report.status).toBe(422);
    expect(report.body.code).toBe("unsupported_report_channel");
    expect(report.body.errors[0]).toMatchObject({ pointer: "/groups/0/events", reason: "not_email" });
    const shape = await c.put(`/contact/${http}/group`, { groups: [{ groupId: g.id }] });
    expect(shape.status).toBe(422);
    expect(shape.body.errors).toContainEqual(
      expect.objectContaining({ pointer: "/groups/0/id", reason: "required" }),
    );
    const missing = await c.put(`/contact/${randomUUID()}/group`, { groups: [] });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
  });
});

describe("POST /contact/group/{id}/apply", () => {
  it("writes alert and report subscriptions per member and monitor, merged with existing sets, with no live link", async () => {
    const c = await sb.account();
    const [m1, m2] = [await monitor(c), await monitor(c)];
    const email = await contact(c, { type: "email", address: "apply@example.com" });
    const http = await contact(c, { type: "http", address: "https://hooks.example.com/apply" });
    const existing = (await c.put(`/monitor/${m1}/alert/${email}`, { alertTypes: ["repeatedlyDown"] })).body;
    await c.put(`/monitor/${m1}/report/${email}`, { frequencies: ["monthly"] });
    const group = (
      await c.post("/contact/group", {
        name: "Apply",
        members: [
          { contactId: email, events: ["down", "weekly"] },
          { contactId: http, events: ["up"] },
        ],
      })
    ).body;

    const res = await c.post(`/contact/group/${group.id}/apply`, { monitorIds: [m1, m2, m1] });
    expect(res.status).toBe(200);
    expect(res.body.groupId).toBe(group.id);
    expect(res.body.monitorIds).toEqual([m1, m2]);
    expect(res.body.alertSubscriptions).toHaveLength(4);
    expect(res.body.reportSubscriptions).toHaveLength(2);
    const merged = res.body.alertSubscriptions.find(
      (s: { monitorId: string; contactId: string }) => s.monitorId === m1 && s.contactId === email,
    );
    expect(merged).toMatchObject({ id: existing.id, alertTypes: ["repeatedlyDown", "down"] });
    expect((await c.get(`/monitor/${m1}/report/${email}`)).body.frequencies).toEqual(["monthly", "weekly"]);
    expect((await c.get(`/monitor/${m2}/alert/${http}`)).body.alertTypes).toEqual(["up"]);

    // No live link: changing or deleting the group leaves the written subscriptions alone.
    await c.patch(`/contact/group/${group.id}`, { members: [] });
    await c.delete(`/contact/group/${group.id}`);
    expect((await c.get("/alert")).body.data).toHaveLength(4);
    expect((await c.get("/report")).body.data).toHaveLength(2);
  });

  it("refuses unknown monitors at their index, validates the body, and 404s unknown groups", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const group = (await c.post("/contact/group", { name: "G" })).body;
    const ghost = randomUUID();
    const res = await c.post(`/contact/group/${group.id}/apply`, { monitorIds: [m, ghost] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ pointer: "/monitorIds/1", value: ghost, reason: "unknown_monitor" }),
    ]);
    const empty = await c.post(`/contact/group/${group.id}/apply`, { monitorIds: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]).toMatchObject({ pointer: "/monitorIds", reason: "too_few" });
    const missing = await c.post(`/contact/group/${randomUUID()}/apply`, { monitorIds: [m] });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
  });

  it("writes monitor subscriptions, so it needs monitor:write as well as contact:write", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const email = await contact(c, { type: "email", address: "scopes@example.com" });
    const group = (
      await c.post("/contact/group", { name: "S", members: [{ contactId: email, events: ["down"] }] })
    ).body;
    const narrow = await sb.mint({ accountId: c.accountId, scopes: ["contact"] });
    const res = await new Client(c.url, narrow.body.token).post(`/contact/group/${group.id}/apply`, {
      monitorIds: [m],
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("missing_scope");
    expect(res.body.errors[0]).toEqual({ required: "monitor:write", granted: ["contact"] });
    expect((await c.get("/alert")).body.data).toEqual([]);
    const both = await sb.mint({ accountId: c.accountId, scopes: ["contact:write", "monitor:write"] });
    const ok = await new Client(c.url, both.body.token).post(`/contact/group/${group.id}/apply`, {
      monitorIds: [m],
    });
    expect(ok.status).toBe(200);
  });

  it("PUT /contact/{id}/group writes no subscriptions, so contact:write alone suffices", async () => {
    const c = await sb.account();
    const email = await contact(c, { type: "email", address: "member@example.com" });
    const group = (await c.post("/contact/group", { name: "M" })).body;
    const narrow = await sb.mint({ accountId: c.accountId, scopes: ["contact:write"] });
    const res = await new Client(c.url, narrow.body.token).put(`/contact/${email}/group`, {
      groups: [{ id: group.id }],
    });
    expect(res.status, res.text).toBe(200);
  });
});
