import { expect } from "vitest";
import type { CallResult, Client } from "../../helpers/sandbox.ts";

/** Shared bits of the monitor route tests. */

export const everywhere = { pools: ["allworld"] };

let counter = 0;
/** A URL no other monitor of the test file uses. */
export const uniqueUrl = (label = "site") => `https://${label}-${++counter}.example.com/`;

/** An http monitor body on every location, with overrides. */
export const httpMonitor = (extra: Record<string, unknown> = {}) => ({
  type: "http",
  url: uniqueUrl(),
  locations: everywhere,
  ...extra,
});

const standardMembers = new Set(["type", "title", "status", "code", "detail", "instance", "errors"]);

/**
 * A refusal as the tests compare it: status, code, the code's own top-level
 * members, and `errors[]` without the human `message` (which may be reworded).
 */
export function refusal(res: CallResult) {
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const body = res.body as { code: string; errors?: Array<Record<string, unknown>> };
  const out: Record<string, unknown> = { status: res.status, code: body.code };
  for (const [member, value] of Object.entries(body)) if (!standardMembers.has(member)) out[member] = value;
  if (body.errors) out.errors = body.errors.map(({ message: _message, ...rest }) => rest);
  return out;
}

/** Creates a monitor and answers its body, failing with the response text when it is not 201. */
export async function create(client: Client, body: Record<string, unknown>) {
  const res = await client.post("/monitor", body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Live location ids of a pool for a fleet, from `GET /agent`. */
export async function liveAgentIds(client: Client, pool: string, fleet: "net" | "waterfall" = "net") {
  const res = await client.get(`/agent?pool=${pool}&fleet=${fleet}&live=true&limit=500`, { token: null });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Array<{ id: string }>).map((a) => a.id);
}
