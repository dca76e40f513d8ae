import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** Status pages: create, read, change, delete with cascade, plan limit, isolation and scopes. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const slug = () => `p-${randomUUID().slice(0, 8)}`;
const key = () => ({ headers: { "idempotency-key": randomUUID() } });

describe("POST /statuspage", () => {
  it("creates a page with 201, Location, defaults and its public URL", async () => {
    const c = await sb.account();
    const s = slug();
    const res = await c.post("/statuspage", { slug: s, title: "Acme status" });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/statuspage/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(String),
      slug: s,
      title: "Acme status",
      description: null,
      customDomain: null,
      theme: "auto",
      publicUrl: `${sb.url}/status/${s}`,
      components: [],
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    expect((await c.get(`/statuspage/${res.body.id}`)).body).toEqual(res.body);
    const full = await c.post("/statuspage", {
      slug: slug(),
      title: "Full",
      description: "All systems",
      customDomain: `status.${randomUUID().slice(0, 8)}.example.com`,
      theme: "dark",
    });
    expect(full.status).toBe(201);
    expect(full.body).toMatchObject({ description: "All systems", theme: "dark" });
  });

  it("refuses bad members with pointers, and components on the page body", async () => {
    const c = await sb.account();
    const res = await c.post("/statuspage", {
      slug: "Bad Slug",
      theme: "neon",
      customDomain: "not a host",
      components: [],
    });
    expect(res.status).toBe(422);
    const byPointer = Object.fromEntries(res.body.errors.map((e: { pointer: string }) => [e.pointer, e]));
    expect(Object.keys(byPointer).sort()).toEqual([
      "/components",
      "/customDomain",
      "/slug",
      "/theme",
      "/title",
    ]);
    expect(byPointer["/components"].reason).toBe("unknown_member");
    expect(byPointer["/title"].reason).toBe("required");
    expect(byPointer["/theme"].allowed).toEqual(["light", "dark", "auto"]);
    expect((await c.get("/statuspage")).body.data).toEqual([]);
  });

  it("answers 409 duplicate_resource for a slug already used, in this account or another", async () => {
    const c = await sb.account();
    const other = await sb.account();
    const s = slug();
    const first = await c.post("/statuspage", { slug: s, title: "One" });
    const again = await c.post("/statuspage", { slug: s, title: "Two" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "duplicate_resource", existingId: first.body.id });
    expect(again.body.errors[0]).toMatchObject({ pointer: "/slug", value: s, reason: "duplicate" });
    const foreign = await other.post("/statuspage", { slug: s, title: "Theirs" });
    expect(foreign.status).toBe(409);
    // Another account's page is never named.
    expect(foreign.body.existingId).toBeUndefined();
    expect(foreign.text).not.toContain(first.body.id);
  });

  it("is limited by the plan's statusPages entitlement", async () => {
    const c = await sb.account({ featureOverrides: { statusPages: 2 } });
    expect((await c.post("/statuspage", { slug: slug(), title: "1" })).status).toBe(201);
    expect((await c.post("/statuspage", { slug: slug(), title: "2" })).status).toBe(201);
    const third = await c.post("/statuspage", { slug: slug(), title: "3" });
    expect(third.status).toBe(403);
    expect(third.body).toMatchObject({ code: "package_limit", feature: "statusPages", limit: 2 });
    expect((await c.get("/account")).body.usage.statusPages).toEqual({ used: 2, allowed: 2 });
    const trial = await sb.account({ plan: "trial" });
    expect((await trial.post("/statuspage", { slug: slug(), title: "1" })).status).toBe(201);
    expect((await trial.post("/statuspage", { slug: slug(), title: "2" })).body.feature).toBe("statusPages");
  });
});

describe("PATCH /statuspage/{id}", () => {
  it("changes sent members, null clears; the same slug is accepted, a new one refused as immutable", async () => {
    const c = await sb.account();
    const s = slug();
    const page = (await c.post("/statuspage", { slug: s, title: "Old", description: "d" })).body;
    await sb.advance(2);
    const res = await c.patch(`/statuspage/${page.id}`, { slug: s, title: "New", description: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: s, title: "New", description: null });
    expect(res.body.updated).toBeGreaterThan(page.updated);
    const moved = await c.patch(`/statuspage/${page.id}`, { slug: "another-slug", title: "X" });
    expect(moved.status).toBe(422);
    expect(moved.body.code).toBe("validation_failed");
    expect(moved.body.errors).toEqual([
      expect.objectContaining({ pointer: "/slug", value: "another-slug", reason: "immutable", allowed: [s] }),
    ]);
    expect((await c.get(`/statuspage/${page.id}`)).body.title).toBe("New");
  });
});

