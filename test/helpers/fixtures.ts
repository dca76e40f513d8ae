import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Client } from "./sandbox.ts";

/** Creates a contact (with the key email, sms and voice contacts need) and answers its id. */
export async function contact(c: Client, body: Record<string, unknown>): Promise<string> {
  const res = await c.post("/contact", body, { headers: { "idempotency-key": randomUUID() } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** Creates an http monitor on a unique address (or `https://example.com/<path>`) and answers its id. */
export async function monitor(c: Client, path: string = randomUUID()): Promise<string> {
  const res = await c.post("/monitor", {
    type: "http",
    url: `https://example.com/${path}`,
    locations: { pools: ["allworld"] },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}
