import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillPath } from "../../src/api/calls.ts";
import { ApiError } from "../../src/api/errors.ts";
import { operations } from "../../src/api/operations.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { accountCaller } from "./caller.ts";

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});

const monitorBody = () => ({
  type: "http" as const,
  url: `https://example.com/${randomUUID()}`,
  locations: { pools: ["allworld"] },
});

async function notFound(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(404);
}

describe("typed operations", () => {
  it("fills path templates, encoding each parameter", () => {
    expect(fillPath("/monitor/{id}/alert/{contactId}", ["a b", "c/d"])).toBe("/monitor/a%20b/alert/c%2Fd");
    expect(() => fillPath("/monitor/{id}", [])).toThrow(/missing/);
  });

  it("monitors: create, get with fields, update, delete; routes and quota classes", async () => {
    const caller = await accountCaller(sb);
    const ops = operations(caller);
    const created = await ops.monitor.create({ ...monitorBody(), name: "one", tags: ["a"] });
    expect(created.name).toBe("one");
    const read = await ops.monitor.get(created.id as string, { fields: ["name"] });
    expect(Object.keys(read).sort()).toEqual(["id", "name"]);
    const updated = await ops.monitor.update(created.id as string, { addTags: ["b"] });
    expect(updated.tags?.sort()).toEqual(["a", "b"]);
    await ops.monitor.delete(created.id as string);
    await notFound(ops.monitor.get(created.id as string));
    expect(caller.specs.slice(0, 5).map((s) => [s.route, s.quotaClass, s.path])).toEqual([
      ["POST /monitor", "write", "/monitor"],
      ["GET /monitor/{id}", "read", `/monitor/${created.id}`],
      ["PATCH /monitor/{id}", "write", `/monitor/${created.id}`],
      ["DELETE /monitor/{id}", "write", `/monitor/${created.id}`],
      ["GET /monitor/{id}", "read", `/monitor/${created.id}`],
    ]);
  });

  it("contacts and contact groups", async () => {
    const ops = operations(await accountCaller(sb));
    const contact = await ops.contact.create({
      type: "http",
      address: `https://example.com/${randomUUID()}`,
    });
    const renamed = await ops.contact.update(contact.id as string, { name: "ops hook" });
    expect(renamed.name).toBe("ops hook");
    expect((await ops.contact.get(contact.id as string)).name).toBe("ops hook");

    const group = await ops.contactGroup.create({
      name: "on call",
      members: [{ contactId: contact.id as string, events: ["down"] }],
    });
    expect(group.members).toEqual([{ contactId: contact.id, events: ["down"] }]);
    expect((await ops.contactGroup.all()).map((g) => g.id)).toEqual([group.id]);
    await ops.contactGroup.delete(group.id as string);
    await ops.contact.delete(contact.id as string);
    await notFound(ops.contact.get(contact.id as string));
  });

  it("alert and report subscriptions: nested PUT, GET, DELETE and the flat lists", async () => {
    const ops = operations(await accountCaller(sb));
    const monitor = await ops.monitor.create(monitorBody());
    const contact = await ops.contact.create({
      type: "http",
      address: `https://example.com/${randomUUID()}`,
    });
    const [m, c] = [monitor.id as string, contact.id as string];

    const alert = await ops.alertSubscription.ofMonitor.put(m, c, { alertTypes: ["down", "up"] });
    expect(alert).toMatchObject({ monitorId: m, contactId: c });
    expect((await ops.alertSubscription.ofContact.get(c, m)).alertTypes?.sort()).toEqual(["down", "up"]);
    expect((await ops.alertSubscription.ofMonitor.list(m).all()).map((s) => s.contactId)).toEqual([c]);
    const flat = await ops.alertSubscription.list.all({ filters: { monitor: m } });
    expect(flat).toHaveLength(1);
    expect((await ops.alertSubscription.get(flat[0]?.id as string)).contactId).toBe(c);
    await ops.alertSubscription.ofMonitor.delete(m, c);
    expect(await ops.alertSubscription.list.all()).toEqual([]);

    // Reports go to email contacts only.
    const email = await ops.contact.create({ type: "email", address: `${randomUUID()}@example.com` });
    const e = email.id as string;
    const report = await ops.reportSubscription.ofContact.put(e, m, { frequencies: ["weekly"] });
    expect(report.frequencies).toEqual(["weekly"]);
    expect((await ops.reportSubscription.list.all()).map((s) => s.monitorId)).toEqual([m]);
    await ops.reportSubscription.ofContact.clear(e);
    expect(await ops.reportSubscription.ofMonitor.list(m).all()).toEqual([]);
  });

  it("maintenance windows", async () => {
    const ops = operations(await accountCaller(sb));
    const monitor = await ops.monitor.create(monitorBody());
    const window = await ops.maintenance.create({
      name: "upgrade",
      from: 2_000_000_000,
      to: 2_000_003_600,
      monitorIds: [monitor.id as string],
    });
    expect(window).toMatchObject({ state: "scheduled", suppressAlerts: true });
    const moved = await ops.maintenance.update(window.id as string, { to: 2_000_007_200 });
    expect(moved.to).toBe(2_000_007_200);
    expect((await ops.monitor.maintenance(monitor.id as string).all()).map((w) => w.id)).toEqual([window.id]);
    expect((await ops.maintenance.all({ filters: { state: ["scheduled"] } })).map((w) => w.id)).toEqual([
      window.id,
    ]);
    await ops.maintenance.delete(window.id as string);
    await notFound(ops.maintenance.get(window.id as string));
  });

  it("status pages and their children; delete answers the cascade", async () => {
    const ops = operations(await accountCaller(sb));
    const monitor = await ops.monitor.create(monitorBody());
    const slug = `p-${randomUUID().slice(0, 8)}`;
    const page = await ops.statusPage.create({ slug, title: "Status" });
    const id = page.id as string;
    const withComponents = await ops.statusPage.putComponents(id, {
      components: [
        { name: "API", monitorId: monitor.id as string },
        { name: "Support", manualState: "operational" },
      ],
    });
    const componentIds = (withComponents.components ?? []).map((c) => c.id as string);
    expect(componentIds).toHaveLength(2);
    expect((await ops.statusPage.update(id, { title: "Status!" })).title).toBe("Status!");

    const incident = await ops.statusPage.incidents.create(id, {
      title: "Slow API",
      message: "Looking into it",
      componentIds: [componentIds[0] as string],
    });
    const posted = await ops.statusPage.incidents.post(id, incident.id as string, {
      message: "Fixed",
      state: "resolved",
    });
    expect(posted.state).toBe("resolved");
    expect(posted.timeline?.map((t) => t.message)).toEqual(["Looking into it", "Fixed"]);
    expect(
      (await ops.statusPage.incidents.update(id, incident.id as string, { impact: "major" })).impact,
    ).toBe("major");
    expect((await ops.statusPage.incidents.list(id).all()).map((i) => i.id)).toEqual([incident.id]);

    const template = await ops.statusPageTemplate.create(id, { title: "Outage", message: "We are on it" });
    expect((await ops.statusPageTemplate.get(id, template.id as string)).title).toBe("Outage");
    const subscriber = await ops.statusPage.subscribers.create(id, {
      kind: "webhook",
      url: "https://example.com/subscriber",
    });
    expect((await ops.statusPage.subscribers.list(id).all()).map((s) => s.id)).toEqual([subscriber.id]);

    const receipt = await ops.statusPage.delete(id);
    expect(receipt.cascaded.components.sort()).toEqual(componentIds.sort());
    expect(receipt.cascaded.incidents).toEqual([incident.id]);
    expect(receipt.cascaded.templates).toEqual([template.id]);
    expect(receipt.cascaded.subscribers).toEqual([subscriber.id]);
    await notFound(ops.statusPage.get(id));
  });

  it("webhooks: the secret once, masked later, rotation, deliveries", async () => {
    const ops = operations(await accountCaller(sb));
    const hook = await ops.webhook.create({
      url: `https://example.com/${randomUUID()}`,
      events: ["monitor.created"],
      scope: { all: true },
    });
    expect(hook.secret).toEqual(expect.stringMatching(/^whsec_/));
    expect((await ops.webhook.get(hook.id as string)).secret).toMatchObject({ set: true });
    const rotated = await ops.webhook.rotateSecret(hook.id as string);
    expect(rotated.secret).toEqual(expect.stringMatching(/^whsec_/));
    expect(rotated.secret).not.toEqual(hook.secret);
    expect((await ops.webhook.update(hook.id as string, { name: "events" })).name).toBe("events");
    expect(await ops.webhook.deliveries(hook.id as string).all()).toEqual(expect.any(Array));
    await ops.webhook.delete(hook.id as string);
    await notFound(ops.webhook.get(hook.id as string));
  });

  it("account, quota and catalogues (anonymous)", async () => {
    const caller = await accountCaller(sb);
    const ops = operations(caller);
    expect(await ops.account.get()).toMatchObject({ limits: expect.any(Object) });
    expect(await ops.account.quota()).toEqual(expect.any(Object));
    caller.specs.length = 0;
    const types = await ops.catalogue.monitorTypes();
    expect(JSON.stringify(types)).toContain("http");
    expect(JSON.stringify(await ops.catalogue.agentPools())).toContain("allworld");
    expect((await ops.catalogue.agents.page({ limit: 2 })).data).toHaveLength(2);
    expect(caller.specs.every((s) => s.quotaClass === "anonymous")).toBe(true);
  });
});
