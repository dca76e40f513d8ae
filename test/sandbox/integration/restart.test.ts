import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contact, monitor } from "../../helpers/fixtures.ts";
import { Client, startTestSandbox } from "../../helpers/sandbox.ts";
import { Receiver } from "../webhooks/receiver.ts";
import {
  arrivals,
  deliveries,
  eventually,
  hook,
  key,
  monitorBody,
  outcome,
  settle,
  verified,
} from "./helpers.ts";

/** Restarting on the same data file keeps what every part of issue 3 stored, and pending retries still go out. */
let dir: string;
let rx: Receiver;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vigil-integration-"));
  rx = await new Receiver().start();
});
afterAll(async () => {
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
});

it("keeps webhooks, deliveries, windows, status pages, incidents, spans and jobs; a pending retry goes out", async () => {
  const dataFile = join(dir, "state.db");
  const first = await startTestSandbox({ dataFile, allowInsecureWebhooks: true });
  const c1 = await first.account({ plan: "enterprise" });
  const m = await monitor(c1);
  const contactId = await contact(c1, { type: "http", address: "https://hooks.example.com/restart" });
  const ok = await hook(c1, rx, { events: ["monitor.created", "incident.opened"] });
  const failing = await hook(c1, rx, { events: ["incident.opened"], scope: { monitorIds: [m] } }, () => ({
    status: 503,
  }));

  // Deliveries, an incident and its spans, and a retry waiting on the ladder.
  await first.advance(60);
  const down = await outcome(first, m, "down");
  await arrivals(rx, ok.path, "incident.opened");
  await rx.waitFor(failing.path, 1);
  const pending = await eventually(async () => {
    const [d] = await deliveries(c1, failing.id);
    return d?.attempts.length === 1 ? d : undefined;
  });
  expect(pending.outcome).toBe("pending");

  // A maintenance window, a status page with every kind of child, a finished job.
  const now = await first.advance(1);
  const window = (
    await c1.post("/maintenance", { name: "Later", from: now + 3600, to: now + 7200, monitorIds: [m] })
  ).body;
  const page = (await c1.post("/statuspage", { slug: `restart-${Date.now()}`, title: "Kept" })).body;
  const components = (
    await c1.put(`/statuspage/${page.id}/component`, { components: [{ name: "API", monitorId: m }] })
  ).body.components;
  const incident = await c1.post(
    `/statuspage/${page.id}/incident`,
    { title: "Slow", message: "Looking", componentIds: [components[0].id] },
    key(),
  );
  expect(incident.status, incident.text).toBe(201);
  const subscriber = await c1.post(`/statuspage/${page.id}/subscriber`, {
    kind: "slack",
    url: "https://hooks.slack.example.com/x",
  });
  expect(subscriber.status, subscriber.text).toBe(201);
  const template = await c1.post(`/statuspage/${page.id}/template`, { title: "T", message: "M" });
  expect(template.status, template.text).toBe(201);
  const job = await c1.post("/monitor/bulk", { items: [monitorBody()] }, key());
  const finished = (await settle(c1, job.body.jobId)).body;

  const delivered = await eventually(async () => {
    const rows = await deliveries(c1, ok.id);
    return rows.length === 2 && rows.every((d) => d.outcome === "delivered") ? rows : undefined;
  });
  const before = {
    webhook: (await c1.get(`/webhook/${ok.id}`)).body,
    window: (await c1.get(`/maintenance/${window.id}`)).body,
    page: (await c1.get(`/statuspage/${page.id}`)).body,
    incident: (await c1.get(`/statuspage/${page.id}/incident/${incident.body.id}`)).body,
    subscribers: (await c1.get(`/statuspage/${page.id}/subscriber`)).body.data,
    templates: (await c1.get(`/statuspage/${page.id}/template`)).body.data,
    monitorIncident: (await c1.get(`/monitor/incident/${down.incidentId}`)).body,
    spans: (await c1.get(`/monitor/${m}/span`)).body.data,
    contact: (await c1.get(`/contact/${contactId}`)).body,
  };
  await first.close();

  const second = await startTestSandbox({ dataFile, allowInsecureWebhooks: true });
  try {
    const c = new Client(second.url, c1.token);
    expect((await c.get(`/webhook/${ok.id}`)).body).toEqual(before.webhook);
    expect((await c.get(`/maintenance/${window.id}`)).body).toEqual(before.window);
    // The page's public address follows the new sandbox's base URL; everything else is kept.
    expect((await c.get(`/statuspage/${page.id}`)).body).toEqual({
      ...before.page,
      publicUrl: `${second.url}/status/${page.slug}`,
    });
    expect((await c.get(`/statuspage/${page.id}/incident/${incident.body.id}`)).body).toEqual(
      before.incident,
    );
    expect((await c.get(`/statuspage/${page.id}/subscriber`)).body.data).toEqual(before.subscribers);
    expect((await c.get(`/statuspage/${page.id}/template`)).body.data).toEqual(before.templates);
    expect((await c.get(`/monitor/incident/${down.incidentId}`)).body).toEqual(before.monitorIncident);
    const spans = (await c.get(`/monitor/${m}/span`)).body.data;
    expect(spans.map((s: any) => ({ ...s, durationSec: 0 }))).toEqual(
      before.spans.map((s: any) => ({ ...s, durationSec: 0 })),
    );
    expect((await c.get(`/contact/${contactId}`)).body).toEqual(before.contact);
    const jobAfter = (await c.get(`/job/${job.body.jobId}`)).body;
    expect(jobAfter).toEqual(finished);
    expect(await deliveries(c, ok.id)).toEqual(delivered);

    // The stored secret still signs.
    await monitor(c);
    const [created] = await arrivals(rx, ok.path, "monitor.created");
    verified(created!, ok.secret, "monitor.created");

    // The retry pending at the close goes out once due, and is delivered.
    rx.answer(failing.path, () => ({ status: 200 }));
    await second.advance(15);
    const [, retried] = await rx.waitFor(failing.path, 2);
    expect(retried!.headers["svc-attempt"]).toBe("2");
    expect(verified(retried!, failing.secret, "incident.opened").id).toBe(pending.id);
    const done = await eventually(async () => {
      const [d] = await deliveries(c, failing.id);
      return d?.outcome === "delivered" ? d : undefined;
    });
    expect(done.attempts.map((a: any) => a.statusCode)).toEqual([503, 200]);

    // The window still follows the clock.
    await second.advance(3600);
    expect((await c.get(`/maintenance/${window.id}`)).body.state).toBe("active");
    expect((await c.get(`/monitor/${m}`)).body.state).toBe("maintenance");
  } finally {
    await second.close();
  }
});

