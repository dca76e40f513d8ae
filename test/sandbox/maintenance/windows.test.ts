import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** Maintenance windows: create, read, change, delete, and the rules a body must meet. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const hour = 3600;
const now = async () => (await sb.admin.post("/_sandbox/clock", { advanceSec: 0 })).body.now as number;

describe("POST /maintenance", () => {
  it("creates a window with 201, Location, the kind's defaults and state", async () => {
    const c = await sb.account();
    const m = await monitor(c);
    const t = await now();
    const res = await c.post("/maintenance", {
      name: "Deploy",
      from: t + hour,
      to: t + 2 * hour,
      monitorIds: [m, m],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/maintenance/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: "Deploy",
      from: t + hour,
      to: t + 2 * hour,
      monitorIds: [m],
      repeat: "none",
      suppressAlerts: true,
      excludeFromStats: true,
      showOnStatusPage: false,
      state: "scheduled",
      occurrence: { from: t + hour, to: t + 2 * hour },
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    const read = await c.get(`/maintenance/${res.body.id}`);
    expect(read.body).toEqual(res.body);
  });

  it("requires name, from and to, and refuses read-only and unknown members", async () => {
    const c = await sb.account();
    const res = await c.post("/maintenance", { from: 10, state: "active", start: 1 });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    const pointers = res.body.errors.map((e: { pointer: string }) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(["/name", "/to", "/state", "/start"]));
    expect((await c.get("/maintenance")).body.data).toEqual([]);
  });

  it("refuses to not after from, and a weekly occurrence longer than 7 days", async () => {
    const c = await sb.account();
    const t = await now();
    const same = await c.post("/maintenance", { name: "x", from: t, to: t });
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual([
      expect.objectContaining({ pointer: "/to", value: t, reason: "not_after_from" }),
    ]);
    const long = await c.post("/maintenance", { name: "x", from: t, to: t + 8 * 86400, repeat: "weekly" });
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual([
      expect.objectContaining({ pointer: "/to", reason: "out_of_range", maximum: t + 7 * 86400 }),
    ]);
    const badRepeat = await c.post("/maintenance", { name: "x", from: t, to: t + 1, repeat: "daily" });
    expect(badRepeat.status).toBe(422);
    expect(badRepeat.body.errors[0]).toMatchObject({ pointer: "/repeat", allowed: ["none", "weekly"] });
  });

  it("refuses monitors that are not the account's, pointing at each", async () => {
    const c = await sb.account();
    const other = await sb.account();
    const mine = await monitor(c);
    const theirs = await monitor(other);
    const missing = "5f0c1c9e-0000-4000-8000-000000000000";
    const t = await now();
    const res = await c.post("/maintenance", {
      name: "x",
      from: t,
      to: t + hour,
      monitorIds: [mine, theirs, missing],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ pointer: "/monitorIds/1", value: theirs, reason: "unknown_monitor" }),
      expect.objectContaining({ pointer: "/monitorIds/2", value: missing, reason: "unknown_monitor" }),
    ]);
    expect((await c.get("/maintenance")).body.data).toEqual([]);
  });

  it("is not limited by plan: a trial account creates many", async () => {
    const c = await sb.account({ plan: "trial" });
    const t = await now();
    for (let i = 0; i < 25; i++) {
      expect((await c.post("/maintenance", { name: `w${i}`, from: t + i, to: t + i + hour })).status).toBe(
        201,
      );
    }
    expect((await c.get("/maintenance?limit=100")).body.data).toHaveLength(25);
  });
});

describe("PATCH /maintenance/{id}", () => {
  it("changes sent members only; a new monitorIds replaces coverage", async () => {
    const c = await sb.account();
    const [a, b] = [await monitor(c), await monitor(c)];
    const t = await now();
    const w = (await c.post("/maintenance", { name: "x", from: t + hour, to: t + 2 * hour, monitorIds: [a] }))
      .body;
    await sb.advance(5);
    const res = await c.patch(`/maintenance/${w.id}`, { monitorIds: [b], showOnStatusPage: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: "x",
      from: w.from,
      to: w.to,
      monitorIds: [b],
      showOnStatusPage: true,
    });
    expect(res.body.updated).toBeGreaterThan(w.updated);
    const covering = await c.get(`/monitor/${a}/maintenance`);
    expect(covering.body.data).toEqual([]);
    expect((await c.get(`/monitor/${b}/maintenance`)).body.data.map((x: { id: string }) => x.id)).toEqual([
      w.id,
    ]);
  });

  it("checks the merged window: a to before the stored from is refused and changes nothing", async () => {
    const c = await sb.account();
    const t = await now();
    const w = (await c.post("/maintenance", { name: "x", from: t + hour, to: t + 2 * hour })).body;
    const res = await c.patch(`/maintenance/${w.id}`, { to: t });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ pointer: "/to", reason: "not_after_from" });
    const unknown = await c.patch(`/maintenance/${w.id}`, {
      monitorIds: ["5f0c1c9e-0000-4000-8000-000000000000"],
    });
    expect(unknown.body.errors[0]).toMatchObject({ pointer: "/monitorIds/0", reason: "unknown_monitor" });
    expect((await c.get(`/maintenance/${w.id}`)).body).toEqual(w);
  });
});

describe("DELETE /maintenance/{id}", () => {
  it("answers a receipt and the window is gone", async () => {
    const c = await sb.account();
    const t = await now();
    const w = (await c.post("/maintenance", { name: "Gone", from: t + hour, to: t + 2 * hour })).body;
    const res = await c.delete(`/maintenance/${w.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: w.id,
      deleted: true,
      name: "Gone",
      state: "scheduled",
      endedEarly: false,
      cascaded: {},
    });
    expect((await c.get(`/maintenance/${w.id}`)).status).toBe(404);
    expect((await c.delete(`/maintenance/${w.id}`)).status).toBe(404);
  });
});

describe("isolation and scopes", () => {
  it("another account's window reads as 404 on every route", async () => {
    const c = await sb.account();
    const other = await sb.account();
    const m = await monitor(c);
    const t = await now();
    const w = (await c.post("/maintenance", { name: "x", from: t, to: t + hour, monitorIds: [m] })).body;
    expect((await other.get(`/maintenance/${w.id}`)).status).toBe(404);
    expect((await other.patch(`/maintenance/${w.id}`, { name: "y" })).status).toBe(404);
    expect((await other.delete(`/maintenance/${w.id}`)).status).toBe(404);
    expect((await other.get(`/monitor/${m}/maintenance`)).status).toBe(404);
    expect((await other.get("/maintenance")).body.data).toEqual([]);
    expect((await c.get(`/maintenance/${w.id}`)).body.name).toBe("x");
  });

  it("reads need monitor:read and writes monitor:write", async () => {
    const c = await sb.account();
    const token = (await sb.mint({ accountId: c.accountId, scopes: ["monitor:read"] })).body.token;
    expect((await c.get("/maintenance", { token })).status).toBe(200);
    const t = await now();
    const res = await c.post("/maintenance", { name: "x", from: t, to: t + 1 }, { token });
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toMatchObject({ required: "monitor:write" });
    const contactOnly = (await sb.mint({ accountId: c.accountId, scopes: ["contact"] })).body.token;
    expect((await c.get("/maintenance", { token: contactOnly })).body.errors[0]).toMatchObject({
      required: "monitor:read",
    });
  });
});
