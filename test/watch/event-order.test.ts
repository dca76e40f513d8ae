import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/engine/index.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { sample, scrape } from "./helpers.ts";
import { applyTo, type InProcess, ManualClock, monitor, watchInProcess } from "./inprocess.ts";

/**
 * Deliveries in an order the API does not promise: late, replayed, and without their object. The
 * watcher runs in this process on a clock the test moves; the test signs each delivery itself, so
 * it decides which arrive and when.
 */
let sb: TestSandbox;
const running: InProcess[] = [];

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((w) => w.close()));
});
afterAll(() => sb?.close());

it("a late or replayed delivery never overwrites newer data", { timeout: 60_000 }, async () => {
  const account = await sb.account();
  const store = new MemoryStateStore();
  const desired = [monitor("web")];
  await applyTo(sb, account.token, store, desired);
  const time = new ManualClock();
  const w = await watchInProcess(sb, account.token, { desired, store, time });
  running.push(w);
  await expect.poll(() => w.watch.watcher.ready, { timeout: 20_000 }).toBe(true);
  const id = store.saved!.resources["monitors.web"]!.id!;
  // Each edit in a later second of the sandbox's clock, so the monitor's `updated` tells them apart.
  const edit = async (timeout: number) => {
    await sb.advance(5);
    expect((await account.patch(`/monitor/${id}`, { settings: { timeout } })).status).toBe(200);
    return (await account.get(`/monitor/${id}`)).body as Record<string, any>;
  };
  const deliver = async (row: Record<string, any>, occurredAt = row.updated as number) => {
    expect(await w.deliver("monitor.updated", row, occurredAt)).toBe(202);
    await w.watch.watcher.settled();
  };
  const afters = () => w.transitions.map((t) => [t.transition, t.members?.[0]?.after]);

  await deliver(await edit(20000));
  expect(afters()).toEqual([["drifted", 20000]]);
  // Put back, but this delivery fails for now; then edited again, and that one arrives.
  const putBack = await edit(10000);
  await deliver(await edit(30000));
  expect(afters()).toEqual([
    ["drifted", 20000],
    ["drifted", 30000],
  ]);

  // The failed delivery is sent again, late: it is older than what the watcher holds, and changes nothing.
  await deliver(putBack);
  // An older shape without `updated` is placed by the event's occurredAt.
  const { updated: _, ...bare } = putBack;
  await deliver(bare, putBack.updated);
  expect(afters()).toEqual([
    ["drifted", 20000],
    ["drifted", 30000],
  ]);
  const metrics = await scrape(w.watch.url!);
  expect(sample(metrics, "vigil_watch_drifted_resources", { kind: "monitor" })).toBe(1);

  // A delivery of a monitor the API deleted does not bring it back.
  expect((await account.delete(`/monitor/${id}`)).status).toBe(200);
  expect(await w.deliver("monitor.deleted", { id, deleted: true })).toBe(202);
  await w.watch.watcher.settled();
  await deliver({ ...putBack, updated: putBack.updated + 3600 });
  expect(w.transitions.at(-1)).toMatchObject({ transition: "drifted", deleted: true });
  expect(w.transitions).toHaveLength(3);
});

it("a burst of events without their objects costs one read", { timeout: 120_000 }, async () => {
  const account = await sb.account();
  const store = new MemoryStateStore();
  const desired = Array.from({ length: 20 }, (_, i) => monitor(`m${i}`));
  await applyTo(sb, account.token, store, desired);
  const time = new ManualClock();
  const w = await watchInProcess(sb, account.token, { desired, store, time });
  running.push(w);
  await expect.poll(() => w.watch.watcher.ready, { timeout: 20_000 }).toBe(true);

  const ids = desired.map((d) => store.saved!.resources[d.address]!.id!);
  for (const [i, id] of ids.entries())
    expect((await account.patch(`/monitor/${id}`, { name: `renamed ${i}` })).status).toBe(200);
  const before = w.reads();
  // An older API's events name the monitor without carrying it.
  const answers = await Promise.all(ids.map((id) => w.deliver("monitor.updated", { id })));
  expect(answers).toEqual(ids.map(() => 202));
  // The burst is gathered for a second of the watcher's clock, then read at once.
  await time.advance(1000);
  await w.watch.watcher.settled();

  expect(w.reads() - before).toBe(1);
  expect(w.transitions.map((t) => [t.address, t.transition, t.seenBy]).sort()).toEqual(
    desired.map((d) => [d.address, "drifted", "event"]).sort(),
  );
});
