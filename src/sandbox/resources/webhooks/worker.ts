import { type BackgroundTask, systemCtx } from "../../core/background.ts";
import type { SandboxState } from "../../core/state.ts";
import {
  type DeliveryDoc,
  deliveryCollection,
  dropPending,
  purgeDeliveries,
  recordAttempt,
  type WebhookDoc,
  webhookCollection,
} from "./model.ts";
import { connectionsPerOrigin, sendAttempt } from "./send.ts";

/** Sends in flight at once, across all webhooks. */
export const deliveryConcurrency = connectionsPerOrigin;

/** Sandbox seconds between sweeps of expired deliveries. */
const purgeEverySec = 600;
const lastPurge = new WeakMap<SandboxState, number>();

async function deliverOne(state: SandboxState, id: string): Promise<void> {
  const d = state.store.get<DeliveryDoc>(deliveryCollection, id);
  if (d?.outcome !== "pending") return;
  const webhook = state.store.get<WebhookDoc>(webhookCollection, d.webhookId);
  if (!webhook?.enabled || d.payload === null) {
    // Disabling drops pending deliveries; this one was queued in between.
    state.store.transaction(() => {
      const ctx = systemCtx(state, d.accountId);
      if (webhook) dropPending(ctx, webhook.id);
      else state.store.remove(deliveryCollection, d.id);
    });
    return;
  }
  const result = await sendAttempt(state.services.settings, {
    webhook,
    deliveryId: d.id,
    event: d.event,
    attempt: d.attempts.length + 1,
    body: d.payload,
    now: state.clock.now(),
  });
  state.store.transaction(() => recordAttempt(systemCtx(state, d.accountId), d.id, result));
}

/**
 * The delivery worker: sends every pending delivery whose time has come (by
 * the sandbox clock), `deliveryConcurrency` at a time, until none is due.
 * Retries wait for their `nextRetryAt`; `due` sweeps expired deliveries.
 */
export const webhookDeliveryTask: BackgroundTask = {
  name: "webhookDeliveries",
  due(state, now) {
    const last = lastPurge.get(state);
    if (last !== undefined && now - last < purgeEverySec) return;
    lastPurge.set(state, now);
    const ctx = { ...systemCtx(state, ""), now };
    purgeDeliveries(ctx, state.store.scan<DeliveryDoc>(deliveryCollection));
  },
  async work(state) {
    for (;;) {
      const now = state.clock.now();
      const due = state.store
        .scan<DeliveryDoc>(deliveryCollection)
        .filter((d) => d.outcome === "pending" && d.nextRetryAt !== null && d.nextRetryAt <= now);
      if (due.length === 0) return;
      due.sort((a, b) => a.nextRetryAt! - b.nextRetryAt!);
      let next = 0;
      const lane = async () => {
        while (next < due.length) await deliverOne(state, due[next++]!.id);
      };
      await Promise.all(Array.from({ length: Math.min(deliveryConcurrency, due.length) }, lane));
    }
  },
};
