import { describe, expect, it } from "vitest";
import type { Ctx } from "../../src/sandbox/core/operation.ts";
import { SandboxState } from "../../src/sandbox/core/state.ts";
import { accountOperations, createAccount } from "../../src/sandbox/resources/accounts.ts";

/** `PATCH /account`'s handler, in process: it stores resolved pools without touching the request body. */
describe("account.update", () => {
  it("leaves the request body as sent", () => {
    const state = new SandboxState();
    const now = state.clock.now();
    const account = createAccount(state.store, now);
    const ctx = {
      store: state.store,
      clock: state.clock,
      tokens: state.tokens,
      now,
      baseUrl: "",
      requestId: "req_test",
      clientIp: "127.0.0.1",
      account,
      services: state.services,
    } satisfies Ctx;
    const op = accountOperations.find((o) => o.id === "account.update")!;
    const body = { name: "Pools", defaultAgentPools: ["Africa", "ASIA"] };
    const sent = structuredClone(body);
    const reply = op.handle(ctx, { params: {}, query: {}, headers: {}, body });
    expect(body).toEqual(sent);
    expect((reply as { body: { defaultAgentPools: string[] } }).body.defaultAgentPools).toEqual([
      "africa",
      "asia",
    ]);
    state.store.close();
  });
});
