// The set-up of the delivery tests (delivery*.test.ts): a sandbox and a real receiver, and the helpers they share.
import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import type { Client, TestSandbox } from "../../helpers/sandbox.ts";
import { type Answer, closeWithReceiver, type Received, Receiver, startWithReceiver } from "./receiver.ts";

/** Deliveries to a real local receiver, with --allow-insecure-webhooks so http on 127.0.0.1 is allowed. */
export let sb: TestSandbox;
export let rx: Receiver;

/** A fresh receiver in place of one a test closed (the file's afterAll closes this one). */
export async function reopenReceiver(): Promise<void> {
  rx = await new Receiver().start();
}

export async function hook(c: Client, body: Record<string, unknown> = {}, answer?: (r: Received) => Answer) {
  const target = rx.hook(answer);
  const res = await c.post("/webhook", {
    url: target.url,
    events: ["monitor.created", "monitor.updated", "monitor.deleted"],
    scope: { all: true },
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return { ...res.body, path: target.path } as { id: string; secret: string; path: string; url: string };
}

/** The SVC-Signature scheme, checked here with node:crypto only. */
export function svcValid(received: Received, secret: string): boolean {
  const header = String(received.headers["svc-signature"]);
  const [tPart, ...sigs] = header.split(",");
  const t = tPart!.slice(2);
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${received.raw}`).digest();
  return sigs.some((s) => {
    const given = Buffer.from(s.slice(3), "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export const standardValid = (received: Received, secret: string | Webhook) => {
  try {
    (typeof secret === "string" ? new Webhook(secret) : secret).verify(
      received.raw,
      received.headers as Record<string, string>,
    );
    return true;
  } catch {
    return false;
  }
};

export const deliveries = async (c: Client, webhookId: string, query = "") =>
  (await c.get(`/webhook/${webhookId}/delivery${query}`)).body.data as any[];

/** Sends one API-caused event (one attempt) to every webhook of the account. */
export const createMonitor = (c: Client) => monitor(c);

/** A sandbox and a receiver for the calling test file, closed with it. */
export function useSandbox(): void {
  beforeAll(async () => ({ sb, rx } = await startWithReceiver()));
  afterAll(() => closeWithReceiver(sb, rx));
}
