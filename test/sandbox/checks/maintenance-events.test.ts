import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reminderIntervalSec } from "../../../src/kinds/index.ts";
import { createApp } from "../../../src/sandbox/core/app.ts";
import { SandboxState } from "../../../src/sandbox/core/state.ts";
import { allOperations } from "../../../src/sandbox/operations.ts";
import { createAccount } from "../../../src/sandbox/resources/accounts.ts";
import { mintOwnerToken } from "../../../src/sandbox/resources/admin.ts";
import type { MaintenanceDoc } from "../../../src/sandbox/resources/maintenance/model.ts";
import type { DeliveryDoc } from "../../../src/sandbox/resources/webhooks/deliveries.ts";
import type { WebhookDoc } from "../../../src/sandbox/resources/webhooks/model.ts";
import { backgroundTasks } from "../../../src/sandbox/tasks.ts";

/**
 * In process, because maintenance windows and webhooks have no routes on this
 * branch: the test puts their documents straight into the store, and drives
 * everything else through the real routes (`inject`).
 */
let state: SandboxState;
let app: FastifyInstance;
let accountId: string;
let token: string;

beforeAll(() => {
  // The clock moves only when the test moves it: the margins below are exact, whatever the machine's load.
  state = new SandboxState(undefined, { allowInsecureWebhooks: false, manualClock: true });
  app = createApp(state, allOperations());
  state.background.start(backgroundTasks(), 60_000);
  accountId = createAccount(state.store, state.clock.now(), { metered: false }).id;
  token = mintOwnerToken(state.tokens, accountId, state.clock.now());
});
afterAll(async () => {
  await state.background.stop();
  await app.close();
});

async function call(method: "GET" | "POST" | "PUT", url: string, payload?: unknown, admin = false) {
  const res = await app.inject({
    method,
    url,
    payload: payload as object,
    headers: { authorization: `Bearer ${admin ? state.services.adminToken : token}` },
  });
  return { status: res.statusCode, body: res.json() };
}
const advance = async (advanceSec: number) =>
  (await call("POST", "/_sandbox/clock", { advanceSec }, true)).body.now as number;
/** Sets the sandbox clock to `at` (Unix seconds). */
const setClock = async (at: number) =>
  (await call("POST", "/_sandbox/clock", { now: at }, true)).body.now as number;
const outcome = (id: string, state: "up" | "down") =>
  call("POST", `/_sandbox/monitor/${id}/outcome`, { state }, true);

async function monitorWithContact(path: string) {
  const m = await call("POST", "/monitor", {
    type: "http",
    url: `https://example.com/${path}`,
    locations: { pools: ["allworld"] },
  });
  expect(m.status).toBe(201);
  const c = await call("POST", "/contact", { type: "http", address: `https://hooks.example.com/${path}` });
  expect(c.status).toBe(201);
  const sub = await call("PUT", `/monitor/${m.body.id}/alert/${c.body.id}`, {
    alertTypes: ["down", "up", "repeatedlyDown"],
  });
  expect(sub.status).toBeLessThan(300);
  return { monitorId: m.body.id as string, contactId: c.body.id as string };
}

function putWindow(monitorId: string, from: number, to: number, suppressAlerts = true): MaintenanceDoc {
  const now = state.clock.now();
  return state.store.put<MaintenanceDoc>("maintenance", {
    id: `mw-${monitorId}`,
    accountId,
    name: "Planned work",
    from,
    to,
    monitorIds: [monitorId],
    repeat: "none",
    suppressAlerts,
    excludeFromStats: true,
    showOnStatusPage: false,
    endedThrough: null,
    created: now,
    updated: now,
    syncSeq: 0,
  });
}

const alerts = async (contactId: string) =>
  (await call("GET", `/contact/${contactId}/notification?sort=time:asc`)).body.data.map(
    (n: any) => `${n.kind} ${n.event}`,
  );

