import { request } from "undici";
import { afterAll, beforeAll, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { healthz, sample, scrape } from "./helpers.ts";
import { applyTo, type InProcess, ManualClock, monitor, watchInProcess } from "./inprocess.ts";

/**
 * `/healthz` and the metrics while the API fails: the watcher in this process on a clock the test
 * moves, the sandbox answering every call 503 while its faults are on.
 */
let sb: TestSandbox;
let w: InProcess | undefined;
/** The number docs/watch.md gives. */
const failingAfter = 3;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await w?.close();
  await sb?.close();
});

it(`answers 503 after ${failingAfter} failed refreshes in a row, says when a read last succeeded, and counts API errors`, {
  timeout: 60_000,
}, async () => {
  const account = await sb.account();
  const store = new MemoryStateStore();
  const desired = [monitor("web")];
  await applyTo(sb, account.token, store, desired);
  const time = new ManualClock();
  w = await watchInProcess(sb, account.token, { desired, store, time });
  const url = w.watch.url!;
  await expect.poll(() => w!.watch.watcher.ready, { timeout: 20_000 }).toBe(true);
  const startedAt = new Date(time.now()).toISOString();
  expect(await healthz(url)).toEqual({
    status: 200,
    body: { status: "ok", lastSuccessfulRead: startedAt, failedRefreshes: 0 },
  });

  // The API goes away: every call answers 503.
  expect((await sb.admin.post("/_sandbox/faults", { rate: 1, statuses: [503], when: "before" })).status).toBe(
    200,
  );
  // The delta sync falls due after 5 minutes; each failed one is tried again a minute later.
  await time.advance(5 * 60_000);
  for (let failed = 1; failed <= failingAfter; failed++) {
    if (failed > 1) await time.advance(60_000);
    await expect
      .poll(async () => (await healthz(url)).body.failedRefreshes, { timeout: 10_000 })
      .toBe(failed);
    expect((await healthz(url)).status).toBe(failed < failingAfter ? 200 : 503);
  }
  const failing = await healthz(url);
  expect(failing.body).toMatchObject({ status: "failing", lastSuccessfulRead: startedAt });
  expect(failing.body.detail).toContain(`the last ${failingAfter} refreshes failed`);
  let metrics = await scrape(url);
  expect(sample(metrics, "vigil_watch_api_errors_total", { reason: "5xx" })).toBe(failingAfter);
  expect(metrics.get("vigil_watch_api_errors_total")?.type).toBe("COUNTER");
  expect(sample(metrics, "vigil_watch_failed_refreshes")).toBe(failingAfter);
  expect(sample(metrics, "vigil_watch_last_successful_read_timestamp_seconds")).toBe(
    Date.parse(startedAt) / 1000,
  );

  // Back: the next refresh succeeds, and the watcher is healthy again.
  expect((await sb.admin.delete("/_sandbox/faults")).status).toBe(200);
  await time.advance(60_000);
  await expect.poll(async () => (await healthz(url)).status, { timeout: 10_000 }).toBe(200);
  const healthy = await healthz(url);
  expect(healthy.body).toEqual({
    status: "ok",
    lastSuccessfulRead: new Date(time.now()).toISOString(),
    failedRefreshes: 0,
  });
  metrics = await scrape(url);
  expect(sample(metrics, "vigil_watch_last_successful_read_timestamp_seconds")).toBe(time.now() / 1000);
});

it("counts deliveries refused for their size or their signature by reason", async () => {
  const url = w!.watch.url!;
  const big = await request(`${url}/events`, {
    method: "POST",
    headers: { "content-type": "application/json", "SVC-Event": "monitor.updated" },
    body: JSON.stringify({ padding: "x".repeat(300 * 1024) }),
  });
  await big.body.dump();
  expect(big.statusCode).toBe(413);
  const unsigned = await request(`${url}/events`, {
    method: "POST",
    headers: { "content-type": "application/json", "SVC-Event": "monitor.updated" },
    body: "{}",
  });
  await unsigned.body.dump();
  expect(unsigned.statusCode).toBe(401);

  const metrics = await scrape(url);
  expect(sample(metrics, "vigil_watch_events_refused_total", { reason: "too_large" })).toBe(1);
  expect(sample(metrics, "vigil_watch_events_refused_total", { reason: "unsigned" })).toBe(1);
  expect(sample(metrics, "vigil_watch_events_received_total", { event: "monitor.updated" })).toBe(2);
});
