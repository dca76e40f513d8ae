import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** Window state on the sandbox clock, monitors in maintenance, and the window lists. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const hour = 3600;
const week = 7 * 86400;
const now = async () => (await sb.admin.post("/_sandbox/clock", { advanceSec: 0 })).body.now as number;
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);

describe("state follows the sandbox clock", () => {
  it("goes scheduled, active, finished", async () => {
    const c = await sb.account();
    const t = await now();
    const w = (await c.post("/maintenance", { name: "x", from: t + hour, to: t + 2 * hour })).body;
    expect(w.state).toBe("scheduled");
    await sb.advance(hour);
    expect((await c.get(`/maintenance/${w.id}`)).body.state).toBe("active");
    await sb.advance(hour);
    expect((await c.get(`/maintenance/${w.id}`)).body.state).toBe("finished");
  });

  it("a weekly window recurs every 7 days from from, showing the current or next occurrence", async () => {
    const c = await sb.account();
    const t = await now();
    const w = (await c.post("/maintenance", { name: "x", from: t, to: t + hour, repeat: "weekly" })).body;
    expect(w).toMatchObject({ state: "active", occurrence: { from: t, to: t + hour } });
    await sb.advance(2 * hour);
    expect((await c.get(`/maintenance/${w.id}`)).body).toMatchObject({
      state: "scheduled",
      occurrence: { from: t + week, to: t + week + hour },
    });
    await sb.advance(week - 2 * hour);
    expect((await c.get(`/maintenance/${w.id}`)).body).toMatchObject({
      state: "active",
      occurrence: { from: t + week, to: t + week + hour },
    });
  });

  it("an enabled monitor in an active window reads maintenance, and the monitor list filters on it", async () => {
    const c = await sb.account();
    const [inside, outside, paused] = [await monitor(c), await monitor(c), await monitor(c)];
    expect((await c.patch(`/monitor/${paused}`, { enabled: false })).status).toBe(200);
    const t = await now();
    const w = (
      await c.post("/maintenance", { name: "x", from: t + 60, to: t + hour, monitorIds: [inside, paused] })
    ).body;
    expect((await c.get(`/monitor/${inside}`)).body.state).toBe("up");
    await sb.advance(60);
    expect((await c.get(`/monitor/${inside}`)).body.state).toBe("maintenance");
    expect((await c.get(`/monitor/${outside}`)).body.state).toBe("up");
    expect((await c.get(`/monitor/${paused}`)).body.state).toBe("paused");
    expect(ids(await c.get("/monitor?state=maintenance"))).toEqual([inside]);
    expect(ids(await c.post("/monitor/q", { state: ["maintenance"] }))).toEqual([inside]);
    // Deleting the window brings the monitor back at once.
    await c.delete(`/maintenance/${w.id}`);
    expect((await c.get(`/monitor/${inside}`)).body.state).toBe("up");
    expect(ids(await c.get("/monitor?state=maintenance"))).toEqual([]);
  });
});

