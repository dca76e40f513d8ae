import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/sandbox/core/app.ts";
import { SandboxState, systemCtx } from "../../../src/sandbox/core/state.ts";
import { allOperations } from "../../../src/sandbox/operations.ts";
import { createAccount } from "../../../src/sandbox/resources/accounts.ts";
import { mintOwnerToken } from "../../../src/sandbox/resources/admin.ts";
import { maintenanceEndTask } from "../../../src/sandbox/resources/maintenance/events.ts";
import { detachMonitorFromWindows } from "../../../src/sandbox/resources/maintenance/model.ts";
import type { DeliveryDoc } from "../../../src/sandbox/resources/webhooks/deliveries.ts";
import type { WebhookDoc, WebhookScope } from "../../../src/sandbox/resources/webhooks/model.ts";
import { monitor } from "../../helpers/fixtures.ts";
import { Client } from "../../helpers/sandbox.ts";

/**
 * `maintenance.ended`. No webhook routes exist on this branch, so this suite
 * serves the real app in-process (same pipeline, operations and background
 * timer), stores webhooks directly, and reads the queued deliveries from the
 * store. Everything else goes over HTTP.
 */
interface Instance {
  state: SandboxState;
  app: FastifyInstance;
  client: Client;
  admin: Client;
  accountId: string;
}

async function start(dataFile?: string, accountId?: string): Promise<Instance> {
  const state = new SandboxState(dataFile);
  const now = state.clock.now();
  const id = accountId ?? createAccount(state.store, now, { metered: false }).id;
  const app = createApp(state, allOperations());
  await app.listen({ host: "127.0.0.1", port: 0 });
  state.baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  // Only the timer under test: no delivery worker touches the queued deliveries.
  state.background.start([maintenanceEndTask]);
  return {
    state,
    app,
    client: new Client(state.baseUrl, mintOwnerToken(state.tokens, id, now)),
    admin: new Client(state.baseUrl, state.services.adminToken),
    accountId: id,
  };
}

async function stop(i: Instance) {
  await i.app.close();
  await i.state.background.stop();
  i.state.store.close();
}

let sb: Instance;
beforeAll(async () => {
  sb = await start();
});
afterAll(() => stop(sb));

const hour = 3600;
const week = 7 * 86400;
const advance = async (i: Instance, s: number) =>
  (await i.admin.post("/_sandbox/clock", { advanceSec: s })).body.now as number;

let hooks = 0;
function webhook(i: Instance, scope: WebhookScope, events = ["maintenance.ended"]): string {
  const id = `wh-${++hooks}`;
  i.state.store.put<WebhookDoc>("webhook", {
    id,
    accountId: i.accountId,
    url: `https://hooks.example.com/${id}`,
    events: events as WebhookDoc["events"],
    scope,
    name: null,
    headers: [],
    secret: "whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=",
    secretUpdatedAt: 0,
    previousSecret: null,
    previousValidUntil: null,
    enabled: true,
    consecutiveFailures: 0,
    disabledReason: null,
    lastDeliveryAt: null,
    failingSince: null,
    created: 0,
    updated: 0,
    syncSeq: 0,
  });
  return id;
}

/** The `maintenance.ended` deliveries queued for one webhook, oldest first, as sent. */
function ended(i: Instance, webhookId: string) {
  return i.state.store
    .all<DeliveryDoc>("webhookDelivery", i.accountId)
    .filter((d) => d.webhookId === webhookId && d.event === "maintenance.ended")
    .sort((a, b) => a.occurredAt - b.occurredAt)
    .map((d) => ({
      ...(JSON.parse(d.payload!) as { data: Record<string, unknown> }),
      maxAttempts: d.maxAttempts,
    }));
}

/** Each test gets its own account so webhooks and windows never mix. */
async function fresh(i: Instance) {
  const accountId = createAccount(i.state.store, i.state.clock.now(), { metered: false }).id;
  return {
    ...i,
    accountId,
    client: new Client(i.state.baseUrl, mintOwnerToken(i.state.tokens, accountId, i.state.clock.now())),
  };
}

