import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/sandbox/core/app.ts";
import { SandboxState, systemCtx } from "../../../src/sandbox/core/state.ts";
import { allOperations } from "../../../src/sandbox/operations.ts";
import { createAccount } from "../../../src/sandbox/resources/accounts.ts";
import { mintOwnerToken } from "../../../src/sandbox/resources/admin.ts";
import { detachMonitorFromPages } from "../../../src/sandbox/resources/status-pages/model.ts";
import { monitor } from "../../helpers/fixtures.ts";
import { Client } from "../../helpers/sandbox.ts";

/**
 * `detachMonitorFromPages`, which monitor delete calls: no route reaches it on
 * this branch, so the real app is served in-process and the function is called
 * the way the delete handler does, inside a transaction; the effect is read over HTTP.
 */
let state: SandboxState;
let app: FastifyInstance;
let client: Client;
let accountId: string;
beforeAll(async () => {
  state = new SandboxState();
  accountId = createAccount(state.store, state.clock.now(), { metered: false }).id;
  app = createApp(state, allOperations());
  await app.listen({ host: "127.0.0.1", port: 0 });
  state.baseUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  client = new Client(state.baseUrl, mintOwnerToken(state.tokens, accountId, state.clock.now()));
});
afterAll(async () => {
  await app.close();
  state.store.close();
});

describe("detachMonitorFromPages", () => {
  it("turns the monitor's components manual, keeping id, name, place and the last state", async () => {
    const [gone, stays] = [await monitor(client), await monitor(client)];
    const admin = new Client(state.baseUrl, state.services.adminToken);
    expect((await admin.post(`/_sandbox/monitor/${gone}/outcome`, { state: "down" })).status).toBe(200);
    const pages = [];
    for (const title of ["A", "B"]) {
      const page = (await client.post("/statuspage", { slug: `p-${randomUUID().slice(0, 8)}`, title })).body;
      await client.put(`/statuspage/${page.id}/component`, {
        components: [
          { name: "Gone", monitorId: gone },
          { name: "Stays", monitorId: stays },
        ],
      });
      pages.push(page.id);
    }
    const untouched = (
      await client.post("/statuspage", { slug: `p-${randomUUID().slice(0, 8)}`, title: "C" })
    ).body;
    const before = (await client.get(`/statuspage/${pages[0]}`)).body.components;

    const changed = state.store.transaction(() => detachMonitorFromPages(systemCtx(state, accountId), gone));
    expect(changed.sort()).toEqual([...pages].sort());
    const after = (await client.get(`/statuspage/${pages[0]}`)).body.components;
    expect(after).toEqual([
      { id: before[0].id, name: "Gone", manualState: "down", state: "down" },
      before[1],
    ]);
    expect((await client.get(`/statuspage/${untouched.id}`)).body.components).toEqual([]);
  });
});