describe("GET /maintenance and POST /maintenance/q", () => {
  it("filter by state and monitor, any-of", async () => {
    const c = await sb.account();
    const [a, b] = [await monitor(c), await monitor(c)];
    const t = await now();
    const past = (
      await c.post("/maintenance", { name: "past", from: t - 2 * hour, to: t - hour, monitorIds: [a] })
    ).body;
    const live = (
      await c.post("/maintenance", { name: "live", from: t - hour, to: t + hour, monitorIds: [b] })
    ).body;
    const later = (await c.post("/maintenance", { name: "later", from: t + hour, to: t + 2 * hour })).body;
    expect(ids(await c.get("/maintenance?state=active"))).toEqual([live.id]);
    expect(ids(await c.get("/maintenance?state=finished,scheduled&sort=from:asc"))).toEqual([
      past.id,
      later.id,
    ]);
    expect(ids(await c.get(`/maintenance?monitor=${a}&monitor=${b}&sort=from:asc`))).toEqual([
      past.id,
      live.id,
    ]);
    expect(ids(await c.post("/maintenance/q", { monitor: [b], state: ["active"] }))).toEqual([live.id]);
    const bad = await c.get("/maintenance?state=over");
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("unknown_enum_value");
  });

  it("from and to keep windows with an occurrence overlapping the range, weekly ones included", async () => {
    const c = await sb.account();
    const t = await now();
    const early = (await c.post("/maintenance", { name: "early", from: t, to: t + hour })).body;
    const late = (await c.post("/maintenance", { name: "late", from: t + 10 * hour, to: t + 11 * hour }))
      .body;
    const weekly = (
      await c.post("/maintenance", { name: "weekly", from: t - week, to: t - week + hour, repeat: "weekly" })
    ).body;
    const asc = "&sort=from:asc";
    expect(ids(await c.get(`/maintenance?from=${t + 2 * hour}${asc}`))).toEqual([weekly.id, late.id]);
    expect(ids(await c.get(`/maintenance?to=${t + hour}${asc}`))).toEqual([weekly.id, early.id]);
    // Between two weekly occurrences and outside both one-off windows: nothing overlaps.
    expect(ids(await c.get(`/maintenance?from=${t + 2 * hour}&to=${t + 9 * hour}`))).toEqual([]);
    expect(ids(await c.post("/maintenance/q", { from: t + week, to: t + week + 60 }))).toEqual([weekly.id]);
    const backwards = await c.get(`/maintenance?from=${t + 10}&to=${t}`);
    expect(backwards.status).toBe(422);
    expect(backwards.body).toMatchObject({ code: "invalid_range" });
  });

  it("sorts by from (default, newest first) and created", async () => {
    const c = await sb.account();
    const t = await now();
    const a = (await c.post("/maintenance", { name: "a", from: t + 2 * hour, to: t + 3 * hour })).body;
    await sb.advance(1);
    const b = (await c.post("/maintenance", { name: "b", from: t + hour, to: t + 3 * hour })).body;
    await sb.advance(1);
    const d = (await c.post("/maintenance", { name: "d", from: t + 3 * hour, to: t + 4 * hour })).body;
    expect(ids(await c.get("/maintenance"))).toEqual([d.id, a.id, b.id]);
    expect(ids(await c.get("/maintenance?sort=from:asc"))).toEqual([b.id, a.id, d.id]);
    expect(ids(await c.get("/maintenance?sort=created"))).toEqual([d.id, b.id, a.id]);
    expect(ids(await c.get("/maintenance?sort=created:asc&limit=2"))).toEqual([a.id, b.id]);
    expect((await c.get("/maintenance?sort=name")).body.code).toBe("unknown_enum_value");
  });

  it("delta sync catches every edit, and nothing when nothing changed", async () => {
    const c = await sb.account();
    const t = await now();
    const a = (await c.post("/maintenance", { name: "a", from: t + hour, to: t + 2 * hour })).body;
    const b = (await c.post("/maintenance", { name: "b", from: t + hour, to: t + 2 * hour })).body;
    const first = await c.get("/maintenance");
    const cursor = first.body.syncCursor;
    expect(ids(await c.get(`/maintenance?updatedSince=${encodeURIComponent(cursor)}`))).toEqual([]);
    await c.patch(`/maintenance/${a.id}`, { suppressAlerts: false });
    await c.patch(`/maintenance/${b.id}`, { name: "b" });
    const delta = await c.get(`/maintenance?updatedSince=${encodeURIComponent(cursor)}`);
    expect(ids(delta)).toEqual([a.id]);
    await c.patch(`/maintenance/${b.id}`, { to: t + 3 * hour });
    const next = await c.get(`/maintenance?updatedSince=${encodeURIComponent(delta.body.syncCursor)}`);
    expect(ids(next)).toEqual([b.id]);
  });
});

describe("GET /monitor/{id}/maintenance", () => {
  it("lists the windows covering that monitor only, with the same filters", async () => {
    const c = await sb.account();
    const [a, b] = [await monitor(c), await monitor(c)];
    const t = await now();
    const both = (await c.post("/maintenance", { name: "both", from: t, to: t + hour, monitorIds: [a, b] }))
      .body;
    const onlyB = (
      await c.post("/maintenance", { name: "b", from: t + hour, to: t + 2 * hour, monitorIds: [b] })
    ).body;
    expect(ids(await c.get(`/monitor/${a}/maintenance`))).toEqual([both.id]);
    expect(ids(await c.get(`/monitor/${b}/maintenance?sort=from:asc`))).toEqual([both.id, onlyB.id]);
    expect(ids(await c.get(`/monitor/${b}/maintenance?state=scheduled`))).toEqual([onlyB.id]);
    expect(ids(await c.post(`/monitor/${b}/maintenance/q`, { state: ["active"] }))).toEqual([both.id]);
    expect((await c.get("/monitor/5f0c1c9e-0000-4000-8000-000000000000/maintenance")).status).toBe(404);
  });
});
