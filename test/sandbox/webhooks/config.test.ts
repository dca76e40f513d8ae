import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** Webhook configuration: fields, rules, limits, secrets, lists. No deliveries are needed here. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

let n = 0;
const url = () => `https://hooks.example.com/${++n}`;
const base = () => ({ url: url(), events: ["monitor.down"], scope: { all: true } });

async function create(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.post("/webhook", { ...base(), ...body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("POST /webhook", () => {
  it("answers 201 with Location, the generated whsec_ secret once, and the scope's monitorCount", async () => {
    const c = await sb.account();
    await monitor(c);
    const res = await c.post("/webhook", { ...base(), name: "Ops" });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/webhook/${res.body.id}`);
    expect(res.body).toMatchObject({
      name: "Ops",
      enabled: true,
      consecutiveFailures: 0,
      disabledReason: null,
      lastDeliveryAt: null,
      headers: [],
      scope: { all: true, monitorCount: 1 },
    });
    const secret: string = res.body.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const key = Buffer.from(secret.slice(6), "base64");
    expect(key.length).toBeGreaterThanOrEqual(24);
    expect(key.length).toBeLessThanOrEqual(32);

    const read = await c.get(`/webhook/${res.body.id}`);
    expect(read.body.secret).toEqual({ set: true, updatedAt: res.body.created, previousValidUntil: null });
    expect(read.text).not.toContain(secret.slice(6));
    expect((await c.get("/webhook")).text).not.toContain(secret.slice(6));
  });

  it("accepts an own secret of 16-128 characters and refuses other lengths", async () => {
    const c = await sb.account();
    const own = await c.post("/webhook", { ...base(), secret: "s".repeat(16) });
    expect(own.status).toBe(201);
    expect(own.body.secret).toBe("s".repeat(16));
    for (const secret of ["s".repeat(15), "s".repeat(129)]) {
      const res = await c.post("/webhook", { ...base(), secret });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].pointer).toBe("/secret");
    }
  });

  it("refuses enabled: false (not_on_create) and {rotate: true} on create", async () => {
    const c = await sb.account();
    const off = await c.post("/webhook", { ...base(), enabled: false });
    expect(off.status).toBe(422);
    expect(off.body.errors[0]).toMatchObject({ pointer: "/enabled", reason: "not_on_create" });
    const rotate = await c.post("/webhook", { ...base(), secret: { rotate: true } });
    expect(rotate.body.errors[0]).toMatchObject({ pointer: "/secret", reason: "not_on_create" });
    expect((await c.get("/webhook")).body.data).toHaveLength(0);
  });

  it("refuses job events and unknown names with unknown_event_type", async () => {
    const c = await sb.account();
    for (const name of ["job.completed", "job.progress", "monitor.exploded", "*"]) {
      const res = await c.post("/webhook", { ...base(), events: ["monitor.up", name] });
      expect(res.status, name).toBe(422);
      expect(res.body.code).toBe("unknown_event_type");
      expect(res.body.errors[0]).toMatchObject({ pointer: "/events/1", value: name });
      expect(res.body.errors[0].allowed).toHaveLength(13);
    }
    expect((await c.post("/webhook", { ...base(), events: [] })).body.code).toBe("validation_failed");
  });

  it("takes exactly one scope form, monitorIds of existing monitors only", async () => {
    const c = await sb.account();
    const id = await monitor(c);
    const both = await c.post("/webhook", { ...base(), scope: { all: true, tags: ["x"] } });
    expect(both.status).toBe(422);
    const none = await c.post("/webhook", { ...base(), scope: {} });
    expect(none.status).toBe(422);
    const missing = "00000000-0000-4000-8000-000000000000";
    const unknown = await c.post("/webhook", { ...base(), scope: { monitorIds: [id, missing] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({
      pointer: "/scope/monitorIds/1",
      reason: "unknown_monitor",
    });
    const tooMany = Array.from(
      { length: 501 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    );
    expect((await c.post("/webhook", { ...base(), scope: { monitorIds: tooMany } })).status).toBe(422);

    const ids = await create(c, { scope: { monitorIds: [id] } });
    expect(ids.scope).toEqual({ monitorIds: [id], monitorCount: 1 });
    const tags = await create(c, { scope: { tags: ["nothing-tagged"] } });
    expect(tags.scope).toEqual({ tags: ["nothing-tagged"], monitorCount: 0 });
  });

  it("counts each scope's monitors right when one list renders many scopes", async () => {
    const c = await sb.account();
    for (const tags of [["a"], ["a", "b"], ["c"]]) {
      const res = await c.post("/monitor", {
        type: "http",
        url: `https://example.com/${tags.join("-")}`,
        locations: { pools: ["allworld"] },
        tags,
      });
      expect(res.status, res.text).toBe(201);
    }
    const all = await create(c, { scope: { all: true } });
    const a = await create(c, { scope: { tags: ["a"] } });
    const bc = await create(c, { scope: { tags: ["c", "b"] } });
    const none = await create(c, { scope: { tags: ["z"] } });
    const rows = (await c.get("/webhook")).body.data as any[];
    const countOf = (id: string) => rows.find((r) => r.id === id).scope.monitorCount;
    expect([all, a, bc, none].map((w) => countOf(w.id))).toEqual([3, 2, 2, 0]);
    // A changed scope is counted afresh in the PATCH answer.
    expect((await c.patch(`/webhook/${none.id}`, { scope: { tags: ["b"] } })).body.scope.monitorCount).toBe(
      1,
    );
  });

  it("refuses header names beginning SVC- or webhook- in any case, with a reason", async () => {
    const c = await sb.account();
    for (const header of ["SVC-Event", "svc-custom", "Webhook-Signature", "WEBHOOK-ID"]) {
      const res = await c.post("/webhook", {
        ...base(),
        headers: [
          { header: "X-Ok", value: "1" },
          { header, value: "x" },
        ],
      });
      expect(res.status, header).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ pointer: "/headers/1/header", reason: "reserved_header" });
    }
    const ok = await create(c, { headers: [{ header: "Authorization", value: "Bearer abc" }] });
    expect(ok.headers).toEqual([{ header: "Authorization", value: { set: true } }]);
  });

  it("never shows header values (credentials) in reads or lists; a PATCH replaces the whole list", async () => {
    const c = await sb.account();
    const masked = (names: string[]) => names.map((header) => ({ header, value: { set: true } }));
    const w = await create(c, {
      headers: [
        { header: "Authorization", value: "Bearer s3cr3t-token" },
        { header: "X-Team", value: "ops" },
      ],
    });
    expect(w.headers).toEqual(masked(["Authorization", "X-Team"]));
    const read = await c.get(`/webhook/${w.id}`);
    expect(read.body.headers).toEqual(masked(["Authorization", "X-Team"]));
    const list = await c.get("/webhook");
    const query = await c.post("/webhook/q", { fields: ["headers"] });
    for (const text of [read.text, list.text, query.text]) expect(text).not.toContain("s3cr3t-token");
    expect(list.body.data.find((x: any) => x.id === w.id).headers).toEqual(
      masked(["Authorization", "X-Team"]),
    );

    const patched = await c.patch(`/webhook/${w.id}`, { headers: [{ header: "X-Other", value: "2" }] });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.headers).toEqual(masked(["X-Other"]));
    expect((await c.patch(`/webhook/${w.id}`, { headers: [] })).body.headers).toEqual([]);
  });

  it("allows one webhook per URL: a second answers 409 duplicate_resource with the existing id", async () => {
    const c = await sb.account();
    const first = await create(c, { url: "https://dup.example.com/in" });
    const again = await c.post("/webhook", { ...base(), url: "https://DUP.example.com/in" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "duplicate_resource", existingId: first.id });
    const other = await create(c);
    const patch = await c.patch(`/webhook/${other.id}`, { url: "https://dup.example.com/in" });
    expect(patch.status).toBe(409);
  });

  it("allows 20 webhooks per account (403 package_limit, feature webhooks)", async () => {
    const c = await sb.account();
    for (let i = 0; i < 20; i++) await create(c);
    const res = await c.post("/webhook", base());
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "package_limit", feature: "webhooks" });
  });
});