describe("GET /statuspage and POST /statuspage/q", () => {
  it("sorts by created (default, newest first), title and slug", async () => {
    const c = await sb.account();
    const b = (await c.post("/statuspage", { slug: `b-${slug()}`, title: "Beta" })).body;
    await sb.advance(1);
    const a = (await c.post("/statuspage", { slug: `c-${slug()}`, title: "alpha" })).body;
    await sb.advance(1);
    const g = (await c.post("/statuspage", { slug: `a-${slug()}`, title: "Gamma" })).body;
    const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((p) => p.id);
    expect(ids(await c.get("/statuspage"))).toEqual([g.id, a.id, b.id]);
    expect(ids(await c.get("/statuspage?sort=title"))).toEqual([a.id, b.id, g.id]);
    expect(ids(await c.get("/statuspage?sort=slug:desc"))).toEqual([a.id, b.id, g.id]);
    expect(ids(await c.post("/statuspage/q", { sort: "created:asc", limit: 2 }))).toEqual([b.id, a.id]);
    expect((await c.get("/statuspage?sort=updated")).body.code).toBe("unknown_enum_value");
    expect((await c.get("/statuspage?updatedSince=x")).body.code).toBe("unknown_parameter");
  });
});

describe("DELETE /statuspage/{id}", () => {
  it("answers a receipt whose cascaded names every component, incident, subscriber and template", async () => {
    const c = await sb.account();
    const page = (await c.post("/statuspage", { slug: slug(), title: "T" })).body;
    const components = (
      await c.put(`/statuspage/${page.id}/component`, {
        components: [
          { name: "API", manualState: "operational" },
          { name: "Web", manualState: "degraded" },
        ],
      })
    ).body.components;
    const incident = (
      await c.post(`/statuspage/${page.id}/incident`, { title: "Slow", message: "Looking" }, key())
    ).body;
    const subscriber = (
      await c.post(`/statuspage/${page.id}/subscriber`, { kind: "slack", url: "https://hooks.slack.com/x" })
    ).body;
    const template = (await c.post(`/statuspage/${page.id}/template`, { title: "t", message: "m" })).body;
    const res = await c.delete(`/statuspage/${page.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: page.id,
      deleted: true,
      slug: page.slug,
      title: "T",
      cascaded: {
        components: components.map((x: { id: string }) => x.id),
        incidents: [incident.id],
        subscribers: [subscriber.id],
        templates: [template.id],
      },
    });
    expect((await c.get(`/statuspage/${page.id}`)).status).toBe(404);
    expect((await c.get(`/statuspage/${page.id}/incident/${incident.id}`)).status).toBe(404);
    // The slug is free again.
    expect((await c.post("/statuspage", { slug: page.slug, title: "Again" })).status).toBe(201);
  });
});

describe("isolation and scopes", () => {
  it("another account's page and its children read as 404", async () => {
    const c = await sb.account();
    const other = await sb.account();
    const page = (await c.post("/statuspage", { slug: slug(), title: "Mine" })).body;
    const incident = (await c.post(`/statuspage/${page.id}/incident`, { title: "x", message: "y" }, key()))
      .body;
    const template = (await c.post(`/statuspage/${page.id}/template`, { title: "t", message: "m" })).body;
    const p = `/statuspage/${page.id}`;
    for (const res of [
      await other.get(p),
      await other.patch(p, { title: "Stolen" }),
      await other.delete(p),
      await other.put(`${p}/component`, { components: [] }),
      await other.get(`${p}/incident`),
      await other.post(`${p}/incident`, { title: "x", message: "y" }, key()),
      await other.get(`${p}/incident/${incident.id}`),
      await other.patch(`${p}/incident/${incident.id}`, { title: "z" }),
      await other.delete(`${p}/incident/${incident.id}`),
      await other.post(`${p}/incident/${incident.id}/timeline`, { message: "m", state: "resolved" }, key()),
      await other.get(`${p}/template`),
      await other.delete(`${p}/template/${template.id}`),
      await other.get(`${p}/subscriber`),
      await other.post(`${p}/subscriber`, { kind: "webhook", url: "https://example.com/h" }),
    ]) {
      expect(res.status, res.text).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
    expect((await other.get("/statuspage")).body.data).toEqual([]);
    expect((await c.get(p)).body.title).toBe("Mine");
    expect((await c.get(`${p}/incident/${incident.id}`)).body.timeline).toHaveLength(1);
  });

  it("a child of one page is not found under another page of the same account", async () => {
    const c = await sb.account();
    const a = (await c.post("/statuspage", { slug: slug(), title: "A" })).body;
    const b = (await c.post("/statuspage", { slug: slug(), title: "B" })).body;
    const incident = (await c.post(`/statuspage/${a.id}/incident`, { title: "x", message: "y" }, key())).body;
    expect((await c.get(`/statuspage/${b.id}/incident/${incident.id}`)).status).toBe(404);
  });

  it("reads need statuspage:read and writes statuspage:write", async () => {
    const c = await sb.account();
    const read = (await sb.mint({ accountId: c.accountId, scopes: ["statuspage:read"] })).body.token;
    expect((await c.get("/statuspage", { token: read })).status).toBe(200);
    const res = await c.post("/statuspage", { slug: slug(), title: "x" }, { token: read });
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toMatchObject({ required: "statuspage:write" });
    const monitorOnly = (await sb.mint({ accountId: c.accountId, scopes: ["monitor"] })).body.token;
    expect((await c.get("/statuspage", { token: monitorOnly })).body.errors[0]).toMatchObject({
      required: "statuspage:read",
    });
  });
});
