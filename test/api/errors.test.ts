/** What a refusal means to the code that reads it: "gone" is decided here alone (`isGone`). */
import { describe, expect, it } from "vitest";
import { ApiError, isGone, NetworkError } from "../../src/api/index.ts";

const refusal = (status: number, code: string) =>
  new ApiError({ status, body: { code }, headers: {}, route: "GET /monitor/{id}", attempts: 1 });

describe("isGone", () => {
  it.each([
    [404, "not_found", true],
    [410, "http_410", true],
    [400, "malformed_request", false],
    [403, "missing_scope", false],
    [409, "duplicate_monitor", false],
    [422, "validation_failed", false],
    [500, "internal_error", false],
  ] as const)("%i %s: %s", (status, code, gone) => {
    expect(isGone(refusal(status, code))).toBe(gone);
  });

  it("is never a failure without an answer, nor anything else thrown", () => {
    const cause = new Error("connect ECONNREFUSED");
    expect(isGone(new NetworkError({ reason: "network", route: "GET /x", attempts: 8, cause }))).toBe(false);
    expect(isGone(new Error("404"))).toBe(false);
    expect(isGone({ status: 404 })).toBe(false);
    expect(isGone(undefined)).toBe(false);
  });
});
