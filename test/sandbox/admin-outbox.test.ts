import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `GET /_sandbox/outbox`: every message the service "sent", oldest first, across accounts. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

describe("outbox", () => {
  it("starts empty", async () => {
    const res = await sb.admin.get("/_sandbox/outbox");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
  });

  it("records a confirmation message when an email contact is created", async (t) => {
    const acct = await sb.account();
    const created = await acct.post(
      "/contact",
      { type: "email", address: "outbox@example.com" },
      { headers: { "idempotency-key": "outbox-1" } },
    );
    if (created.status === 404) t.skip();
    expect(created.status).toBe(201);
    const messages = await sb.outbox();
    const mine = messages.filter((m) => m.to === "outbox@example.com");
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine[0]).toMatchObject({ accountId: acct.accountId, channel: "email", to: "outbox@example.com" });
    expect(typeof mine[0].at).toBe("number");
    expect(mine[0].id).toMatch(/^msg_/);
    // Replaying the create sends nothing more.
    await acct.post(
      "/contact",
      { type: "email", address: "outbox@example.com" },
      { headers: { "idempotency-key": "outbox-1" } },
    );
    expect((await sb.outbox()).filter((m) => m.to === "outbox@example.com")).toHaveLength(mine.length);
  });
});
