import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { cutWithin, silentConnection, slowBody } from "../helpers/slow-clients.ts";

/**
 * Slow clients are cut off and connections are capped (src/server-limits.ts). Real sockets in real
 * time, with timeouts shortened to a few hundred milliseconds; each bound is checked with a 10x margin.
 */
const headersTimeoutMs = 300;
const requestTimeoutMs = 500;

describe("timeouts", () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox({ limits: { headersTimeoutMs, requestTimeoutMs } });
  });
  afterAll(() => sb.close());

  it("cuts off a body that arrives a byte at a time at the request timeout, and frees its idempotency key", async () => {
    const acct = await sb.account();
    const slow = await slowBody(sb.url, {
      method: "PATCH",
      path: "/account",
      headers: { authorization: `Bearer ${acct.token}`, "idempotency-key": "slow-body" },
      everyMs: 50,
    });
    // Held, it neither answers nor blocks anyone else, and its key is in flight (the probe's body is
    // refused before anything runs, so it never takes the key itself).
    const probe = () =>
      acct.patch("/account", { noSuchMember: 1 }, { headers: { "idempotency-key": "slow-body" } });
    let meanwhile = await probe();
    for (let i = 0; i < 20 && meanwhile.status !== 409; i++) meanwhile = await probe();
    expect(meanwhile.body.errors).toEqual([{ reason: "in_flight" }]);
    expect((await acct.get("/account")).status).toBe(200);

    const cut = await cutWithin(slow, requestTimeoutMs * 10, "a slow body");
    expect(cut.afterMs).toBeGreaterThanOrEqual(requestTimeoutMs - 50);
    expect(cut.answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(cut.answer).toContain("application/problem+json");
    expect(cut.answer).toContain("x-request-id: ");
    expect(cut.answer).toContain('"code":"malformed_request"');
    expect(cut.answer).toContain("did not arrive completely in time");

    const retry = await acct.patch(
      "/account",
      { name: "Slow" },
      { headers: { "idempotency-key": "slow-body" } },
    );
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers["idempotency-replayed"]).toBeUndefined();
  });

  it("cuts off a connection that sends no request at the headers timeout", async () => {
    const silent = await silentConnection(sb.url);
    const cut = await cutWithin(silent, headersTimeoutMs * 10, "a silent connection");
    expect(cut.afterMs).toBeGreaterThanOrEqual(headersTimeoutMs - 50);
    expect(cut.answer).toMatch(/^HTTP\/1\.1 400 /);
    expect((await sb.client.get("/account")).status).toBe(200);
  });
});

describe("the connection cap", () => {
  const maxConnections = 4;
  // Long enough for the held connections to outlast the refusals; short enough to end the test.
  const held = { headersTimeoutMs: 1000, requestTimeoutMs: 1000 };
  let sb: TestSandbox;
  const warnings: string[] = [];
  beforeAll(async () => {
    sb = await startTestSandbox({
      limits: { ...held, maxConnections },
      onWarning: (message) => warnings.push(message),
    });
  });
  afterAll(() => sb.close());

  it("closes connections past the cap as they arrive, says so once, and serves again once slots are free", async () => {
    const holders = [];
    for (let i = 0; i < maxConnections; i++) holders.push(await silentConnection(sb.url));
    // The sandbox runs in this process: let it accept them before more arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const extra = await Promise.all([silentConnection(sb.url), silentConnection(sb.url)]);
    for (const refused of extra) {
      const closed = await cutWithin(refused, held.headersTimeoutMs / 2, "a connection past the cap");
      expect(closed.answer).toBe("");
    }
    expect(holders.filter((h) => h.isClosed())).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^refused 1 connection\(s\) since the last such warning \(one a minute at most\): 4 are open, the most it takes/,
    );

    for (const holder of holders) {
      expect((await cutWithin(holder, held.headersTimeoutMs * 10, "a held connection")).answer).toMatch(
        /^HTTP\/1\.1 400 /,
      );
    }
    expect((await sb.client.get("/account")).status).toBe(200);
  });
});
