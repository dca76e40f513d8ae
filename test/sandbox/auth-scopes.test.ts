import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Scope rules: families satisfy their leaves, leaves satisfy only themselves, retired names are refused. */
let sb: TestSandbox;
let acct: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

async function tokenWith(scopes: string[]): Promise<string> {
  const res = await sb.mint({ accountId: acct.accountId, scopes });
  expect(res.status).toBe(201);
  return res.body.token;
}

describe("missing_scope", () => {
  it("answers 403 with {required, granted} naming one required scope and the granted array", async () => {
    const token = await tokenWith(["monitor:read", "contact"]);
    const res = await acct.get("/account", { token });
    expect(res.status).toBe(403);
    expect(res.headers["www-authenticate"]).toBeUndefined();
    expect(res.body).toMatchObject({ code: "missing_scope", status: 403 });
    expect(res.body.errors).toEqual([{ required: "account:read", granted: ["monitor:read", "contact"] }]);
  });

  it("a leaf never satisfies a sibling leaf: account:write does not read", async () => {
    const token = await tokenWith(["account:write"]);
    const res = await acct.get("/account", { token });
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toEqual({ required: "account:read", granted: ["account:write"] });
  });

  it("a leaf never satisfies a sibling leaf: account:read does not write", async () => {
    const token = await tokenWith(["account:read"]);
    const res = await acct.patch("/account", { name: "x" }, { token });
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toEqual({ required: "account:write", granted: ["account:read"] });
  });

  it("monitor:write does not satisfy monitor:read and the reverse", async () => {
    const write = await tokenWith(["monitor:write"]);
    const read = await tokenWith(["monitor:read"]);
    const list = await acct.get("/monitor", { token: write });
    // The monitor routes may land later; until then the path is unknown (404) for everyone.
    if (list.status === 404) return;
    expect(list.status).toBe(403);
    expect(list.body.errors[0]).toEqual({ required: "monitor:read", granted: ["monitor:write"] });
    const create = await acct.post("/monitor", { type: "http", url: "https://a.example" }, { token: read });
    expect(create.status).toBe(403);
    expect(create.body.errors[0]).toEqual({ required: "monitor:write", granted: ["monitor:read"] });
  });
});

describe("order of checks", () => {
  it("validates the body before checking the scope", async () => {
    const token = await tokenWith(["monitor"]);
    const invalid = await acct.patch("/account", { nmae: "x" }, { token });
    expect(invalid.status).toBe(422);
    expect(invalid.body.code).toBe("validation_failed");
    const valid = await acct.patch("/account", { name: "x" }, { token });
    expect(valid.status).toBe(403);
    expect(valid.body.code).toBe("missing_scope");
  });

  it("checks the scope before the idempotency key requirement", async (t) => {
    const token = await tokenWith(["monitor"]);
    const res = await acct.post("/contact", { type: "email", address: "order@example.com" }, { token });
    if (res.status === 404) t.skip();
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toEqual({ required: "contact:write", granted: ["monitor"] });
  });
});

describe("families and leaves that satisfy", () => {
  it("the family satisfies every leaf under it", async () => {
    const token = await tokenWith(["account"]);
    expect((await acct.get("/account", { token })).status).toBe(200);
    expect((await acct.patch("/account", { name: "Family" }, { token })).status).toBe(200);
    expect((await acct.get("/account/quota", { token })).status).toBe(200);
  });

  it("the exact leaf satisfies itself", async () => {
    const token = await tokenWith(["account:read"]);
    expect((await acct.get("/account", { token })).status).toBe(200);
    expect((await acct.get("/account/usage", { token })).status).toBe(200);
  });

  it("another family satisfies nothing here", async () => {
    const token = await tokenWith(["monitor", "contact", "subs", "webhook", "statuspage", "check"]);
    const res = await acct.get("/account", { token });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].granted).toEqual([
      "monitor",
      "contact",
      "subs",
      "webhook",
      "statuspage",
      "check",
    ]);
  });
});

describe("retired scopes", () => {
  for (const scope of ["ic", "ic:read", "ic:write", "subs:write"]) {
    it(`the mint refuses ${scope} with 400 {error: ValidationError, message}`, async () => {
      const res = await sb.mint({ accountId: acct.accountId, scopes: ["account", scope] });
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
      expect(Object.keys(res.body).sort()).toEqual(["error", "message"]);
      expect(res.body.error).toBe("ValidationError");
      expect(res.body.message).toContain(scope);
    });
  }

  it("the mint refuses unknown scopes and an empty scope list", async () => {
    for (const scopes of [["monitors:read"], ["monitor:delete"], []]) {
      const res = await sb.mint({ accountId: acct.accountId, scopes });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("ValidationError");
    }
  });

  it("GET /account/quota lists every mintable scope with a description, and no retired one", async () => {
    const res = await acct.get("/account/quota");
    const names = res.body.scopes.map((s: { scope: string }) => s.scope);
    expect(names).toEqual(
      expect.arrayContaining([
        "monitor",
        "monitor:read",
        "monitor:write",
        "subs:read",
        "check",
        "check:write",
      ]),
    );
    expect(names).toHaveLength(20);
    for (const retired of ["ic", "ic:read", "ic:write", "subs:write"]) expect(names).not.toContain(retired);
    for (const s of res.body.scopes) expect(typeof s.description).toBe("string");
    for (const s of res.body.scopes) expect(s.description.length).toBeGreaterThan(0);
  });
});
