import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MemoryStateStore } from "../../src/engine/index.ts";
import { PostgresLease } from "../../src/engine/state/postgres-lease.ts";
import {
  Election,
  type LeaseBackend,
  LeasedRecords,
  LeaseLostError,
  leasedStore,
} from "../../src/watch/lease.ts";
import { emptyRecord, parseRecord, type WatchRecord } from "../../src/watch/record.ts";
import { freshSchema, type PostgresServer, postgresForTests } from "../helpers/postgres.ts";
import { startTestSandbox, type TestSandbox } from "../helpers/sandbox.ts";
import { healthz, sample, scrape } from "./helpers.ts";
import { applyTo, type InProcess, ManualClock, monitor, watchInProcess } from "./inprocess.ts";

/**
 * The election of one active watcher (src/watch/lease.ts) on a real PostgreSQL lease. Each replica's own
 * clock is a ManualClock the test moves; the database's clock cannot be moved, so a lease that lapsed is
 * made by moving its row's expiry into the past, as the database would see it after a pause.
 */
const server: PostgresServer | undefined = await postgresForTests();
const leaseMs = 15_000;
const opened: { close(): Promise<void> }[] = [];
let sb: TestSandbox;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.close()));
});
afterAll(async () => {
  await sb?.close();
  await server?.stop();
});

function leaseOf(url: string): PostgresLease {
  const lease = new PostgresLease(url, { name: "watch", timeoutMs: 5000 });
  opened.push(lease);
  return lease;
}

/** The database's clock passes the lease's end with no renewal: what it sees of a holder paused that long. */
async function lapse(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url.replace(/\?schema=.*$/, "") });
  await client.connect();
  try {
    await client.query(`UPDATE "${schema}".leases SET expires_at = now() - interval '1 millisecond'`);
  } finally {
    await client.end();
  }
}

