import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallResult, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** Every failure is an RFC 9457 problem document whose `type` is the code's page. */
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

async function expectProblem(res: CallResult, status: number, code: string, instance: string) {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const { type, title, detail } = res.body;
  expect(res.body).toMatchObject({ status, code, instance });
  expect(type).toBe(`${sb.url}/problems/${code}`);
  expect(new URL(type).protocol).toBe("http:");
  expect(typeof title).toBe("string");
  expect(title.length).toBeGreaterThan(0);
  expect(typeof detail).toBe("string");
  // The page behind `type` exists, anonymously, and describes the same code.
  const page = await sb.client.get(new URL(type).pathname, { token: null });
  expect(page.status).toBe(200);
  expect(page.body).toMatchObject({ code, status, title });
  // Members without information are absent, never null.
  for (const [k, v] of Object.entries(res.body)) expect(v, k).not.toBeNull();
}

describe("problem documents", () => {
  it("have type, title, status, code, detail and instance on every family", async () => {
    await expectProblem(await sb.client.get("/account", { token: null }), 401, "invalid_token", "/account");
    await expectProblem(await sb.client.get("/nope?x=1"), 404, "not_found", "/nope?x=1");
    await expectProblem(await sb.client.call("DELETE", "/account"), 405, "method_not_allowed", "/account");
    await expectProblem(await sb.client.patch("/account", { nmae: 1 }), 422, "validation_failed", "/account");
    const minted = await sb.mint({ scopes: ["monitor"] });
    await expectProblem(
      await sb.client.get("/account", { token: minted.body.token }),
      403,
      "missing_scope",
      "/account",
    );
  });

  it("has no errors member when nothing specific exists", async () => {
    const res = await sb.client.get("/nope");
    expect(res.body).not.toHaveProperty("errors");
  });

  it("the code list is published anonymously and each page links itself", async () => {
    const res = await sb.client.get("/problems", { token: null });
    expect(res.status).toBe(200);
    const codes = res.body.data.map((c: { code: string }) => c.code);
    for (const code of [
      "malformed_request",
      "validation_failed",
      "invalid_token",
      "missing_scope",
      "ip_not_allowed",
      "insufficient_rights",
      "quota_exceeded",
      "rate_limited",
      "internal_error",
      "idempotency_key_conflict",
      "idempotency_key_required",
      "payload_too_large",
      "unsupported_media_type",
      "method_not_allowed",
      "unknown_parameter",
    ]) {
      expect(codes).toContain(code);
    }
    for (const row of res.body.data) expect(row.type).toBe(`${sb.url}/problems/${row.code}`);
    const unknown = await sb.client.get("/problems/no_such_code", { token: null });
    expect(unknown.status).toBe(404);
  });

  it("families follow the spec's status table", async () => {
    const rows: Array<{ code: string; status: number; family: string }> = (
      await sb.client.get("/problems", { token: null })
    ).body.data;
    const familyOf = (code: string) => rows.find((r) => r.code === code)!.family;
    expect(familyOf("payload_too_large")).toBe("fix-request");
    expect(familyOf("method_not_allowed")).toBe("fix-request");
    expect(familyOf("not_found")).toBe("fix-account-state");
    expect(familyOf("idempotency_key_conflict")).toBe("fix-account-state");
    expect(familyOf("quota_exceeded")).toBe("wait-and-retry");
    expect(familyOf("internal_error")).toBe("wait-and-retry");
  });
});
