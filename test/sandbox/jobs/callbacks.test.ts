import { expect, it } from "vitest";
import { eventDataSchemas } from "../../../src/kinds/events.ts";
import { SandboxState, systemCtx } from "../../../src/sandbox/core/state.ts";
import { createAccount } from "../../../src/sandbox/resources/accounts.ts";
import { createJob, runnableJobCollection } from "../../../src/sandbox/resources/jobs/model.ts";
import { jobRunner } from "../../../src/sandbox/resources/jobs/runner.ts";
import { type DeliveryDoc, deliveryCollection } from "../../../src/sandbox/resources/webhooks/deliveries.ts";
import { type WebhookDoc, webhookCollection } from "../../../src/sandbox/resources/webhooks/model.ts";

/** Runs the job runner until no job is left to run: one call hands over after its time slice on a loaded machine. */
async function runJobs(state: SandboxState): Promise<void> {
  do await jobRunner.work!(state);
  while (state.store.scan(runnableJobCollection).length > 0);
}

/**
 * Job callbacks, checked on the store: the webhook routes belong to another
 * part, so the webhook is put directly and the queued deliveries are read back.
 */
function setUp() {
  const state = new SandboxState();
  state.baseUrl = "http://sandbox.test";
  const now = state.clock.now();
  const account = createAccount(state.store, now, { plan: "business" });
  const webhook: WebhookDoc = {
    id: "wh-1",
    accountId: account.id,
    url: "https://receiver.example.com/hook",
    events: ["monitor.created"],
    scope: { all: true },
    name: null,
    headers: [],
    secret: "whsec_0123456789abcdef0123",
    secretUpdatedAt: now,
    previousSecret: null,
    previousValidUntil: null,
    enabled: true,
    consecutiveFailures: 0,
    disabledReason: null,
    lastDeliveryAt: null,
    failingSince: null,
    created: now,
    updated: now,
    syncSeq: 0,
  };
  state.store.put(webhookCollection, webhook);
  return { state, accountId: account.id };
}

const deliveries = (state: SandboxState, accountId: string) =>
  state.store
    .all<DeliveryDoc>(deliveryCollection, accountId)
    .sort((a, b) => a.created - b.created)
    .map((d) => ({ ...d, data: JSON.parse(d.payload!).data }));

const monitorItem = (path: string) => ({
  type: "http",
  url: `https://example.com/${path}`,
  locations: { pools: ["allworld"] },
});

it("queues job.completed to the callback webhook with the first page of results", async () => {
  const { state, accountId } = setUp();
  const ctx = systemCtx(state, accountId);
  const job = state.store.transaction(() =>
    createJob(ctx, {
      kind: "monitor.bulkCreate",
      scopes: ["monitor:write"],
      items: [{ input: monitorItem("a"), itemRef: "a" }, { input: { type: "http" } }],
      callback: { webhookId: "wh-1" },
    }),
  );
  await runJobs(state);

  // No progress events without `on: progress`; the webhook's own subscription is not needed for callbacks.
  const queued = deliveries(state, accountId).filter((d) => d.event.startsWith("job."));
  expect(queued.map((d) => d.event)).toEqual(["job.completed"]);
  const [completed] = queued;
  expect(completed).toMatchObject({
    webhookId: "wh-1",
    resourceId: job.id,
    maxAttempts: 1,
    outcome: "pending",
  });
  const data = eventDataSchemas["job.completed"].parse(completed!.data);
  expect(data).toMatchObject({
    jobId: job.id,
    kind: "monitor.bulkCreate",
    state: "partial",
    progress: { done: 2, total: 2 },
    created: job.created,
    resultsTruncated: false,
    resultsUrl: `http://sandbox.test/job/${job.id}`,
  });
  expect(data.summary).toMatchObject({ created: 1, failed: 1 });
  expect(data.results.map((r) => r.status)).toEqual(["created", "failed"]);
  expect(data.results[1]!.error).toMatchObject({ code: "validation_failed" });
  // monitor.created went to the webhook too, as its subscription asks.
  expect(deliveries(state, accountId).filter((d) => d.event === "monitor.created")).toHaveLength(1);
});

it("adds throttled job.progress with on: progress, and truncates results past the first page", async () => {
  const { state, accountId } = setUp();
  const ctx = systemCtx(state, accountId);
  const items = Array.from({ length: 60 }, (_, i) => ({ input: monitorItem(`p${i}`) }));
  const job = state.store.transaction(() =>
    createJob(ctx, {
      kind: "monitor.bulkCreate",
      scopes: ["monitor:write"],
      items,
      callback: { webhookId: "wh-1", on: "progress" },
    }),
  );
  await runJobs(state);
  const events = deliveries(state, accountId).filter((d) => d.event.startsWith("job."));
  // Queued on creation, running at the first item, then nothing more within the throttle window.
  expect(events.map((d) => [d.event, d.data.state])).toEqual([
    ["job.progress", "queued"],
    ["job.progress", "running"],
    ["job.completed", "succeeded"],
  ]);
  const progress = eventDataSchemas["job.progress"].parse(events[1]!.data);
  expect(progress).toMatchObject({ jobId: job.id, progress: { done: 1, total: 60 } });
  const completed = eventDataSchemas["job.completed"].parse(events[2]!.data);
  expect(completed.results).toHaveLength(50);
  expect(completed.resultsTruncated).toBe(true);
  expect(completed.resultsUrl).toMatch(new RegExp(`^http://sandbox.test/job/${job.id}\\?cursor=`));
});

it("sends nothing to a disabled webhook", async () => {
  const { state, accountId } = setUp();
  const hook = state.store.get<WebhookDoc>(webhookCollection, "wh-1")!;
  state.store.put(webhookCollection, { ...hook, enabled: false });
  const ctx = systemCtx(state, accountId);
  state.store.transaction(() =>
    createJob(ctx, {
      kind: "monitor.bulkCreate",
      scopes: ["monitor:write"],
      items: [{ input: monitorItem("d") }],
      callback: { webhookId: "wh-1", on: "progress" },
    }),
  );
  await runJobs(state);
  expect(deliveries(state, accountId)).toEqual([]);
});