it("a job interrupted by the restart delivers its job.completed callback once resumed", async () => {
  const dataFile = join(dir, "job.db");
  const first = await startTestSandbox({ dataFile, allowInsecureWebhooks: true });
  const c1 = await first.account({ plan: "enterprise" });
  const callback = await hook(c1, rx, { events: ["monitor.deleted"] });
  // Each item commits to the file on its own: far more than can finish before the close.
  const items = Array.from({ length: 300 }, () => monitorBody());
  const job = await c1.post("/monitor/bulk", { items, callback: { webhookId: callback.id } }, key());
  expect(job.status, job.text).toBe(202);
  await first.close();

  const second = await startTestSandbox({ dataFile, allowInsecureWebhooks: true });
  try {
    const c = new Client(second.url, c1.token);
    expect((await c.get(`/job/${job.body.jobId}`)).body.state).toBe("interrupted");
    expect(rx.received(callback.path)).toEqual([]);
    expect((await c.post(`/job/${job.body.jobId}/resume`, undefined, key())).status).toBe(202);
    expect((await settle(c, job.body.jobId)).body.state).toBe("succeeded");
    const [completed] = await arrivals(rx, callback.path, "job.completed");
    expect(verified(completed!, callback.secret, "job.completed").data).toMatchObject({
      jobId: job.body.jobId,
      state: "succeeded",
      progress: { done: 300, total: 300 },
      resultsTruncated: true,
    });
    expect(rx.received(callback.path)).toHaveLength(1);
  } finally {
    await second.close();
  }
});
