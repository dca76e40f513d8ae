import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import type { TestSandbox } from "../../helpers/sandbox.ts";
import { closeWithReceiver, type Receiver, startWithReceiver } from "../webhooks/receiver.ts";
import { arrivals, eventsAt, hook, key, monitorBody, outcome, settle, verified } from "./helpers.ts";

/** Where one part's action reaches into another's resources, over HTTP only. */
let sb: TestSandbox;
let rx: Receiver;
// The sandbox clock moves only when a test moves it: a duration asserted is the one advanced, on any machine.
beforeAll(async () => ({ sb, rx } = await startWithReceiver({ manualClock: true })));
afterAll(() => closeWithReceiver(sb, rx));

describe("across parts", () => {
  it("a bulk delete of a down monitor detaches it from windows and pages and silences its incident", async () => {
    const c = await sb.account();
    const tag = `gone-${randomUUID().slice(0, 8)}`;
    const m = await monitor(c);
    expect((await c.patch(`/monitor/${m}`, { tags: [tag] })).status).toBe(200);
    const h = await hook(c, rx, {
      events: ["monitor.deleted", "monitor.repeatedlyDown", "incident.closed", "maintenance.ended"],
    });
    const down = await outcome(sb, m, "down");
    const page = (await c.post("/statuspage", { slug: `gone-${randomUUID().slice(0, 8)}`, title: "x" })).body
      .id;
    await c.put(`/statuspage/${page}/component`, { components: [{ name: "API", monitorId: m }] });
    const now = await sb.advance(1);
    const window = (
      await c.post("/maintenance", { name: "w", from: now + 60, to: now + 120, monitorIds: [m] })
    ).body;

    const del = await c.post("/monitor/bulk-delete", { filter: { tag: [tag] }, expectedCount: 1 }, key());
    expect(del.status, del.text).toBe(202);
    expect((await settle(c, del.body.jobId)).body.summary.deleted).toBe(1);
    const [deleted] = await arrivals(rx, h.path, "monitor.deleted");
    expect(verified(deleted!, h.secret, "monitor.deleted").data).toMatchObject({ id: m, deleted: true });

    expect((await c.get(`/maintenance/${window.id}`)).body.monitorIds).toEqual([]);
    const [component] = (await c.get(`/statuspage/${page}`)).body.components;
    expect(component).toMatchObject({ name: "API", manualState: "down", state: "down" });
    expect(component.monitorId ?? null).toBeNull();
    expect((await c.get(`/monitor/incident/${down.incidentId}`)).status).toBe(404);
    // No reminder for the deleted monitor; the window (now covering nothing) still ends for an all-scope hook.
    await sb.advance(3600);
    const [ended] = await arrivals(rx, h.path, "maintenance.ended");
    expect(verified(ended!, h.secret, "maintenance.ended").data).toMatchObject({ monitorIds: [] });
    await sb.settle();
    expect(eventsAt(rx, h.path).sort()).toEqual(["maintenance.ended", "monitor.deleted"]);
  });

  it("maintenance.ended lists only the covered monitors inside a tag-scoped webhook's scope", async () => {
    const c = await sb.account();
    const tagged = await monitor(c);
    const untagged = await monitor(c);
    expect((await c.patch(`/monitor/${tagged}`, { tags: ["edge"] })).status).toBe(200);
    const byTag = await hook(c, rx, { events: ["maintenance.ended"], scope: { tags: ["edge"] } });
    const now = await sb.advance(1);
    await c.post("/maintenance", { name: "both", from: now, to: now + 60, monitorIds: [tagged, untagged] });
    await sb.advance(60);
    const [ended] = await arrivals(rx, byTag.path, "maintenance.ended");
    expect(verified(ended!, byTag.secret, "maintenance.ended").data.monitorIds).toEqual([tagged]);
  });

  it("a job whose callback webhook is deleted while it runs still finishes, and nothing is sent", async () => {
    const c = await sb.account({ plan: "enterprise" });
    const callback = await hook(c, rx, { events: ["monitor.created"] });
    const items = Array.from({ length: 200 }, () => monitorBody());
    const job = await c.post(
      "/monitor/bulk",
      { items, callback: { webhookId: callback.id, on: "progress" } },
      key(),
    );
    expect(job.status, job.text).toBe(202);
    expect((await c.delete(`/webhook/${callback.id}`)).status).toBe(200);
    expect((await settle(c, job.body.jobId)).body).toMatchObject({
      state: "succeeded",
      summary: { created: 200 },
    });
    await sb.settle();
    expect(rx.received(callback.path).filter((r) => r.body.event === "job.completed")).toEqual([]);
  });
});
