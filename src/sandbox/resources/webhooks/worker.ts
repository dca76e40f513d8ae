import { sweepAtMostEvery } from "../../core/background.ts";
import { type BackgroundTask, type SandboxState, systemCtx } from "../../core/state.ts";
import { recordAttempt } from "./attempts.ts";
import {
  type DeliveryDoc,
  deliveryCollection,
  deliveryIndex,
  dropDelivery,
  purgeDeliveries,
} from "./deliveries.ts";
import { type DeliveryIndex, dueAt } from "./delivery-index.ts";
import { type WebhookDoc, webhookCollection } from "./model.ts";
import { connectionsPerOrigin, sendAttempt } from "./send.ts";

/** Sends in flight at once, across all webhooks. */
export const deliveryConcurrency = connectionsPerOrigin;

/** Sandbox seconds between sweeps of expired deliveries (a sweep walks every delivery kept). */
const purgeEverySec = 600;

/**
 * Sends one attempt of a delivery the index says is due. The index is a hint:
 * the delivery is read again, and skipped when it is gone, finished, not due
 * (a stale entry from before its last attempt), or already on its way.
 */
async function deliverOne(state: SandboxState, index: DeliveryIndex, id: string): Promise<void> {
  const now = state.clock.now();
  const d = state.store.get<DeliveryDoc>(deliveryCollection, id);
  if (!d || index.inFlight.has(id)) return;
  const at = dueAt(d);
  if (at === null || at > now) return;
  const webhook = state.store.get<WebhookDoc>(webhookCollection, d.webhookId);
  if (!webhook?.enabled || d.payload === null) {
    // Disabling drops pending deliveries in its own transaction; this one got past it.
    state.store.transaction(() => dropDelivery(systemCtx(state, d.accountId), d));
    return;
  }
  // A redelivery asked for while this attempt is on its way is not answered by it.
  const redelivery = d.redeliverRequests.length > 0;
  index.inFlight.add(id);
  try {
    const result = await sendAttempt(state.services.settings, {
      webhook,
      deliveryId: d.id,
      event: d.event,
      attempt: d.attempts.length + 1,
      body: d.payload,
      now,
    });
    state.store.transaction(() => recordAttempt(systemCtx(state, d.accountId), d.id, result, redelivery));
  } finally {
    index.inFlight.delete(id);
    // Hints taken while this attempt was in flight were skipped, and a failed
    // record left the delivery as it was: whatever is still due gets a hint again.
    const after = state.store.get<DeliveryDoc>(deliveryCollection, id);
    const due = after ? dueAt(after) : null;
    if (after && due !== null && due <= state.clock.now()) index.note(after);
  }
}

/**
 * The delivery worker: sends every pending delivery whose time has come (by
 * the sandbox clock), earliest first, `deliveryConcurrency` at a time, taking
 * them from the index of pending deliveries (never walking the stored ones).
 * Retries wait for their `nextRetryAt`; `due` sweeps expired deliveries.
 */
export const webhookDeliveryTask: BackgroundTask = {
  name: "webhookDeliveries",
  due(state, now) {
    sweepAtMostEvery(state.store, "webhookDeliveries.sweep", purgeEverySec, now, () =>
      purgeDeliveries({ ...systemCtx(state, ""), now }),
    );
  },
  pending: (state, now) => deliveryIndex(state.store).hasDue(now),
  async work(state) {
    const index = deliveryIndex(state.store);
    const lane = async () => {
      // A stopping sandbox sends nothing more: what is queued goes out at the next start.
      while (!state.background.stopping) {
        const [id] = index.takeDue(state.clock.now(), 1);
        if (id === undefined) return;
        await deliverOne(state, index, id);
      }
    };
    await Promise.all(Array.from({ length: deliveryConcurrency }, lane));
  },
};
