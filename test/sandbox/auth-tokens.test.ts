import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallResult, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Authentication refusals: 401 `invalid_token` with `reason` and the `www-authenticate` challenge. */
let sb: TestSandbox;
beforeAll(async () => {
  // The clock moves only when a test moves it: an expiry is met at the second the test says.
  sb = await startTestSandbox({ manualClock: true });
});
afterAll(() => sb.close());

const expectInvalid = (res: CallResult) => {
  expect(res.status).toBe(401);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.headers["www-authenticate"]).toBe("Bearer error=invalid_token");
  expect(res.body.code).toBe("invalid_token");
  expect(res.body.errors).toEqual([{ reason: "invalid" }]);
};

describe("no credential", () => {
  it("answers 401 invalid_token, reason missing, with a bare Bearer challenge", async () => {
    const res = await sb.client.get("/account", { token: null });
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toBe("Bearer");
    expect(res.body).toMatchObject({ code: "invalid_token", status: 401, errors: [{ reason: "missing" }] });
    expect(res.body.errors).toHaveLength(1);
  });

  it("treats a non-Bearer Authorization scheme as a bad credential, not a missing one", async () => {
    const res = await sb.client.get("/account", {
      token: null,
      headers: { authorization: "Basic dXNlcjpwYXNz" },
    });
    expectInvalid(res);
  });

  it("needs no credential on anonymous routes", async () => {
    const res = await sb.client.get("/problems", { token: null });
    expect(res.status).toBe(200);
  });
});

describe("bad credentials", () => {
  it("refuses garbage", async () => {
    expectInvalid(await sb.client.get("/account", { token: "not-a-token" }));
  });

  it("refuses an empty bearer value", async () => {
    expectInvalid(await sb.client.get("/account", { token: null, headers: { authorization: "Bearer " } }));
  });

  it("refuses a token whose claims were tampered with (signature no longer matches)", async () => {
    const [payload, signature] = sb.token.slice(4).split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    claims.scp = [...claims.scp, "extra"];
    const forged = `vgl_${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    expectInvalid(await sb.client.get("/account", { token: forged }));
  });

  it("refuses a token with a flipped signature character", async () => {
    const last = sb.token.at(-1) === "A" ? "B" : "A";
    expectInvalid(await sb.client.get("/account", { token: sb.token.slice(0, -1) + last }));
  });

  it("refuses a well-signed token with anything appended: a malformed token is invalid", async () => {
    for (const suffix of [".junk", ".", "..", ".x.y"]) {
      expectInvalid(await sb.client.get("/account", { token: `${sb.token}${suffix}` }));
    }
    expect((await sb.client.get("/account")).status).toBe(200);
  });

  it("refuses a token of another sandbox (other signing key)", async () => {
    const other = await startTestSandbox();
    try {
      expectInvalid(await sb.client.get("/account", { token: other.token }));
    } finally {
      await other.close();
    }
  });

  it("refuses a bad token even on an anonymous route (a sent token is checked)", async () => {
    expectInvalid(await sb.client.get("/problems", { token: "vgl_bad.bad" }));
  });
});

describe("expiry", () => {
  it("answers exactly like a bad token once the token has expired", async () => {
    const acct = await sb.account();
    const minted = await sb.mint({ accountId: acct.accountId, scopes: ["account"], duration: "0.01:00:00" });
    expect(minted.status).toBe(201);
    const token = minted.body.token as string;
    expect((await acct.get("/account", { token })).status).toBe(200);
    await sb.advance(3598);
    expect((await acct.get("/account", { token })).status).toBe(200);
    await sb.advance(3);
    const res = await acct.get("/account", { token });
    expectInvalid(res);
    // Indistinguishable on purpose: same detail text as a garbage token.
    const garbage = await acct.get("/account", { token: "garbage" });
    expect(res.body.detail).toBe(garbage.body.detail);
  });

  it("honours an explicit tokenExpiration", async () => {
    const acct = await sb.account();
    const now = (await sb.admin.post("/_sandbox/clock", {})).body.now as number;
    const minted = await sb.mint({ accountId: acct.accountId, scopes: ["account"], expiresAt: now + 100 });
    expect(minted.status).toBe(201);
    expect(minted.body.expiresAt).toBe(now + 100);
    expect((await acct.get("/account", { token: minted.body.token })).status).toBe(200);
    await sb.advance(101);
    expectInvalid(await acct.get("/account", { token: minted.body.token }));
  });
});
