import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { outcome } from "./helpers.ts";

/** `/_sandbox/faults`: the configuration, its validation, what it spares, and DELETE. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterEach(async () => {
  await sb.admin.delete("/_sandbox/faults");
});
afterAll(() => sb.close());

describe("POST /_sandbox/faults", () => {
  it("echoes the configuration in force with its defaults, and GET reads it back", async () => {
    const res = await sb.admin.post("/_sandbox/faults", { rate: 0.25 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      active: true,
      rate: 0.25,
      statuses: [500, 502, 503],
      latencyMs: 0,
      reset: false,
      when: "either",
      seed: expect.any(Number),
      injected: { before: 0, after: 0, reset: 0 },
    });
    // A drawn seed is echoed so that a run can be replayed.
    expect(Number.isInteger(res.body.seed)).toBe(true);
    expect((await sb.admin.get("/_sandbox/faults")).body).toEqual(res.body);

    const full = {
      rate: 1,
      statuses: [429, 503],
      latencyMs: 5,
      reset: 0.5,
      when: "before",
      seed: 7,
      routes: ["GET /account"],
    };
    const replaced = await sb.admin.post("/_sandbox/faults", full);
    expect(replaced.body).toEqual({ active: true, ...full, injected: { before: 0, after: 0, reset: 0 } });
  });

  it("needs the admin token", async () => {
    const res = await sb.client.post("/_sandbox/faults", { rate: 1 });
    expect(res.status).toBe(401);
    expect((await sb.admin.get("/_sandbox/faults")).body).toEqual({ active: false });
  });

  it("refuses bad bodies with pointers, and keeps the configuration it had", async () => {
    await sb.admin.post("/_sandbox/faults", { rate: 0.5, seed: 1 });
    const bad = await sb.admin.post("/_sandbox/faults", {
      rate: 1.5,
      statuses: [404],
      latencyMs: -1,
      when: "later",
      seed: 1.5,
      reset: "yes",
      rte: 1,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("validation_failed");
    const byPointer = Object.fromEntries(bad.body.errors.map((e: any) => [e.pointer, e]));
    expect(byPointer["/rate"]).toMatchObject({ reason: "out_of_range", value: 1.5 });
    expect(byPointer["/statuses/0"]).toMatchObject({ reason: "not_allowed", allowed: [429, 500, 502, 503] });
    expect(byPointer["/latencyMs"]).toMatchObject({ reason: "out_of_range" });
    expect(byPointer["/when"]).toMatchObject({
      reason: "not_allowed",
      allowed: ["before", "after", "either"],
    });
    expect(byPointer["/seed"]).toBeDefined();
    expect(byPointer["/reset"]).toBeDefined();
    expect(byPointer["/rte"]).toMatchObject({ reason: "unknown_member", didYouMean: "rate" });

    const missing = await sb.admin.post("/_sandbox/faults", {});
    expect(missing.body.errors).toEqual([expect.objectContaining({ pointer: "/rate", reason: "required" })]);

    const route = await sb.admin.post("/_sandbox/faults", { rate: 1, routes: ["GET /account", "GET /nope"] });
    expect(route.status).toBe(422);
    expect(route.body.errors).toEqual([
      expect.objectContaining({ pointer: "/routes/1", value: "GET /nope", reason: "unknown_route" }),
    ]);
    const allowed: string[] = route.body.errors[0].allowed;
    expect(allowed).toContain("POST /monitor");
    expect(allowed.some((r) => r.includes("/_sandbox") || r.includes("/problems"))).toBe(false);

    // A 429 claims the call was refused, which is false once it committed.
    const after = await sb.admin.post("/_sandbox/faults", { rate: 1, when: "after", statuses: [429] });
    expect(after.status).toBe(422);
    expect(after.body.errors).toEqual([
      expect.objectContaining({ pointer: "/statuses", reason: "no_after_status", allowed: [500, 502, 503] }),
    ]);

    const kept = await sb.admin.get("/_sandbox/faults");
    expect(kept.body).toMatchObject({ active: true, rate: 0.5, seed: 1 });
  });
});

describe("what faults spare", () => {
  it("never faults /_sandbox/ routes, the OpenAPI document, the problem pages, or unknown paths", async () => {
    await sb.admin.post("/_sandbox/faults", { rate: 1, reset: 0.5, seed: 3 });
    for (let i = 0; i < 5; i++) {
      expect((await sb.admin.get("/_sandbox/stats")).status).toBe(200);
      expect((await sb.admin.get("/_sandbox/outbox")).status).toBe(200);
      expect((await sb.admin.post("/_sandbox/clock", {})).status).toBe(200);
      expect((await sb.admin.get("/_sandbox/faults")).status).toBe(200);
      expect((await sb.client.get("/openapi/v2.json", { token: null })).status).toBe(200);
      expect((await sb.client.get("/problems", { token: null })).status).toBe(200);
      expect((await sb.client.get("/problems/internal_error", { token: null })).status).toBe(200);
      expect((await sb.client.get("/no/such/path")).status).toBe(404);
    }
    // Whereas every public API call fails.
    expect(await outcome(sb.client.get("/account"))).not.toBe(200);
    const { injected } = (await sb.admin.get("/_sandbox/faults")).body;
    expect(injected.before + injected.after).toBe(1);
  });

  it("faults only the listed routes when `routes` is given", async () => {
    const acct = await sb.account();
    await sb.admin.post("/_sandbox/faults", { rate: 1, when: "before", routes: ["GET /monitor"] });
    expect((await acct.get("/monitor")).status).toBeGreaterThanOrEqual(500);
    expect((await acct.get("/account")).status).toBe(200);
    expect((await acct.get("/contact")).status).toBe(200);
  });
});

describe("DELETE /_sandbox/faults", () => {
  it("clears the configuration, answering what it injected; calls succeed again", async () => {
    const acct = await sb.account();
    await sb.admin.post("/_sandbox/faults", { rate: 1, when: "before", statuses: [502] });
    expect((await acct.get("/account")).status).toBe(502);
    expect((await acct.get("/account")).status).toBe(502);
    const cleared = await sb.admin.delete("/_sandbox/faults");
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual({ active: false, injected: { before: 2, after: 0, reset: 0 } });
    for (let i = 0; i < 5; i++) expect((await acct.get("/account")).status).toBe(200);
    expect((await sb.admin.get("/_sandbox/faults")).body).toEqual({ active: false });
    // Clearing nothing is no error.
    expect((await sb.admin.delete("/_sandbox/faults")).body).toEqual({ active: false });
  });
});
