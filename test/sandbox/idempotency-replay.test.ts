import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `Idempotency-Key`: same key and body replays the stored answer byte for byte; another body conflicts. */
let sb: TestSandbox;
let acct: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

let n = 0;
const key = () => `key-${++n}-${Date.now()}`;

describe("replay", () => {
  it("answers the stored response byte for byte with Idempotency-Replayed: true, without running again", async () => {
    acct = await sb.account();
    const k = key();
    const first = await acct.patch("/account", { name: "First" }, { headers: { "idempotency-key": k } });
    expect(first.status).toBe(200);
    expect(first.headers["idempotency-replayed"]).toBeUndefined();
    // Change the account in between: a replay must not re-apply the first body.
    expect((await acct.patch("/account", { name: "Between" })).body.name).toBe("Between");
    const again = await acct.patch("/account", { name: "First" }, { headers: { "idempotency-key": k } });
    expect(again.status).toBe(200);
    expect(again.headers["idempotency-replayed"]).toBe("true");
    expect(again.text).toBe(first.text);
    expect(again.headers["content-type"]).toBe(first.headers["content-type"]);
    // A replay is a new request: its own request id.
    expect(again.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    expect((await acct.get("/account")).body.name).toBe("Between");
  });

  it("treats member order and whitespace as the same body", async () => {
    acct = await sb.account();
    const k = key();
    const headers = { "idempotency-key": k, "content-type": "application/json" };
    const first = await acct.call("PATCH", "/account", { raw: '{"name":"N","language":"de"}', headers });
    const again = await acct.call("PATCH", "/account", {
      raw: '{ "language": "de",\n "name": "N" }',
      headers,
    });
    expect(first.status).toBe(200);
    expect(again.headers["idempotency-replayed"]).toBe("true");
    expect(again.text).toBe(first.text);
  });

  it("replays a handler's 4xx refusal too", async () => {
    acct = await sb.account();
    const k = key();
    const body = { defaultAgentPools: ["atlantis"] };
    const first = await acct.patch("/account", body, { headers: { "idempotency-key": k } });
    expect(first.status).toBe(422);
    expect(first.body.code).toBe("unknown_pool");
    expect(first.body.errors[0]).toMatchObject({ pointer: "/defaultAgentPools/0", value: "atlantis" });
    const again = await acct.patch("/account", body, { headers: { "idempotency-key": k } });
    expect(again.status).toBe(422);
    expect(again.headers["idempotency-replayed"]).toBe("true");
    expect(again.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(again.text).toBe(first.text);
  });

  it("does not remember a request refused before it ran (body validation): the key stays free", async () => {
    acct = await sb.account();
    const k = key();
    const bad = await acct.patch("/account", { nmae: "typo" }, { headers: { "idempotency-key": k } });
    expect(bad.status).toBe(422);
    const fixed = await acct.patch("/account", { name: "Fixed" }, { headers: { "idempotency-key": k } });
    expect(fixed.status).toBe(200);
    expect(fixed.headers["idempotency-replayed"]).toBeUndefined();
    expect(fixed.body.name).toBe("Fixed");
  });

  it("keys are per account: the same key in another account is independent", async () => {
    const a = await sb.account();
    const b = await sb.account();
    const k = key();
    expect((await a.patch("/account", { name: "A" }, { headers: { "idempotency-key": k } })).body.name).toBe(
      "A",
    );
    const other = await b.patch("/account", { name: "B" }, { headers: { "idempotency-key": k } });
    expect(other.status).toBe(200);
    expect(other.headers["idempotency-replayed"]).toBeUndefined();
    expect(other.body.name).toBe("B");
  });

  it("ignores the key on reads", async () => {
    acct = await sb.account();
    const k = key();
    const a = await acct.get("/account", { headers: { "idempotency-key": k } });
    await acct.patch("/account", { name: "Changed" });
    const b = await acct.get("/account", { headers: { "idempotency-key": k } });
    expect(b.headers["idempotency-replayed"]).toBeUndefined();
    expect(b.body.name).toBe("Changed");
    expect(a.body.name).not.toBe("Changed");
  });
});

describe("conflict", () => {
  it("same key with another body answers 409 idempotency_key_conflict, reason different_body", async () => {
    acct = await sb.account();
    const k = key();
    await acct.patch("/account", { name: "One" }, { headers: { "idempotency-key": k } });
    const res = await acct.patch("/account", { name: "Two" }, { headers: { "idempotency-key": k } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "idempotency_key_conflict", status: 409 });
    expect(res.body.errors).toEqual([{ reason: "different_body" }]);
    expect((await acct.get("/account")).body.name).toBe("One");
  });

  it("same key on another route is a different request too", async () => {
    acct = await sb.account();
    const k = key();
    await acct.patch("/account", { name: "One" }, { headers: { "idempotency-key": k } });
    const res = await acct.post("/_sandbox/never", { name: "One" }, { headers: { "idempotency-key": k } });
    expect(res.status).toBe(404);
    const other = await acct.patch("/account?x=1", { name: "One" }, { headers: { "idempotency-key": k } });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe("unknown_parameter");
  });
});

describe("key rules", () => {
  it("takes keys up to 255 characters and refuses longer ones with 400", async () => {
    acct = await sb.account();
    const ok = await acct.patch(
      "/account",
      { name: "x" },
      { headers: { "idempotency-key": "k".repeat(255) } },
    );
    expect(ok.status).toBe(200);
    const res = await acct.patch(
      "/account",
      { name: "x" },
      { headers: { "idempotency-key": "k".repeat(256) } },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("malformed_request");
    expect(res.body.errors).toEqual([
      { pointer: "/headers/Idempotency-Key", reason: "out_of_range", maximum: 255 },
    ]);
  });

  it("refuses an empty key", async () => {
    acct = await sb.account();
    const res = await acct.patch("/account", { name: "x" }, { headers: { "idempotency-key": "" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("malformed_request");
    expect((await acct.get("/account")).body.name).not.toBe("x");
  });

  it("records expire after 24 hours: the key is then free for another body", async () => {
    acct = await sb.account();
    const k = key();
    await acct.patch("/account", { name: "Day one" }, { headers: { "idempotency-key": k } });
    await sb.advance(24 * 3600 - 10);
    const within = await acct.patch("/account", { name: "Day two" }, { headers: { "idempotency-key": k } });
    expect(within.status).toBe(409);
    await sb.advance(11);
    const after = await acct.patch("/account", { name: "Day two" }, { headers: { "idempotency-key": k } });
    expect(after.status).toBe(200);
    expect(after.headers["idempotency-replayed"]).toBeUndefined();
    expect(after.body.name).toBe("Day two");
  });
});
