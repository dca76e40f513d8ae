import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";
import { monitorBody, monitorIds, outcome } from "./helpers.ts";

/**
 * What a fault does to state: a `before` fault changes nothing, an `after`
 * fault commits the change and loses only the answer, and a retry with the
 * same Idempotency-Key replays the original answer instead of duplicating it.
 */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterEach(async () => {
  await sb.admin.delete("/_sandbox/faults");
});
afterAll(() => sb.close());

const faults = (body: Record<string, unknown>) => sb.admin.post("/_sandbox/faults", body);

describe("before faults", () => {
  it("answer a problem document with the status's code and change nothing", async () => {
    const acct = await sb.account();
    const codes = {
      429: "rate_limited",
      500: "internal_error",
      502: "upstream_error",
      503: "service_unavailable",
    };
    for (const [status, code] of Object.entries(codes)) {
      await faults({ rate: 1, when: "before", statuses: [Number(status)] });
      const res = await acct.post("/monitor", monitorBody(`before-${status}`), {
        headers: { "idempotency-key": `before-${status}` },
      });
      expect(res.status).toBe(Number(status));
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.headers["x-request-id"]).toMatch(/^req_/);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toMatchObject({ code, status: Number(status), type: `${sb.url}/problems/${code}` });
      if (status === "500") expect(res.body.errors).toEqual([{ traceId: res.headers["x-request-id"] }]);
      if (status === "429") {
        expect(res.headers["retry-after"]).toBe("1");
        expect(res.body).toMatchObject({ retryAfter: 1 });
      }
      if (status === "503") expect(res.headers["retry-after"]).toBe("1");
    }
    await faults({ rate: 1, when: "before", reset: true });
    expect(await outcome(acct.post("/monitor", monitorBody("before-reset")))).toBe("reset");
    await sb.admin.delete("/_sandbox/faults");
    expect(await monitorIds(acct)).toEqual([]);

    // The key was never used: the retry runs the call for the first time.
    const retry = await acct.post("/monitor", monitorBody("before-503"), {
      headers: { "idempotency-key": "before-503" },
    });
    expect(retry.status).toBe(201);
    expect(retry.headers["idempotency-replayed"]).toBeUndefined();
    expect(await monitorIds(acct)).toEqual([retry.body.id]);
  });

  it("spend no quota (the call never reached the API), whereas after faults do", async () => {
    const acct = await sb.account({ metered: true });
    const readsUsed = async () => {
      const { quotas } = (await acct.get("/account/quota")).body.pools.account;
      return quotas.find((q: any) => q.scope === "monitor" && q.quota === "read_per_minute").used;
    };
    await faults({ rate: 1, when: "before", routes: ["GET /monitor"] });
    for (let i = 0; i < 3; i++) expect((await acct.get("/monitor")).status).toBeGreaterThanOrEqual(500);
    expect(await readsUsed()).toBe(0);
    await faults({ rate: 1, when: "after", routes: ["GET /monitor"] });
    const after = await acct.get("/monitor");
    expect(after.status).toBeGreaterThanOrEqual(500);
    expect(after.headers["ratelimit-policy"]).toBeDefined();
    expect(await readsUsed()).toBe(1);
  });
});

