/** The pipeline's decisions that need no server: who may call an operation, and which key a write carries. */
import { describe, expect, it } from "vitest";
import type { Account, Operation, OpRequest } from "../../../src/sandbox/core/operation.ts";
import { authorize, idempotencyKeyOf } from "../../../src/sandbox/core/pipeline.ts";
import { ApiProblem } from "../../../src/sandbox/core/problem.ts";
import type { TokenClaims } from "../../../src/sandbox/core/tokens.ts";

const operation = (more: Partial<Operation> = {}): Operation => ({
  id: "monitor.create",
  method: "POST",
  path: "/monitor",
  summary: "",
  scope: "monitor:write",
  errors: [],
  handle: () => ({ status: 204 }),
  ...more,
});
const request = (body: unknown = {}, headers: Record<string, string> = {}): OpRequest => ({
  params: {},
  query: {},
  body,
  headers,
});
const claims = (scp: string[], mem?: string): TokenClaims => ({
  acc: "a1",
  scp,
  ...(mem !== undefined && { mem }),
  exp: 2,
  iat: 1,
  jti: "t1",
});
const account: Account = {
  id: "a1",
  accountId: "a1",
  login: "owner@example.com",
  plan: "enterprise",
  members: [{ id: "m1", login: "viewer@example.com", rights: ["monitor:read"] }],
};

/** The problem code a call throws, or undefined when it passes. */
function refusal(call: () => unknown): { code: string; errors: unknown } | undefined {
  try {
    call();
    return undefined;
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error;
    return { code: error.code, errors: error.errors };
  }
}

describe("authorize", () => {
  it("lets a token whose scopes satisfy the operation's through, a parent scope included", () => {
    expect(
      refusal(() => authorize(operation(), request(), { account, claims: claims(["monitor"]) })),
    ).toBeUndefined();
    expect(
      refusal(() => authorize(operation(), request(), { account, claims: claims(["monitor:write"]) })),
    ).toBeUndefined();
  });

  it("refuses a missing scope, counting retired scopes as nothing", () => {
    const op = operation({ scope: "contact:write" });
    expect(
      refusal(() => authorize(op, request(), { account, claims: claims(["subs:write", "monitor"]) })),
    ).toEqual({
      code: "missing_scope",
      errors: [{ required: "contact:write", granted: ["monitor"] }],
    });
  });

  it("asks for the scopes the body needs too", () => {
    const op = operation({
      extraScopes: (body) => ((body as { contacts?: unknown }).contacts ? ["contact:write"] : []),
    });
    const both = { account, claims: claims(["monitor:write"]) };
    expect(refusal(() => authorize(op, request({}), both))).toBeUndefined();
    expect(refusal(() => authorize(op, request({ contacts: [] }), both))?.code).toBe("missing_scope");
  });

  it("refuses a member without the right behind the scope, or one the account no longer has", () => {
    expect(
      refusal(() => authorize(operation(), request(), { account, claims: claims(["monitor"], "m1") })),
    ).toEqual({
      code: "insufficient_rights",
      errors: [{ required: "monitor:write", granted: ["monitor:read"] }],
    });
    const read = operation({ method: "GET", scope: "monitor:read" });
    expect(
      refusal(() => authorize(read, request(), { account, claims: claims(["monitor"], "m1") })),
    ).toBeUndefined();
    expect(
      refusal(() => authorize(read, request(), { account, claims: claims(["monitor"], "gone") })),
    ).toEqual({
      code: "insufficient_rights",
      errors: [{ required: "monitor:read", granted: [] }],
    });
  });

  it("leaves anonymous operations, anonymous calls and handlers that judge scopes themselves alone", () => {
    const none = { account, claims: claims([]) };
    expect(refusal(() => authorize(operation({ scope: null }), request(), none))).toBeUndefined();
    expect(refusal(() => authorize(operation({ scopeByHandler: true }), request(), none))).toBeUndefined();
    expect(refusal(() => authorize(operation(), request(), {}))).toBeUndefined();
  });
});

describe("idempotencyKeyOf", () => {
  it("takes a write's key, ignores a read's, and refuses a write that must carry one", () => {
    const keyed = request({}, { "idempotency-key": "k1" });
    expect(idempotencyKeyOf(operation(), keyed)).toBe("k1");
    expect(idempotencyKeyOf(operation({ method: "GET", scope: "monitor:read" }), keyed)).toBeUndefined();
    expect(idempotencyKeyOf(operation(), request())).toBeUndefined();
    expect(refusal(() => idempotencyKeyOf(operation({ idempotency: "required" }), request()))).toEqual({
      code: "idempotency_key_required",
      errors: undefined,
    });
  });

  it("asks the operation whether this body needs a key", () => {
    const op = operation({ idempotency: (req) => (req.body as { bulk?: boolean }).bulk === true });
    expect(idempotencyKeyOf(op, request({ bulk: false }))).toBeUndefined();
    expect(refusal(() => idempotencyKeyOf(op, request({ bulk: true })))?.code).toBe(
      "idempotency_key_required",
    );
  });
});
