import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { create, sb, useSandbox } from "./contacts-setup.ts";

/** Contacts: GET /contact/{id} and the list. */
useSandbox();

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