describe("maintenance.ended on schedule", () => {
  it("fires once when to is reached, endedEarly false, retried", async () => {
    const i = await fresh(sb);
    const hook = webhook(i, { all: true });
    const m = await monitor(i.client);
    const t = await advance(i, 0);
    const w = (
      await i.client.post("/maintenance", { name: "Deploy", from: t, to: t + hour, monitorIds: [m] })
    ).body;
    expect(ended(i, hook)).toEqual([]);
    await advance(i, hour);
    await advance(i, hour);
    const sent = ended(i, hook);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      event: "maintenance.ended",
      occurredAt: t + hour,
      apiVersion: "v2",
      maxAttempts: 6,
      data: {
        maintenanceId: w.id,
        name: "Deploy",
        from: t,
        to: t + hour,
        endedAt: t + hour,
        endedEarly: false,
        monitorIds: [m],
      },
    });
  });

  it("a weekly window ends each occurrence exactly once, even across a jump of weeks", async () => {
    const i = await fresh(sb);
    const hook = webhook(i, { all: true });
    const t = await advance(i, 0);
    await i.client.post("/maintenance", { name: "w", from: t + 60, to: t + 120, repeat: "weekly" });
    await advance(i, 3 * week);
    await advance(i, 1);
    const sent = ended(i, hook).map((d) => [d.data.from, d.data.to]);
    expect(sent).toEqual([
      [t + 60, t + 120],
      [t + 60 + week, t + 120 + week],
      [t + 60 + 2 * week, t + 120 + 2 * week],
    ]);
  });

  it("a window created already over never fires", async () => {
    const i = await fresh(sb);
    const hook = webhook(i, { all: true });
    const t = await advance(i, 0);
    await i.client.post("/maintenance", { name: "old", from: t - 2 * hour, to: t - hour });
    await i.client.post("/maintenance", {
      name: "oldWeekly",
      from: t - week - hour,
      to: t - week,
      repeat: "weekly",
    });
    await advance(i, 60);
    expect(ended(i, hook)).toEqual([]);
  });

  it("fires after a restart for an end passed while stopped", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vigil-maint-"));
    const file = join(dir, "state.db");
    try {
      const first = await start(file);
      const t = await advance(first, 0);
      const created = await first.client.post("/maintenance", { name: "r", from: t, to: t + hour });
      const hook = webhook(first, { all: true });
      const accountId = first.accountId;
      // The end passes while nothing runs: no timer may see it before the restart.
      await first.state.background.stop();
      first.state.clock.advance(2 * hour);
      await stop(first);
      const second = await start(file, accountId);
      try {
        await advance(second, 0);
        const sent = ended(second, hook);
        expect(sent).toHaveLength(1);
        expect(sent[0]!.data).toMatchObject({
          maintenanceId: created.body.id,
          endedAt: t + hour,
          endedEarly: false,
        });
        await advance(second, 1);
        expect(ended(second, hook)).toHaveLength(1);
      } finally {
        await stop(second);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("maintenance.ended cut short", () => {
  it("deleting an active window fires endedEarly true with one attempt; deleting a scheduled one fires nothing", async () => {
    const i = await fresh(sb);
    const hook = webhook(i, { all: true });
    const t = await advance(i, 0);
    const live = (await i.client.post("/maintenance", { name: "live", from: t - 60, to: t + hour })).body;
    const later = (await i.client.post("/maintenance", { name: "later", from: t + hour, to: t + 2 * hour }))
      .body;
    const receipt = await i.client.delete(`/maintenance/${live.id}`);
    expect(receipt.body).toMatchObject({ state: "active", endedEarly: true });
    await i.client.delete(`/maintenance/${later.id}`);
    const sent = ended(i, hook);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.maxAttempts).toBe(1);
    expect(sent[0]!.data).toMatchObject({
      maintenanceId: live.id,
      from: t - 60,
      to: t + hour,
      endedEarly: true,
    });
    expect(sent[0]!.data.endedAt).toBeGreaterThanOrEqual(t);
    await advance(i, 2 * hour);
    expect(ended(i, hook)).toHaveLength(1);
  });

  it("a PATCH of to to now, or moving the window away, ends it early once; extending it does not", async () => {
    const i = await fresh(sb);
    const hook = webhook(i, { all: true });
    const t = await advance(i, 0);
    const a = (await i.client.post("/maintenance", { name: "a", from: t - 60, to: t + hour })).body;
    const b = (await i.client.post("/maintenance", { name: "b", from: t - 60, to: t + hour })).body;
    expect((await i.client.patch(`/maintenance/${a.id}`, { to: t + 2 * hour })).body.state).toBe("active");
    expect(ended(i, hook)).toEqual([]);
    const cut = await i.client.patch(`/maintenance/${a.id}`, { to: t });
    expect(cut.body.state).toBe("finished");
    await i.client.patch(`/maintenance/${b.id}`, { from: t + week, to: t + week + hour });
    const sent = ended(i, hook);
    expect(sent.map((d) => [d.data.maintenanceId, d.data.endedEarly])).toEqual([
      [a.id, true],
      [b.id, true],
    ]);
    // Neither fires again: a is over, and b's new occurrence ends on schedule.
    await advance(i, 3 * hour);
    expect(ended(i, hook)).toHaveLength(2);
    await advance(i, week);
    expect(ended(i, hook).map((d) => [d.data.maintenanceId, d.data.endedEarly])).toEqual([
      [a.id, true],
      [b.id, true],
      [b.id, false],
    ]);
  });
});

describe("webhook scope", () => {
  it("names only the monitors in each webhook's scope, and skips webhooks covering none", async () => {
    const i = await fresh(sb);
    const [a, b] = [await monitor(i.client), await monitor(i.client)];
    const all = webhook(i, { all: true });
    const onlyA = webhook(i, { monitorIds: [a] });
    const elsewhere = webhook(i, { monitorIds: ["5f0c1c9e-0000-4000-8000-000000000000"] });
    const tagged = webhook(i, { tags: ["never"] });
    const other = webhook(i, { all: true }, ["monitor.created"]);
    const t = await advance(i, 0);
    const w = (
      await i.client.post("/maintenance", { name: "s", from: t - 1, to: t + 60, monitorIds: [a, b] })
    ).body;
    await i.client.delete(`/maintenance/${w.id}`);
    expect(ended(i, all)[0]!.data.monitorIds).toEqual([a, b]);
    expect(ended(i, onlyA)[0]!.data.monitorIds).toEqual([a]);
    expect(ended(i, elsewhere)).toEqual([]);
    expect(ended(i, tagged)).toEqual([]);
    expect(ended(i, other)).toEqual([]);
  });
});

describe("detachMonitorFromWindows", () => {
  it("removes a monitor from every window covering it, as an edit delta sync catches", async () => {
    const i = await fresh(sb);
    const [a, b] = [await monitor(i.client), await monitor(i.client)];
    const t = await advance(i, 0);
    const w1 = (await i.client.post("/maintenance", { name: "1", from: t, to: t + 60, monitorIds: [a, b] }))
      .body;
    const w2 = (await i.client.post("/maintenance", { name: "2", from: t, to: t + 60, monitorIds: [b] }))
      .body;
    const cursor = (await i.client.get("/maintenance")).body.syncCursor;
    const changed = i.state.store.transaction(() =>
      detachMonitorFromWindows(systemCtx(i.state, i.accountId), a),
    );
    expect(changed).toEqual([w1.id]);
    expect((await i.client.get(`/maintenance/${w1.id}`)).body.monitorIds).toEqual([b]);
    expect((await i.client.get(`/maintenance/${w2.id}`)).body.monitorIds).toEqual([b]);
    const delta = await i.client.get(`/maintenance?updatedSince=${encodeURIComponent(cursor)}`);
    expect(delta.body.data.map((x: { id: string }) => x.id)).toEqual([w1.id]);
  });
});