describe("destination rules (without --allow-insecure-webhooks)", () => {
  it("allows https only: 422 invalid_url, reason scheme_not_allowed", async () => {
    const c = await sb.account();
    for (const u of ["http://hooks.example.com/x", "ftp://hooks.example.com/x", "http://127.0.0.1:9/x"]) {
      const res = await c.post("/webhook", { ...base(), url: u });
      expect(res.status, u).toBe(422);
      expect(res.body).toMatchObject({
        code: "invalid_url",
        errors: [{ pointer: "/url", reason: "scheme_not_allowed" }],
      });
    }
    expect((await c.post("/webhook", { ...base(), url: "not a url" })).body.code).toBe("validation_failed");
  });

  it("refuses loopback, private, CGNAT, link-local, ULA, metadata, unspecified and localhost destinations", async () => {
    const c = await sb.account();
    const refused = [
      "https://127.0.0.1/x",
      "https://[::1]/x",
      "https://10.1.2.3/x",
      "https://172.16.0.1/x",
      "https://172.31.255.255/x",
      "https://192.168.1.1/x",
      "https://100.64.0.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://169.254.10.10/x",
      "https://[fe80::1]/x",
      "https://[fc00::1]/x",
      "https://[fd00:ec2::254]/x",
      "https://[::ffff:10.0.0.1]/x",
      "https://0.0.0.0/x",
      "https://[::]/x",
      "https://localhost/x",
      "https://api.localhost/x",
      "https://metadata.google.internal/computeMetadata/v1/",
    ];
    for (const u of refused) {
      const res = await c.post("/webhook", { ...base(), url: u });
      expect(res.status, u).toBe(422);
      expect(res.body.errors[0].reason, u).toBe("destination_not_allowed");
    }
    for (const u of ["https://172.32.0.1/x", "https://100.128.0.1/x", "https://8.8.8.8/x"]) {
      expect((await c.post("/webhook", { ...base(), url: u })).status, u).toBe(201);
    }
  });
});

