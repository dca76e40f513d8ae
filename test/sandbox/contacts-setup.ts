// The set-up of the contact tests (contacts-*.test.ts).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { type Client, startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";

/** The calling file's sandbox, started by useSandbox. */
export let sb: TestSandbox;

export const key = () => ({ headers: { "idempotency-key": randomUUID() } });

export async function create(c: Client, body: Record<string, unknown>) {
  const res = await c.post("/contact", body, key());
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** One sandbox for the calling test file, closed with it. */
export function useSandbox(): void {
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb.close());
}
