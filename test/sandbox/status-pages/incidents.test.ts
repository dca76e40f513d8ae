import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** Status page incidents: idempotent declaration, timeline, maintenance windows, subscriber notices. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const key = () => ({ headers: { "idempotency-key": randomUUID() } });

async function pageWithComponents(c: Client) {
  const page = (await c.post("/statuspage", { slug: `p-${randomUUID().slice(0, 8)}`, title: "Acme" })).body;
  const components = (
    await c.put(`/statuspage/${page.id}/component`, {
      components: [
        { name: "API", manualState: "operational" },
        { name: "Web", manualState: "operational" },
      ],
    })
  ).body.components as { id: string }[];
  return { page, components };
}

describe("POST /statuspage/{id}/incident", () => {
  it("requires an Idempotency-Key, and declares nothing without one", async () => {
    const c = await sb.account();
    const { page } = await pageWithComponents(c);
    const res = await c.post(`/statuspage/${page.id}/incident`, { title: "Down", message: "Looking" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("idempotency_key_required");
    expect((await c.get(`/statuspage/${page.id}/incident`)).body.data).toEqual([]);
  });

  it("declares an incident with defaults; its message is the first timeline entry; a replay answers the same", async () => {
    const c = await sb.account();
    const { page, components } = await pageWithComponents(c);
    const body = {
      title: "API errors",
      message: "Investigating raised error rates",
      componentIds: [components[0]!.id],
    };
    const headers = key();
    const res = await c.post(`/statuspage/${page.id}/incident`, body, headers);
    expect(res.status, res.text).toBe(201);
    expect(res.headers.location).toBe(`/statuspage/${page.id}/incident/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(String),
      pageId: page.id,
      kind: "incident",
      title: "API errors",
      impact: "minor",
      componentIds: [components[0]!.id],
      state: "investigating",
      postmortem: null,
      from: null,
      to: null,
      timeline: [
        {
          id: expect.any(String),
          message: "Investigating raised error rates",
          state: "investigating",
          at: expect.any(Number),
        },
      ],
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    const replay = await c.post(`/statuspage/${page.id}/incident`, body, headers);
    expect(replay.headers["idempotency-replayed"]).toBe("true");
    expect(replay.body).toEqual(res.body);
    expect((await c.get(`/statuspage/${page.id}/incident`)).body.data).toHaveLength(1);
    const conflict = await c.post(`/statuspage/${page.id}/incident`, { ...body, title: "Other" }, headers);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe("idempotency_key_conflict");
  });

  it("refuses components of another page, a missing title or message, and unknown members", async () => {
    const c = await sb.account();
    const { page } = await pageWithComponents(c);
    const { components: elsewhere } = await pageWithComponents(c);
    const res = await c.post(
      `/statuspage/${page.id}/incident`,
      { title: "x", message: "y", componentIds: [elsewhere[0]!.id] },
      key(),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        pointer: "/componentIds/0",
        value: elsewhere[0]!.id,
        reason: "unknown_component",
      }),
    ]);
    const missing = await c.post(`/statuspage/${page.id}/incident`, { impact: "huge", severity: 1 }, key());
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      "/impact",
      "/message",
      "/severity",
      "/title",
    ]);
  });

  it("a maintenance needs from and to (to after from); an incident takes no window", async () => {
    const c = await sb.account();
    const { page } = await pageWithComponents(c);
    const p = `/statuspage/${page.id}/incident`;
    const noWindow = await c.post(p, { kind: "maintenance", title: "DB upgrade", message: "Planned" }, key());
    expect(noWindow.status).toBe(422);
    expect(noWindow.body.errors).toEqual([
      expect.objectContaining({ pointer: "/from", reason: "required" }),
      expect.objectContaining({ pointer: "/to", reason: "required" }),
    ]);
    const backwards = await c.post(
      p,
      { kind: "maintenance", title: "x", message: "y", from: 200, to: 100 },
      key(),
    );
    expect(backwards.body.errors[0]).toMatchObject({ pointer: "/to", reason: "not_after_from" });
    const windowed = await c.post(p, { title: "x", message: "y", from: 100 }, key());
    expect(windowed.body.errors[0]).toMatchObject({ pointer: "/from", reason: "maintenance_only" });
    const ok = await c.post(
      p,
      {
        kind: "maintenance",
        title: "DB upgrade",
        message: "Planned",
        impact: "major",
        from: 100,
        to: 200,
        state: "identified",
      },
      key(),
    );
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      kind: "maintenance",
      from: 100,
      to: 200,
      impact: "major",
      state: "identified",
    });
  });
});

describe("timeline", () => {
  it("requires an Idempotency-Key; each post appends an entry and moves the state, in any order", async () => {
    const c = await sb.account();
    const { page } = await pageWithComponents(c);
    const incident = (
      await c.post(`/statuspage/${page.id}/incident`, { title: "x", message: "first" }, key())
    ).body;
    const t = `/statuspage/${page.id}/incident/${incident.id}/timeline`;
    const noKey = await c.post(t, { message: "m", state: "identified" });
    expect(noKey.status).toBe(400);
    expect(noKey.body.code).toBe("idempotency_key_required");
    await sb.advance(5);
    const resolved = await c.post(t, { message: "Fixed", state: "resolved" }, key());
    expect(resolved.status, resolved.text).toBe(201);
    expect(resolved.body.state).toBe("resolved");
    expect(
      resolved.body.timeline.map((e: { message: string; state: string }) => [e.message, e.state]),
    ).toEqual([
      ["first", "investigating"],
      ["Fixed", "resolved"],
    ]);
    expect(resolved.body.timeline[1].at).toBeGreaterThan(resolved.body.timeline[0].at);
    const reopened = await c.post(t, { message: "Back again", state: "investigating" }, key());
    expect(reopened.body.state).toBe("investigating");
    expect((await c.get(`/statuspage/${page.id}/incident/${incident.id}`)).body.timeline).toHaveLength(3);
    const bad = await c.post(t, { message: "", state: "done" }, key());
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/message", "/state"]);
  });

  it("entries cannot be edited: PATCH refuses state and timeline, and the kind is permanent", async () => {
    const c = await sb.account();
    const { page, components } = await pageWithComponents(c);
    const incident = (await c.post(`/statuspage/${page.id}/incident`, { title: "x", message: "m" }, key()))
      .body;
    const item = `/statuspage/${page.id}/incident/${incident.id}`;
    const state = await c.patch(item, { state: "resolved" });
    expect(state.status).toBe(422);
    expect(state.body.errors[0]).toMatchObject({ pointer: "/state", reason: "unknown_member" });
    const timeline = await c.patch(item, { timeline: [] });
    expect(timeline.body.errors[0]).toMatchObject({ pointer: "/timeline", reason: "unknown_member" });
    const kind = await c.patch(item, { kind: "maintenance" });
    expect(kind.body.errors[0]).toMatchObject({
      pointer: "/kind",
      reason: "immutable",
      allowed: ["incident"],
    });
    const ok = await c.patch(item, {
      title: "API outage",
      impact: "major",
      postmortem: "Root cause",
      componentIds: [components[1]!.id],
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      title: "API outage",
      impact: "major",
      postmortem: "Root cause",
      state: "investigating",
    });
    expect(ok.body.timeline).toEqual(incident.timeline);
  });
});

describe("GET, list and DELETE", () => {
  it("lists a page's incidents paged, newest first, with state and kind filters; delete answers a receipt", async () => {
    const c = await sb.account();
    const { page } = await pageWithComponents(c);
    const p = `/statuspage/${page.id}/incident`;
    const a = (await c.post(p, { title: "a", message: "m" }, key())).body;
    await sb.advance(1);
    const b = (await c.post(p, { kind: "maintenance", title: "b", message: "m", from: 1, to: 2 }, key()))
      .body;
    await sb.advance(1);
    const d = (await c.post(p, { title: "d", message: "m", state: "resolved" }, key())).body;
    const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id);
    const first = await c.get(`${p}?limit=2`);
    expect(ids(first)).toEqual([d.id, b.id]);
    expect(first.body.hasMore).toBe(true);
    expect(ids(await c.get(`${p}?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`))).toEqual([
      a.id,
    ]);
    expect(ids(await c.get(`${p}?state=resolved`))).toEqual([d.id]);
    expect(ids(await c.post(`${p}/q`, { kind: ["maintenance"] }))).toEqual([b.id]);
    const receipt = await c.delete(`${p}/${a.id}`);
    expect(receipt.body).toEqual({ id: a.id, deleted: true, pageId: page.id, timelineEntries: 1 });
    expect((await c.get(`${p}/${a.id}`)).status).toBe(404);
  });
});

describe("subscriber notifications", () => {
  it("declaring and each timeline post record one outbox message per subscriber", async () => {
    const c = await sb.account();
    const { page } = await pageWithComponents(c);
    const slack = (
      await c.post(`/statuspage/${page.id}/subscriber`, {
        kind: "slack",
        url: "https://hooks.slack.com/services/T/B/X",
      })
    ).body;
    const hook = (
      await c.post(`/statuspage/${page.id}/subscriber`, { kind: "webhook", url: "https://example.com/hook" })
    ).body;
    const incident = (
      await c.post(
        `/statuspage/${page.id}/incident`,
        { title: "API errors", message: "Looking", impact: "major" },
        key(),
      )
    ).body;
    await c.post(
      `/statuspage/${page.id}/incident/${incident.id}/timeline`,
      { message: "Fixed", state: "resolved" },
      key(),
    );
    const sent = (await sb.outbox()).filter((m: { incidentId?: string }) => m.incidentId === incident.id);
    expect(sent).toHaveLength(4);
    expect(sent).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: "statusPageIncident",
          channel: "slack",
          to: slack.url,
          subscriberId: slack.id,
          event: "declared",
          title: "API errors",
          impact: "major",
          state: "investigating",
          message: "Looking",
        }),
        expect.objectContaining({ channel: "webhook", to: hook.url, event: "declared" }),
        expect.objectContaining({ channel: "slack", event: "updated", state: "resolved", message: "Fixed" }),
        expect.objectContaining({ channel: "webhook", to: hook.url, event: "updated", state: "resolved" }),
      ]),
    );
    // A PATCH is not an update subscribers hear about.
    await c.patch(`/statuspage/${page.id}/incident/${incident.id}`, { title: "Renamed" });
    expect(
      (await sb.outbox()).filter((m: { incidentId?: string }) => m.incidentId === incident.id),
    ).toHaveLength(4);
  });
});