describe.skipIf(!server)("the watch lease", () => {
  it("a lapsed lease loses: a standby takes it with the next token, and the old holder can neither renew nor save", async () => {
    const schema = freshSchema();
    const url = server!.url(schema);
    const clock = new ManualClock();
    const a = new Election({ backend: leaseOf(url), leaseMs, time: clock });
    const b = new Election({ backend: leaseOf(url), leaseMs, time: clock });

    expect(await a.tryAcquire()).toBe(true);
    const first = a.term!;
    expect(await b.tryAcquire()).toBe(false);
    expect(b.describeActive()).toMatch(/^another replica is active: .*\(pid \d+, vigil .*, watch\)/);
    // Renewed, it keeps holding past its first deadline.
    await clock.advance(leaseMs / 3);
    expect(await a.renew()).toBe(true);
    await clock.advance(leaseMs / 2);
    expect(first.holds()).toBe(true);
    expect(await b.tryAcquire()).toBe(false);

    await lapse(url, schema);
    expect(await b.tryAcquire()).toBe(true);
    const second = b.term!;
    expect(second.token).toBe(first.token + 1);
    expect(await a.renew()).toBe(false);
    expect(first.holds()).toBe(false);
    await expect(new LeasedRecords(a.backend, first).save(emptyRecord("old"))).rejects.toThrow(
      LeaseLostError,
    );
    await new LeasedRecords(b.backend, second).save(emptyRecord("new"));
    // What the new holder saved is what anyone loads: the old one's refused save left no trace.
    expect((await new LeasedRecords(a.backend, first).load())?.lineage).toBe("new");
  });

  it("a paused holder stops acting at its own deadline, before the database lets anyone take over", async () => {
    const url = server!.url(freshSchema());
    const clock = new ManualClock();
    const a = new Election({ backend: leaseOf(url), leaseMs, time: clock });
    const b = new Election({ backend: leaseOf(url), leaseMs, time: clock });
    expect(await a.tryAcquire()).toBe(true);
    const term = a.term!;
    const store = leasedStore(new MemoryStateStore(), term);
    await (await store.lock()).release();

    // Frozen for two thirds of the lease: no renewal ran. Its deadline has passed; the lease has not.
    clock.jump((leaseMs * 2) / 3);
    expect(term.holds()).toBe(false);
    await expect(store.lock()).rejects.toThrow(
      /healing was not done: this replica no longer holds the watch lease/,
    );
    await expect(new LeasedRecords(a.backend, term).save(emptyRecord("x"))).rejects.toThrow(LeaseLostError);
    expect(await b.tryAcquire()).toBe(false);

    // Running again before anyone took over, its renewal succeeds and it acts again.
    expect(await a.renew()).toBe(true);
    expect(term.holds()).toBe(true);
    await new LeasedRecords(a.backend, term).save(emptyRecord("x"));
  });

  it("a holder paused between saving a transition and saying it does not say it once its lease has lapsed", {
    timeout: 60_000,
  }, async () => {
    const url = server!.url(freshSchema());
    const account = await sb.account();
    const store = new MemoryStateStore();
    const desired = [monitor("web")];
    await applyTo(sb, account.token, store, desired);
    const time = new ManualClock();
    const lease = leaseOf(url);
    let pauseAfterSave = false;
    // The real lease; its save succeeds, then the process freezes past its deadline before going on.
    const pausing: LeaseBackend = {
      description: lease.description,
      attempt: (holder, ms) => lease.attempt(holder, ms),
      renew: (token, ms) => lease.renew(token, ms),
      release: (token) => lease.release(token),
      load: () => lease.load(),
      post: (item, max) => lease.post(item, max),
      inbox: (limit) => lease.inbox(limit),
      taken: (ids) => lease.taken(ids),
      close: () => lease.close(),
      async save(token, document) {
        const saved = await lease.save(token, document);
        // The save that records the drift (the one before it, on receipt, says only that events wait).
        if (pauseAfterSave && (document as WatchRecord).reported.length > 0) time.jump(leaseMs);
        return saved;
      },
    };
    const w = await watchInProcess(sb, account.token, {
      desired,
      store,
      time,
      lease: { election: new Election({ backend: pausing, leaseMs, time }) },
    });
    opened.push(w);
    await expect.poll(() => w.watch.replica?.watcher?.ready, { timeout: 20_000 }).toBe(true);

    await sb.advance(5);
    const id = store.saved!.resources["monitors.web"]!.id!;
    await account.patch(`/monitor/${id}`, { name: "Renamed by hand" });
    pauseAfterSave = true;
    expect(await w.deliver("monitor.updated", (await account.get(`/monitor/${id}`)).body)).toBe(202);
    await w.watch.watcher.settled();
    expect(w.transitions).toEqual([]);
    expect(w.logs, w.logs.join("\n")).toContain(
      "Warning: monitors.web drifted was not reported: this replica lost the watch lease (term 1) after saving it.",
    );
    // Saved: a successor counts it as reported, so it is said by no one rather than twice.
    expect(parseRecord(await lease.load(), "the lease row").reported.map((r) => r.address)).toEqual([
      "monitors.web",
    ]);
  });

  it("two replicas: one reports, the other stands by; the holder paused past its lease reports nothing once the other took over", {
    timeout: 60_000,
  }, async () => {
    const schema = freshSchema();
    const url = server!.url(schema);
    const account = await sb.account();
    const store = new MemoryStateStore();
    const desired = [monitor("web"), monitor("api")];
    await applyTo(sb, account.token, store, desired);
    const idOf = (name: string) => store.saved!.resources[`monitors.${name}`]!.id!;
    await account.patch(`/monitor/${idOf("web")}`, { name: "Renamed by hand" });

    const replica = async (time: ManualClock) => {
      const w = await watchInProcess(sb, account.token, {
        desired,
        store,
        time,
        lease: { election: new Election({ backend: leaseOf(url), leaseMs, time }) },
      });
      opened.push(w);
      return w;
    };
    const healthzOf = (w: InProcess) => healthz(w.watch.url!);
    const [clockA, clockB] = [new ManualClock(), new ManualClock()];
    const a = await replica(clockA);
    await expect.poll(() => a.watch.replica?.watcher?.ready, { timeout: 20_000 }).toBe(true);
    const b = await replica(clockB);
    await expect
      .poll(() => b.logs.some((l) => l.startsWith("Standing by: another replica is active")))
      .toBe(true);

    expect(a.transitions.map((t) => [t.address, t.transition])).toEqual([["monitors.web", "drifted"]]);
    expect(await healthzOf(a)).toMatchObject({ status: 200, body: { status: "ok", role: "active" } });
    expect(await healthzOf(b)).toMatchObject({ status: 200, body: { status: "standby", role: "standby" } });
    const metrics = await scrape(b.watch.url!);
    expect(sample(metrics, "vigil_watch_role", { role: "standby" })).toBe(1);
    expect(sample(metrics, "vigil_watch_role", { role: "active" })).toBe(0);

    // A freezes past its lease; B takes over at its next try, and resumes from A's record.
    clockA.jump(leaseMs);
    await lapse(url, schema);
    await clockB.advance(leaseMs / 5);
    await expect.poll(() => b.watch.replica?.watcher?.ready, { timeout: 20_000 }).toBe(true);
    expect(b.logs.join("\n")).toMatch(/Active: this replica holds the watch lease \(term 2, 15 s/);

    await sb.advance(5);
    await account.patch(`/monitor/${idOf("api")}`, { interval: 120 });
    const row = (await account.get(`/monitor/${idOf("api")}`)).body as Record<string, unknown>;
    // A delivery that reaches the frozen holder is kept in the database (the API sends it once), and the
    // active replica takes it at its next renewal.
    expect(await a.deliver("monitor.updated", row)).toBe(202);
    expect(a.transitions.map((t) => t.address)).toEqual(["monitors.web"]);
    await clockB.advance(leaseMs / 5);
    await expect
      .poll(() => b.transitions.map((t) => [t.address, t.transition]), { timeout: 20_000 })
      .toEqual([["monitors.api", "drifted"]]);
    // Sent straight to the active one, it is judged at once (here: no transition, it is the same drift).
    expect(await b.deliver("monitor.updated", row)).toBe(202);
    await b.watch.watcher.settled();
    expect(b.transitions).toHaveLength(1);

    // A runs again with its full refresh overdue: whatever it judges, it reports nothing, and stands by.
    await clockA.advance(60 * 60_000);
    await expect
      .poll(() => a.logs.some((l) => l.startsWith("Lost the watch lease")), { timeout: 20_000 })
      .toBe(true);
    expect(a.transitions.map((t) => [t.address, t.transition])).toEqual([["monitors.web", "drifted"]]);
    expect(await healthzOf(a)).toMatchObject({ status: 200, body: { status: "standby" } });
    // The record B keeps holds both drifts: a third replica would report neither again.
    const saved = parseRecord(await leaseOf(url).load(), "the lease row");
    expect(saved.reported.map((r) => r.address).sort()).toEqual(["monitors.api", "monitors.web"]);
  });
});
