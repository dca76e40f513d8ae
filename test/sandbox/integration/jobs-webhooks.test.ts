import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "../../helpers/sandbox.ts";
import { closeWithReceiver, type Receiver, startWithReceiver } from "../webhooks/receiver.ts";
import { arrivals, eventsAt, hook, key, monitorBody, settle, verified } from "./helpers.ts";

/** Bulk jobs emit per-monitor events and job callbacks to a real receiver, over HTTP only. */
let sb: TestSandbox;
let rx: Receiver;
// The sandbox clock moves only when a test moves it: a duration asserted is the one advanced, on any machine.
beforeAll(async () => ({ sb, rx } = await startWithReceiver({ manualClock: true })));
afterAll(() => closeWithReceiver(sb, rx));

describe("jobs → webhooks", () => {
  it("a bulk create delivers job.progress and job.completed to the callback, and monitor.created per monitor", async () => {
    const c = await sb.account();
    const tag = `bulk-${randomUUID().slice(0, 8)}`;
    const events = await hook(c, rx, { events: ["monitor.created", "monitor.deleted"] });
    // The callback webhook subscribes to something else: callbacks go to it whatever it subscribes to.
    const callback = await hook(c, rx, { events: ["contact.updated"] });
    const items = [monitorBody({ tags: [tag] }), monitorBody({ tags: [tag] }), monitorBody({ tags: [tag] })];
    const res = await c.post(
      "/monitor/bulk",
      { items, callback: { webhookId: callback.id, on: "progress" } },
      key(),
    );
    expect(res.status, res.text).toBe(202);
    const jobId = res.body.jobId as string;
    const job = await settle(c, jobId);
    expect(job.body).toMatchObject({ state: "succeeded", summary: { created: 3 } });
    const ids = job.body.results.map((r: any) => r.entityId).sort();

    const [completed] = await arrivals(rx, callback.path, "job.completed");
    const envelope = verified(completed!, callback.secret, "job.completed");
    expect(envelope.data).toMatchObject({
      jobId,
      kind: "monitor.bulkCreate",
      state: "succeeded",
      progress: { done: 3, total: 3 },
      resultsTruncated: false,
    });
    expect(envelope.data.results.map((r: any) => r.entityId).sort()).toEqual(ids);
    const progress = rx.received(callback.path).filter((r) => r.body.event === "job.progress");
    expect(progress.length).toBeGreaterThanOrEqual(1);
    // Deliveries go out concurrently, so arrival order is not promised; occurrence order is.
    for (const p of progress) {
      const sent = verified(p, callback.secret, "job.progress");
      expect(sent.data.jobId).toBe(jobId);
      expect(sent.occurredAt).toBeLessThanOrEqual(envelope.occurredAt);
    }
    // The callback hook gets no monitor events.
    expect(eventsAt(rx, callback.path).every((e) => e.startsWith("job."))).toBe(true);

    const created = await arrivals(rx, events.path, "monitor.created", 3);
    expect(created.map((r) => verified(r, events.secret, "monitor.created").data.id).sort()).toEqual(ids);

    // Two-phase delete: monitor.deleted per monitor.
    const filter = { tag: [tag] };
    const preview = await c.post("/monitor/bulk-delete-validate", { filter });
    expect(preview.body.matched).toBe(3);
    const del = await c.post("/monitor/bulk-delete", { filter, expectedCount: 3 }, key());
    expect(del.status, del.text).toBe(202);
    expect((await settle(c, del.body.jobId)).body).toMatchObject({
      state: "succeeded",
      summary: { deleted: 3 },
    });
    const deleted = await arrivals(rx, events.path, "monitor.deleted", 3);
    const receipts = deleted.map((r) => verified(r, events.secret, "monitor.deleted").data);
    expect(receipts.map((d) => d.id).sort()).toEqual(ids);
    for (const d of receipts) expect(d).toMatchObject({ deleted: true, type: "http" });
    expect((await c.get(`/monitor?tag=${tag}`)).body.data).toEqual([]);
  });
});
