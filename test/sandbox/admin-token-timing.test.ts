import type * as crypto from "node:crypto";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/**
 * The admin token is compared in constant time, as user tokens are: a `!==` stops at the first
 * differing character, so the time of a refusal would tell how much of a guess was right. Timing is too
 * noisy to measure in a test; what is checked is that the comparison goes through `timingSafeEqual`.
 */
const compared = vi.hoisted(() => ({ count: 0 }));
vi.mock("node:crypto", async (importOriginal) => {
  const original = await importOriginal<typeof crypto>();
  const timingSafeEqual: typeof original.timingSafeEqual = (a, b) => {
    compared.count++;
    return original.timingSafeEqual(a, b);
  };
  return { ...original, default: { ...original, timingSafeEqual }, timingSafeEqual };
});

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());

it("checks the admin token with timingSafeEqual, whether it is right or wrong", async () => {
  const { adminToken } = sb;
  // Same length and prefix as the real one, wrong in its last character: the case `!==` leaks most.
  const guess = `${adminToken.slice(0, -1)}${adminToken.endsWith("A") ? "B" : "A"}`;
  for (const [token, status] of [
    [guess, 401],
    [adminToken, 200],
  ] as const) {
    const before = compared.count;
    const res = await sb.admin.get("/_sandbox/stats", { token });
    expect(res.status).toBe(status);
    expect(compared.count, `compares of ${status === 200 ? "the right" : "a wrong"} token`).toBeGreaterThan(
      before,
    );
  }
});
