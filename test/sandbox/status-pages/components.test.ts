import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** PUT /statuspage/{id}/component: the whole set, GUIDs, and the live state of monitor components. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const newPage = async (c: Client) =>
  (await c.post("/statuspage", { slug: `p-${randomUUID().slice(0, 8)}`, title: "T" })).body.id as string;

describe("PUT /statuspage/{id}/component", () => {
  it("replaces the whole set; each component gets a GUID, kept while its name stays", async () => {
    const c = await sb.account();
    const page = await newPage(c);
    const m = await monitor(c);
    const first = await c.put(`/statuspage/${page}/component`, {
      components: [
        { name: "API", monitorId: m },
        { name: "Docs", manualState: "degraded" },
      ],
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body.components).toEqual([
      { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "API", monitorId: m, state: "operational" },
      { id: expect.any(String), name: "Docs", manualState: "degraded", state: "degraded" },
    ]);
    const [api, docs] = first.body.components;
    const second = await c.put(`/statuspage/${page}/component`, {
      components: [
        { name: "Web", manualState: "down" },
        { name: "API", manualState: "operational" },
      ],
    });
    expect(second.body.components.map((x: { name: string }) => x.name)).toEqual(["Web", "API"]);
    expect(second.body.components[1]).toEqual({
      id: api.id,
      name: "API",
      manualState: "operational",
      state: "operational",
    });
    expect(second.body.components.map((x: { id: string }) => x.id)).not.toContain(docs.id);
    expect((await c.get(`/statuspage/${page}`)).body.components).toEqual(second.body.components);
    const cleared = await c.put(`/statuspage/${page}/component`, { components: [] });
    expect(cleared.body.components).toEqual([]);
  });

  it("refuses unknown or foreign monitors, repeated names, both or neither kind of state; nothing changes", async () => {
    const c = await sb.account();
    const other = await sb.account();
    const page = await newPage(c);
    const theirs = await monitor(other);
    await c.put(`/statuspage/${page}/component`, {
      components: [{ name: "Keep", manualState: "operational" }],
    });
    const foreign = await c.put(`/statuspage/${page}/component`, {
      components: [
        { name: "A", monitorId: theirs },
        { name: "a", manualState: "down" },
      ],
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual([
      expect.objectContaining({
        pointer: "/components/0/monitorId",
        value: theirs,
        reason: "unknown_monitor",
      }),
      expect.objectContaining({ pointer: "/components/1/name", reason: "duplicate" }),
    ]);
    const both = await c.put(`/statuspage/${page}/component`, {
      components: [{ name: "X", monitorId: theirs, manualState: "down" }],
    });
    expect(both.status).toBe(422);
    expect(both.body.errors[0].pointer).toBe("/components/0");
    const neither = await c.put(`/statuspage/${page}/component`, { components: [{ name: "X" }] });
    expect(neither.status).toBe(422);
    const badState = await c.put(`/statuspage/${page}/component`, {
      components: [{ name: "X", manualState: "maintenance" }],
    });
    expect(badState.status).toBe(422);
    expect((await c.get(`/statuspage/${page}`)).body.components.map((x: { name: string }) => x.name)).toEqual(
      ["Keep"],
    );
  });

  it("drops components that left the set from the page's incidents", async () => {
    const c = await sb.account();
    const page = await newPage(c);
    const set = await c.put(`/statuspage/${page}/component`, {
      components: [
        { name: "A", manualState: "operational" },
        { name: "B", manualState: "operational" },
      ],
    });
    const [a, b] = set.body.components;
    const incident = (
      await c.post(
        `/statuspage/${page}/incident`,
        { title: "x", message: "y", componentIds: [a.id, b.id] },
        { headers: { "idempotency-key": randomUUID() } },
      )
    ).body;
    await c.put(`/statuspage/${page}/component`, { components: [{ name: "B", manualState: "down" }] });
    expect((await c.get(`/statuspage/${page}/incident/${incident.id}`)).body.componentIds).toEqual([b.id]);
  });
});

describe("live state of monitor components", () => {
  it("maps up, down, maintenance (shown or not) and paused", async () => {
    const c = await sb.account();
    const page = await newPage(c);
    const [up, shown, hidden, paused] = [
      await monitor(c),
      await monitor(c),
      await monitor(c),
      await monitor(c),
    ];
    await c.patch(`/monitor/${paused}`, { enabled: false });
    await c.put(`/statuspage/${page}/component`, {
      components: [
        { name: "up", monitorId: up },
        { name: "shown", monitorId: shown },
        { name: "hidden", monitorId: hidden },
        { name: "paused", monitorId: paused },
      ],
    });
    const now = (await sb.admin.post("/_sandbox/clock", { advanceSec: 0 })).body.now;
    await c.post("/maintenance", {
      name: "s",
      from: now,
      to: now + 3600,
      monitorIds: [shown],
      showOnStatusPage: true,
    });
    await c.post("/maintenance", { name: "h", from: now, to: now + 3600, monitorIds: [hidden] });
    const states = async () =>
      Object.fromEntries(
        (await c.get(`/statuspage/${page}`)).body.components.map((x: { name: string; state: string }) => [
          x.name,
          x.state,
        ]),
      );
    expect(await states()).toEqual({
      up: "operational",
      shown: "maintenance",
      hidden: "operational",
      paused: "unknown",
    });
    expect((await sb.admin.post(`/_sandbox/monitor/${up}/outcome`, { state: "down" })).status).toBe(200);
    expect((await states()).up).toBe("down");
    await sb.advance(3600);
    expect((await states()).shown).toBe("operational");
  });
});