describe("maintenance windows", () => {
  it("hold alerts back while suppressing them, and release what is due when the window ends", async () => {
    const { monitorId, contactId } = await monitorWithContact("held");
    const now = state.clock.now();
    putWindow(monitorId, now, now + 3600);
    const down = await outcome(monitorId, "down");
    expect(down.status).toBe(200);
    const incident = await call("GET", `/monitor/incident/${down.body.incidentId}`);
    // The incident opens inside maintenance and says so; the monitor reads `maintenance`.
    expect(incident.body).toMatchObject({ state: "open", underMaintenance: true });
    expect((await call("GET", `/monitor/${monitorId}`)).body.state).toBe("maintenance");
    await advance(3598);
    expect(await alerts(contactId)).toEqual([]);
    // The window ends with the monitor still down: the held alert goes out at once.
    await advance(2);
    expect(await alerts(contactId)).toEqual(["alert down"]);
    // Reminder tiers that passed inside the window were skipped, not saved up.
    await advance(reminderIntervalSec - 3);
    expect(await alerts(contactId)).toEqual(["alert down"]);
  });

  it("send nothing when the monitor recovers inside the window; a window that does not suppress alerts holds nothing", async () => {
    const held = await monitorWithContact("recovered");
    const now = state.clock.now();
    putWindow(held.monitorId, now, now + 600);
    await outcome(held.monitorId, "down");
    await advance(300);
    await outcome(held.monitorId, "up");
    await advance(600);
    expect(await alerts(held.contactId)).toEqual([]);

    const open = await monitorWithContact("statsonly");
    const at = state.clock.now();
    putWindow(open.monitorId, at, at + 600, false);
    await outcome(open.monitorId, "down");
    expect(await alerts(open.contactId)).toEqual(["alert down"]);
  });
});

describe("engine events", () => {
  it("queue retried deliveries for every engine event a subscribed webhook asks for", async () => {
    const { monitorId } = await monitorWithContact("events");
    const now = state.clock.now();
    state.store.put<WebhookDoc>("webhook", {
      id: "wh-checks",
      accountId,
      url: "https://receiver.example.com/hook",
      events: ["monitor.down", "monitor.up", "monitor.repeatedlyDown", "incident.opened", "incident.closed"],
      scope: { monitorIds: [monitorId] },
      name: null,
      headers: [],
      secret: "whsec_checks-test-secret",
      secretUpdatedAt: now,
      previousSecret: null,
      previousValidUntil: null,
      enabled: true,
      consecutiveFailures: 0,
      disabledReason: null,
      lastDeliveryAt: null,
      failingSince: null,
      created: now,
      updated: now,
      syncSeq: 0,
    });
    const down = (await outcome(monitorId, "down")).body;
    const start = state.store.get<{ id: string; accountId: string; start: number }>(
      "incident",
      down.incidentId,
    )!.start;
    expect(start).toBe(now);
    await setClock(start + reminderIntervalSec);
    await outcome(monitorId, "down");
    await setClock(start + reminderIntervalSec + 60);
    await outcome(monitorId, "up");

    const deliveries = state.store
      .all<DeliveryDoc>("webhookDelivery", accountId)
      .filter((d) => d.webhookId === "wh-checks")
      .sort((a, b) => a.occurredAt - b.occurredAt || a.event.localeCompare(b.event));
    expect(deliveries.map((d) => d.event)).toEqual([
      "incident.opened",
      "monitor.down",
      "monitor.repeatedlyDown",
      "incident.closed",
      "monitor.up",
    ]);
    expect(deliveries.every((d) => d.maxAttempts === 6 && d.resourceId === down.incidentId)).toBe(true);
    const data = Object.fromEntries(deliveries.map((d) => [d.event, JSON.parse(d.payload!).data]));
    expect(data["incident.opened"]).toEqual({
      incidentId: down.incidentId,
      monitorId,
      start,
      cause: "timeout",
      underMaintenance: false,
    });
    expect(data["monitor.down"]).toMatchObject({
      monitor: { id: monitorId, type: "http", url: "https://example.com/events" },
      state: "down",
      failedAt: start,
      error: { codename: "timeout" },
    });
    expect(data["monitor.down"].recheck).toHaveLength(3);
    expect(data["monitor.repeatedlyDown"]).toMatchObject({
      state: "down",
      recheck: [],
      downtimeSec: reminderIntervalSec,
      failedChecks: 1,
    });
    expect(data["incident.closed"]).toMatchObject({
      end: start + reminderIntervalSec + 60,
      durationSec: reminderIntervalSec + 60,
      checkCount: 2,
    });
    expect(data["monitor.up"]).toMatchObject({
      state: "up",
      firstFailedAt: start,
      lastFailedAt: start + reminderIntervalSec,
      failedChecks: 2,
      downtimeSec: reminderIntervalSec + 60,
    });
  });
});
