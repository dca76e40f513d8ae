import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { expect } from "vitest";
import { eventEnvelope, type WebhookEvent } from "../../../src/kinds/events.ts";
import type { CallResult, Client, TestSandbox } from "../../helpers/sandbox.ts";
import { type Answer, eventually, type Received, type Receiver } from "../webhooks/receiver.ts";

export { eventually };

export const key = () => ({ headers: { "idempotency-key": randomUUID() } });

/** An http monitor create body on a unique address. */
export const monitorBody = (extra: Record<string, unknown> = {}) => ({
  type: "http",
  url: `https://example.com/${randomUUID()}`,
  locations: { pools: ["allworld"] },
  ...extra,
});

export interface Hook {
  id: string;
  secret: string;
  path: string;
}

/** Creates a webhook pointing at a fresh path of the real receiver. */
export async function hook(
  c: Client,
  rx: Receiver,
  body: Record<string, unknown>,
  answer?: (r: Received) => Answer,
): Promise<Hook> {
  const target = rx.hook(answer);
  const res = await c.post("/webhook", { url: target.url, scope: { all: true }, ...body });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id, secret: res.body.secret, path: target.path };
}

/**
 * Checks one arrival with the independent `standardwebhooks` verifier and the
 * published payload schema of its event; answers the envelope.
 */
export function verified(got: Received, secret: string, event?: WebhookEvent): any {
  const envelope = new Webhook(secret).verify(got.raw, got.headers as Record<string, string>) as any;
  if (event) expect(envelope.event).toBe(event);
  const parsed = eventEnvelope(envelope.event as WebhookEvent).safeParse(envelope);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  expect(got.headers["svc-event"]).toBe(envelope.event);
  expect(got.headers["svc-delivery"]).toBe(envelope.id);
  return envelope;
}

/** Waits until `path` received an event named `event`; answers every such arrival. */
export async function arrivals(rx: Receiver, path: string, event: string, count = 1, timeoutMs = 5000) {
  return eventually(async () => {
    const got = rx.received(path).filter((r) => r.body?.event === event);
    return got.length >= count ? got : undefined;
  }, timeoutMs);
}

/** Events that arrived at `path`, in order of arrival. */
export const eventsAt = (rx: Receiver, path: string) => rx.received(path).map((r) => r.body.event as string);

export async function outcome(sb: TestSandbox, monitorId: string, state: "up" | "down") {
  const res = await sb.admin.post(`/_sandbox/monitor/${monitorId}/outcome`, { state });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string; state: string; incidentId: string | null; changed: boolean };
}

export const deliveries = async (c: Client, webhookId: string, query = "") => {
  const res = await c.get(`/webhook/${webhookId}/delivery${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data as any[];
};

/** Polls a job until it reaches a terminal state; answers the last read. */
export async function settle(c: Client, jobId: string): Promise<CallResult> {
  return eventually(async () => {
    const res = await c.get(`/job/${jobId}`);
    expect(res.status, res.text).toBe(200);
    return ["succeeded", "partial", "failed", "cancelled"].includes(res.body.state) ? res : undefined;
  }, 10000);
}
