import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** `/_sandbox/*` control routes answer only to the admin token. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

const routes: Array<[string, string, unknown?]> = [
  ["POST", "/_sandbox/accounts", {}],
  ["POST", "/_sandbox/tokens", { scopes: ["account"] }],
  ["POST", "/_sandbox/clock", {}],
  ["GET", "/_sandbox/outbox"],
  ["GET", "/_sandbox/stats"],
  ["DELETE", "/_sandbox/stats"],
];

describe("admin token", () => {
  it("the owner token of an account is refused on every control route", async () => {
    for (const [method, path, body] of routes) {
      const res = await sb.client.call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe("invalid_token");
      expect(res.body.errors).toEqual([{ reason: "invalid" }]);
    }
  });

  it("no token answers reason missing", async () => {
    const res = await sb.client.get("/_sandbox/stats", { token: null });
    expect(res.status).toBe(401);
    expect(res.body.errors).toEqual([{ reason: "missing" }]);
    expect(res.headers["www-authenticate"]).toBe("Bearer");
  });

  it("the admin token opens them all", async () => {
    for (const [method, path, body] of routes) {
      const res = await sb.admin.call(method, path, { body });
      expect([200, 201], `${method} ${path}: ${res.text}`).toContain(res.status);
    }
  });

  it("the admin token is not an API token", async () => {
    const res = await sb.admin.get("/account");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("invalid_token");
  });

  it("control routes are absent from the OpenAPI document", async (t) => {
    const doc = await sb.client.get("/openapi/v2.json", { token: null });
    if (doc.status === 404) t.skip();
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths).filter((p) => p.startsWith("/_sandbox"))).toEqual([]);
  });
});