describe("PATCH /webhook/{id}", () => {
  it("rotates the secret: the new one is answered once, the previous one signs for 24 hours", async () => {
    const c = await sb.account();
    const hook = await create(c);
    const rotated = await c.patch(`/webhook/${hook.id}`, { secret: { rotate: true } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(hook.secret);
    const read = (await c.get(`/webhook/${hook.id}`)).body.secret;
    expect(read.set).toBe(true);
    expect(read.previousValidUntil - read.updatedAt).toBe(86400);
  });

  it("changes only sent members, null clears the name, and refuses read-only members", async () => {
    const c = await sb.account();
    const hook = await create(c, { name: "Before" });
    const res = await c.patch(`/webhook/${hook.id}`, { name: null, events: ["monitor.up", "monitor.up"] });
    expect(res.body).toMatchObject({ name: null, events: ["monitor.up"], url: hook.url });
    const ro = await c.patch(`/webhook/${hook.id}`, { consecutiveFailures: 0 });
    expect(ro.status).toBe(422);
    expect(ro.body.errors[0].reason).toBe("unknown_member");
    expect((await c.patch(`/webhook/${hook.id}`, { events: ["job.completed"] })).body.code).toBe(
      "unknown_event_type",
    );
  });

  it("refuses header values sent back masked with 422 credential_write_only, changing nothing", async () => {
    const c = await sb.account();
    const hook = await create(c, {
      headers: [
        { header: "Authorization", value: "Bearer abc" },
        { header: "X-Team", value: "ops" },
      ],
    });
    const before = (await c.get(`/webhook/${hook.id}`)).body;
    // A declarative client sends back what it read, with one value changed.
    const res = await c.patch(`/webhook/${hook.id}`, {
      name: "renamed",
      headers: [
        { header: "Authorization", value: { set: true } },
        { header: "X-Team", value: "sre" },
      ],
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.code).toBe("credential_write_only");
    expect(res.body.detail).toMatch(/write-only.*leave headers out/);
    expect(res.body.errors).toEqual([{ pointer: "/headers/0/value", reason: "masked_value_sent" }]);
    expect((await c.get(`/webhook/${hook.id}`)).body).toEqual(before);

    // The PATCH headers keep the kind's other rules: a wrong type is still a type error, and the limit holds.
    const wrongType = await c.patch(`/webhook/${hook.id}`, { headers: [{ header: "X-A", value: 5 }] });
    expect(wrongType.body.code).toBe("validation_failed");
    expect(wrongType.body.errors[0].pointer).toMatch(/^\/headers\/0\/value/);
    const tooMany = Array.from({ length: 21 }, (_, i) => ({ header: `X-H${i}`, value: "v" }));
    const overLimit = await c.patch(`/webhook/${hook.id}`, { headers: tooMany });
    expect(overLimit.body).toMatchObject({ code: "validation_failed", errors: [{ pointer: "/headers" }] });
  });

  it("answers 404 for another account's webhook", async () => {
    const a = await sb.account();
    const b = await sb.account();
    const hook = await create(a);
    expect((await b.get(`/webhook/${hook.id}`)).status).toBe(404);
    expect((await b.patch(`/webhook/${hook.id}`, { name: "x" })).status).toBe(404);
    expect((await b.delete(`/webhook/${hook.id}`)).status).toBe(404);
  });
});

describe("GET /webhook", () => {
  it("carries summary.eventTypes, sorts, and a delta sync that catches every edit", async () => {
    const c = await sb.account();
    const a = await create(c, { name: "beta", url: "https://b.example.com/" });
    const b = await create(c, { name: "alpha", url: "https://a.example.com/" });
    const page = await c.get("/webhook?sort=name");
    expect(page.body.data.map((w: any) => w.id)).toEqual([b.id, a.id]);
    const names = page.body.summary.eventTypes.map((e: any) => e.name);
    expect(names).toContain("monitor.down");
    expect(names).toContain("job.completed");
    expect(page.body.summary.eventTypes.find((e: any) => e.name === "job.completed").subscribable).toBe(
      false,
    );
    expect((await c.post("/webhook/q", { sort: "url:desc" })).body.data[0].id).toBe(a.id);

    const since = page.body.syncCursor;
    expect((await c.get(`/webhook?updatedSince=${since}`)).body.data).toHaveLength(0);
    await c.patch(`/webhook/${a.id}`, { name: "gamma" });
    const changed = await c.get(`/webhook?updatedSince=${since}`);
    expect(changed.body.data.map((w: any) => w.id)).toEqual([a.id]);
  });
});
