import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/sandbox/core/app.ts";
import { SandboxState } from "../../../src/sandbox/core/state.ts";
import { allOperations } from "../../../src/sandbox/operations.ts";
import { createAccount } from "../../../src/sandbox/resources/accounts.ts";
import { mintOwnerToken } from "../../../src/sandbox/resources/admin.ts";
import { deliveryIndex } from "../../../src/sandbox/resources/webhooks/deliveries.ts";
import { monitor } from "../../helpers/fixtures.ts";
import type { TestSandbox } from "../../helpers/sandbox.ts";
import { closeWithReceiver, type Receiver, startWithReceiver } from "./receiver.ts";

const monitorBody = () => ({
  type: "http",
  url: `https://example.com/${randomUUID()}`,
  locations: { pools: ["allworld"] },
});
const manyMonitors = () => Array.from({ length: 25 }, monitorBody);

describe("dry runs with a subscribed webhook, over HTTP", () => {
  let sb: TestSandbox;
  let rx: Receiver;
  beforeAll(async () => ({ sb, rx } = await startWithReceiver()));
  afterAll(() => closeWithReceiver(sb, rx));

  it("a bulk validate and a dryRun create queue nothing and send nothing", async () => {
    const c = await sb.account();
    const target = rx.hook();
    const hook = await c.post("/webhook", {
      url: target.url,
      events: ["monitor.created"],
      scope: { all: true },
    });
    expect(hook.status, hook.text).toBe(201);

    const validate = await c.post("/monitor/bulk-validate", { items: manyMonitors() });
    expect(validate.status, validate.text).toBe(200);
    expect(validate.body).toEqual({ valid: 25, invalid: [] });
    const dry = await c.post("/monitor?dryRun=true", monitorBody());
    expect(dry.status, dry.text).toBe(200);
    expect((await c.get(`/webhook/${hook.body.id}/delivery`)).body.data).toEqual([]);

    // A real create afterwards is delivered, and is the only thing that ever arrives:
    // the worker sends earliest first, so anything the dry runs had queued would come before it.
    const monitorId = await monitor(c);
    const [got] = await rx.waitFor(target.path);
    expect(got!.body).toMatchObject({ event: "monitor.created", data: { id: monitorId } });
    await sb.settle();
    expect(rx.received(target.path)).toHaveLength(1);
    const deliveries = (await c.get(`/webhook/${hook.body.id}/delivery`)).body.data;
    expect(deliveries.map((d: any) => [d.event, d.resourceId])).toEqual([["monitor.created", monitorId]]);
  });
});

/**
 * In process, to look at the delivery index itself: a dry run must not leave
 * ids in it (they would fill the heap and the per-webhook sets with
 * deliveries that never existed). No background worker runs, so nothing
 * takes entries out of the index behind the test's back.
 */
describe("the delivery index after dry runs", () => {
  let state: SandboxState;
  let app: FastifyInstance;
  let token: string;
  beforeAll(() => {
    state = new SandboxState(undefined, { allowInsecureWebhooks: true });
    app = createApp(state, allOperations());
    const accountId = createAccount(state.store, state.clock.now(), { metered: false }).id;
    token = mintOwnerToken(state.tokens, accountId, state.clock.now());
  });
  afterAll(() => app.close());

  async function post(url: string, payload: unknown) {
    const res = await app.inject({
      method: "POST",
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.statusCode, body: res.json() };
  }

  it("holds only committed deliveries", async () => {
    const hook = await post("/webhook", {
      url: "http://127.0.0.1:9/hook",
      events: ["monitor.created"],
      scope: { all: true },
    });
    expect(hook.status).toBe(201);
    const index = deliveryIndex(state.store);

    expect((await post("/monitor/bulk-validate", { items: manyMonitors() })).body.valid).toBe(25);
    expect((await post("/monitor?dryRun=true", monitorBody())).status).toBe(200);
    expect(index.idsOf(hook.body.id).size).toBe(0);
    expect(index.takeDue(Number.MAX_SAFE_INTEGER, 100)).toEqual([]);

    expect((await post("/monitor", monitorBody())).status).toBe(201);
    expect(index.idsOf(hook.body.id).size).toBe(1);
    expect(index.takeDue(Number.MAX_SAFE_INTEGER, 100)).toHaveLength(1);
  });
});