describe("after faults", () => {
  it("commit the change though the client sees a 5xx; the retry replays the original answer", async () => {
    const acct = await sb.account();
    const key = { headers: { "idempotency-key": "after-5xx" } };
    await faults({ rate: 1, when: "after", statuses: [502] });
    const lost = await acct.post("/monitor", monitorBody("after-5xx"), key);
    expect(lost.status).toBe(502);
    expect(lost.body).toMatchObject({ code: "upstream_error" });
    // None of the lost answer's headers leak into the fault's.
    expect(lost.headers.location).toBeUndefined();
    await sb.admin.delete("/_sandbox/faults");

    const ids = await monitorIds(acct);
    expect(ids).toHaveLength(1);
    // Time moves on: a replay still shows the first call's `created`, a re-run would not.
    await sb.advance(3600);
    const replay = await acct.post("/monitor", monitorBody("after-5xx"), key);
    expect(replay.status).toBe(201);
    expect(replay.headers["idempotency-replayed"]).toBe("true");
    expect(replay.headers.location).toContain(ids[0]);
    expect(replay.body.id).toBe(ids[0]);
    const stored = (await acct.get(`/monitor/${ids[0]}`)).body;
    expect(replay.body.created).toBe(stored.created);
    const again = await acct.post("/monitor", monitorBody("after-5xx"), key);
    expect(again.text).toBe(replay.text);
    expect(await monitorIds(acct)).toEqual(ids);
  });

  it("commit the change though the connection was reset; the retry replays it", async () => {
    const acct = await sb.account();
    const key = { headers: { "idempotency-key": "after-reset" } };
    await faults({ rate: 1, when: "after", reset: true });
    expect(await outcome(acct.post("/monitor", monitorBody("after-reset"), key))).toBe("reset");
    expect((await sb.admin.get("/_sandbox/faults")).body.injected).toEqual({ before: 0, after: 1, reset: 1 });
    await sb.admin.delete("/_sandbox/faults");

    const ids = await monitorIds(acct);
    expect(ids).toHaveLength(1);
    // The reset freed the key: the retry is no `in_flight` conflict but the stored answer.
    const replay = await acct.post("/monitor", monitorBody("after-reset"), key);
    expect(replay.status).toBe(201);
    expect(replay.headers["idempotency-replayed"]).toBe("true");
    expect(replay.body.id).toBe(ids[0]);
    expect((await acct.post("/monitor", monitorBody("after-reset"), key)).text).toBe(replay.text);
    expect(await monitorIds(acct)).toEqual(ids);
  });

  it("without a key a retry duplicates nothing it can detect: the API answers duplicate_monitor", async () => {
    const acct = await sb.account();
    await faults({ rate: 1, when: "after", statuses: [500] });
    expect((await acct.post("/monitor", monitorBody("no-key"))).status).toBe(500);
    await sb.admin.delete("/_sandbox/faults");
    const retry = await acct.post("/monitor", monitorBody("no-key"));
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe("duplicate_monitor");
    expect(await monitorIds(acct)).toHaveLength(1);
  });

  it("replace refusals too: the retry replays the stored refusal", async () => {
    const acct = await sb.account();
    const key = { headers: { "idempotency-key": "refused" } };
    await faults({ rate: 1, when: "after", statuses: [503] });
    const lost = await acct.post("/monitor", { ...monitorBody("refused"), interval: 7 }, key);
    expect(lost.status).toBe(503);
    await sb.admin.delete("/_sandbox/faults");
    const retry = await acct.post("/monitor", { ...monitorBody("refused"), interval: 7 }, key);
    expect(retry.status).toBe(422);
    expect(retry.headers["idempotency-replayed"]).toBe("true");
    expect(await monitorIds(acct)).toEqual([]);
  });
});

describe("stats", () => {
  it("count faulted answers under their status, and resets as `reset`", async () => {
    const acct = await sb.account();
    await sb.admin.delete("/_sandbox/stats");
    await faults({ rate: 1, when: "before", statuses: [502] });
    await acct.get("/account");
    await acct.get("/account");
    await faults({ rate: 1, when: "after", statuses: [503] });
    await acct.get("/account");
    await faults({ rate: 1, reset: true });
    await outcome(acct.get("/account"));
    await sb.admin.delete("/_sandbox/faults");
    await acct.get("/account");
    expect((await sb.admin.get("/_sandbox/stats")).body).toEqual({
      total: 5,
      byRoute: { "GET /account": 5 },
      byStatus: { "200": 1, "502": 2, "503": 1, reset: 1 },
    });
  });
});
