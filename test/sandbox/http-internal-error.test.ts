import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../src/sandbox/core/app.ts";
import { defineOperations } from "../../src/sandbox/core/operation.ts";
import { SandboxState } from "../../src/sandbox/core/state.ts";
import { createAccount } from "../../src/sandbox/resources/accounts.ts";
import { mintOwnerToken } from "../../src/sandbox/resources/admin.ts";
import { Client } from "../helpers/sandbox.ts";

/**
 * 500 `internal_error`. No public route fails on purpose, so this suite serves
 * the real app (`createApp`, same pipeline and error renderer) over real HTTP
 * with one operation that writes and then crashes.
 */
let app: FastifyInstance;
let state: SandboxState;
let client: Client;
let accountId: string;

beforeAll(async () => {
  state = new SandboxState();
  const now = state.clock.now();
  accountId = createAccount(state.store, now, { metered: false }).id;
  const operations = defineOperations({
    id: "test.crash",
    method: "POST",
    path: "/crash",
    summary: "Writes, then fails unexpectedly.",
    scope: "account:write",
    // The retry test tells requests apart by body; a write without a body schema would refuse `a`.
    body: z.strictObject({ a: z.number().optional() }),
    errors: [],
    handle: (ctx) => {
      ctx.store.put("note", { id: "n1", accountId: ctx.account!.id, text: "half-done" });
      throw new TypeError("boom: a bug in a handler");
    },
  });
  app = createApp(state, operations);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address() as { port: number };
  state.baseUrl = `http://127.0.0.1:${address.port}`;
  const token = mintOwnerToken(state.tokens, accountId, now);
  client = new Client(state.baseUrl, token);
});
afterAll(async () => {
  await app.close();
  state.store.close();
});

describe("internal_error", () => {
  it("answers 500 with the request id repeated as errors[0].traceId, and no internals", async () => {
    const res = await client.post("/crash", {});
    expect(res.status).toBe(500);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      type: `${state.baseUrl}/problems/internal_error`,
      code: "internal_error",
      status: 500,
      instance: "/crash",
    });
    expect(res.body.errors).toEqual([{ traceId: res.headers["x-request-id"] }]);
    expect(res.text).not.toContain("boom");
    expect(res.text).not.toContain("TypeError");
  });

  it("undoes the writes the failed request made", async () => {
    await client.post("/crash", {});
    expect(state.store.get("note", "n1")).toBeUndefined();
  });

  it("does not remember a 500 under the idempotency key: a retry runs again", async () => {
    const headers = { "idempotency-key": "crash-1" };
    const first = await client.post("/crash", { a: 1 }, { headers });
    const again = await client.post("/crash", { a: 1 }, { headers });
    expect(first.status).toBe(500);
    expect(again.status).toBe(500);
    expect(again.headers["idempotency-replayed"]).toBeUndefined();
    expect(again.body.errors[0].traceId).toBe(again.headers["x-request-id"]);
    // Nor does it hold the key in flight afterwards.
    const other = await client.post("/crash", { a: 2 }, { headers });
    expect(other.body.code).toBe("internal_error");
  });
});
