/**
 * Terraform's shared lock conformance cases (TestRemoteLocks: two clients,
 * lock, relock refused, unlock, unlock with a wrong id refused), and the rest
 * of what every backend promises (leases, waiting, workspaces, history, push),
 * run against each backend: the file store and PostgreSQL.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { State } from "../../../src/engine/model.ts";
import {
  FileStateStore,
  newState,
  pushState,
  type StateBackend,
  StateFileError,
  StateLockedError,
  type StoreOptions,
} from "../../../src/engine/state/index.ts";
import { PostgresStateStore } from "../../../src/engine/state/postgres-store.ts";
import { ManualClock, until } from "../../helpers/clock.ts";
import { freshSchema, postgresForTests } from "../../helpers/postgres.ts";
import { kill, startChild, tempStatePath } from "./helpers.ts";

const server = await postgresForTests();
afterAll(() => server?.stop());

interface Backend {
  name: string;
  /** A new, empty place; each call of `open` on it is another client. */
  place(): string;
  open(place: string, options?: StoreOptions): StateBackend;
}

const backends: Backend[] = [
  { name: "file", place: tempStatePath, open: (place, options) => new FileStateStore(place, options) },
  ...(server
    ? [
        {
          name: "postgres",
          place: () => server.url(freshSchema()),
          open: (place: string, options?: StoreOptions) => new PostgresStateStore(place, options),
        },
      ]
    : []),
];

function stateWith(serial: number, addresses: string[], lineage?: string): State {
  const state = { ...newState(), serial, ...(lineage && { lineage }) };
  for (const a of addresses)
    state.resources[a] = {
      kind: "monitor",
      id: a,
      naturalKey: { url: `https://${a}/` },
      managed: { name: a },
    };
  return state;
}

describe.each(backends)("the $name backend", (backend) => {
  const clients: StateBackend[] = [];
  const open = (place: string, options?: StoreOptions) => {
    const store = backend.open(place, options);
    clients.push(store);
    return store;
  };
  afterAll(async () => {
    for (const c of clients) await c.close();
  });

  it("TestRemoteLocks: lock, relock refused, unlock, lock from the other client, unlock with a wrong id refused", async () => {
    const place = backend.place();
    const a = open(place, { operation: "apply" });
    const b = open(place, { operation: "destroy" });

    const lockA = await a.lock();
    const idA = (await a.currentLock())!.id;
    // The other client still reads while A holds the lock.
    expect(await b.read()).toBeUndefined();

    const refused = await b.lock().catch((e: unknown) => e);
    expect(refused, "client B obtained the lock while A held it").toBeInstanceOf(StateLockedError);
    expect((refused as StateLockedError).holder).toMatchObject({
      id: idA,
      operation: "apply",
      pid: process.pid,
    });
    expect((refused as Error).message).toContain(`lock id ${idA}`);
    // Relock from the holder's own client is refused too: a lock is never re-entered by accident.
    await expect(a.lock()).rejects.toBeInstanceOf(StateLockedError);

    await lockA.release();
    const lockB = await b.lock();
    const idB = (await b.currentLock())!.id;
    expect(idB, "duplicate lock ids").not.toBe(idA);
    await lockB.release();

    const again = await a.lock();
    const idA2 = (await a.currentLock())!.id;
    // Unlocking with a stale or wrong id is refused, and the lock stays.
    for (const wrong of [idB, idA, "not-a-lock-id"])
      await expect(b.unlock(wrong)).rejects.toThrow(`lock id ${wrong} does not name the lock`);
    expect((await b.currentLock())?.id).toBe(idA2);
    await expect(b.lock()).rejects.toBeInstanceOf(StateLockedError);

    // The right id releases it, and the run that held it can no longer write.
    expect((await b.unlock(idA2)).id).toBe(idA2);
    expect(await b.currentLock()).toBeUndefined();
    await expect(again.write(stateWith(1, []))).rejects.toThrow("lost");
    const lockB2 = await b.lock();
    await lockB2.release();
    await again.release();
    await expect(b.unlock(idA2)).rejects.toThrow("not locked");
  });

  it("records who holds the lock: id, user, host, pid, version, operation, times and the CI run", async () => {
    const place = backend.place();
    const saved = { ...process.env };
    Object.assign(process.env, { GITHUB_RUN_ID: "42", GITHUB_REPOSITORY: "acme/monitoring" });
    try {
      const store = open(place, { operation: "import" });
      const lock = await store.lock();
      const holder = (await open(place).currentLock())!;
      expect(holder).toMatchObject({
        operation: "import",
        pid: process.pid,
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        ciUrl: "https://github.com/acme/monitoring/actions/runs/42",
      });
      expect(holder.user.length).toBeGreaterThan(0);
      expect(Date.parse(holder.expiresAt) - Date.parse(holder.takenAt)).toBeGreaterThanOrEqual(119_000);
      await lock.release();
    } finally {
      process.env = saved;
    }
  });

  it("a waiting run says who holds the lock, then takes it when it is released", async () => {
    const place = backend.place();
    const time = new ManualClock();
    const first = await open(place, { operation: "apply", time }).lock();
    const messages: string[] = [];
    const waiting = open(place, { lockTimeoutMs: 10_000, onWaiting: (m) => messages.push(m), time }).lock();
    await until(() => messages.length > 0);
    await first.release();
    const second = await time.drive(waiting);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /is locked by .*\(pid \d+, vigil .*, apply\) since .*, lock id .*; waiting up to 10s/,
    );
    await second.release();
  });

  it("gives up after the lock timeout with exit-worthy details", async () => {
    const place = backend.place();
    const time = new ManualClock();
    const first = await open(place, { operation: "apply", time }).lock();
    const started = time.now();
    const error = await time.drive(
      open(place, { lockTimeoutMs: 400, time })
        .lock()
        .catch((e: unknown) => e),
    );
    expect(time.now() - started).toBeGreaterThanOrEqual(400);
    expect(error).toBeInstanceOf(StateLockedError);
    expect((error as Error).message).toMatch(/Gave up after waiting 400ms \(--lock-timeout\)/);
    await first.release();
  });

  // Real processes on real time (two node starts, a lease run out): a loaded machine takes its time to start them.
  it("frees a killed holder's lock at once, and a hung holder's when its lease runs out, fencing its writes", {
    timeout: 60_000,
  }, async () => {
    const place = backend.place();
    const killed = await startChild("hold", place);
    await kill(killed);
    const warnings: string[] = [];
    const lock = await open(place, { onWarning: (m) => warnings.push(m) }).lock();
    expect(warnings.join("\n")).toMatch(/took over the lock .* child hold/);
    await lock.release();

    const hung = await startChild("hold", place, 1500);
    hung.kill("SIGSTOP");
    try {
      await expect(open(place).lock(), "a live holder's lock is never taken").rejects.toBeInstanceOf(
        StateLockedError,
      );
      const taken = await open(place, { lockTimeoutMs: 10_000 }).lock();
      hung.kill("SIGCONT");
      hung.stdin!.write("write\n");
      expect((await hung.lines.next()).value).toMatch(/^lost: /);
      await taken.release();
    } finally {
      hung.kill("SIGCONT");
      await kill(hung);
    }
  });

  it("renews the lease while the run lives", async () => {
    const place = backend.place();
    // Starts at the real time, so the database's clock (PostgreSQL's lease expiry) and this one agree.
    const time = new ManualClock(Date.now());
    const store = open(place, { leaseMs: 60_000, time });
    const lock = await store.lock();
    const taken = Date.parse((await store.currentLock())!.expiresAt);
    // Three leases' worth of clock, one renewal (a quarter lease) at a time.
    for (let renewal = 0; renewal < 12; renewal++) {
      await until(() => time.waiting > 0);
      await time.advance(15_000);
    }
    await until(() => time.waiting > 0);
    expect(Date.parse((await store.currentLock())!.expiresAt)).toBeGreaterThan(taken);
    await expect(open(place, { time }).lock()).rejects.toBeInstanceOf(StateLockedError);
    await lock.write(stateWith(1, ["monitors.a"]));
    await lock.release();
  });

  it("frees a lease that is not renewed when the clock passes its end, with no real wait", async () => {
    const place = backend.place();
    const time = new ManualClock(Date.now());
    const first = await open(place, { leaseMs: 60_000, time }).lock();
    // The clock passes the lease's end, but this holder's renewals (on its own, real clock) never come.
    const later = new ManualClock(Date.now() + 61_000);
    const warnings: string[] = [];
    const taken = await open(place, { time: later, onWarning: (m) => warnings.push(m) })
      .lock()
      .catch((e: unknown) => e);
    await first.release().catch(() => {});
    if (backend.name === "postgres") {
      // PostgreSQL judges leases by the database's clock, which this test does not move.
      expect(taken).toBeInstanceOf(StateLockedError);
      return;
    }
    expect(taken).not.toBeInstanceOf(Error);
    expect(warnings.join("\n")).toMatch(/its lease ran out at/);
    await (taken as Awaited<ReturnType<StateBackend["lock"]>>).release();
  });

  it("keeps workspaces apart: their locks never block each other", async () => {
    const place = backend.place();
    const prod = await open(place, { workspace: "prod" }).lock();
    const staging = await open(place, { workspace: "staging" }).lock();
    await prod.write(stateWith(1, ["monitors.p"]));
    await staging.write(stateWith(5, ["monitors.s1", "monitors.s2"]));
    expect(Object.keys((await open(place, { workspace: "prod" }).read())!.resources)).toEqual(["monitors.p"]);
    const listed = await open(place).workspaces();
    expect(listed.map((w) => [w.name, w.serial, w.lock !== undefined])).toEqual([
      ["prod", 1, true],
      ["staging", 5, true],
    ]);
    await prod.release();
    await staging.release();
    expect((await open(place).workspaces()).every((w) => w.lock === undefined)).toBe(true);
    expect(() => open(place, { workspace: "../etc" })).toThrow("is not a valid name");
  });

  it("keeps one version per run, newest first, with its holder and what it changed, within retention", async () => {
    const place = backend.place();
    const store = open(place, { operation: "apply", keepVersions: 3 });
    /** One run: takes the lock, saves each state in turn (its journal saves), releases. */
    const run = async (...states: State[]) => {
      const lock = await store.lock();
      await lock.read();
      for (const state of states) await lock.write(state);
      await lock.release();
    };
    const first = stateWith(1, ["monitors.a"]);
    const lineage = first.lineage;
    await run(first);
    await run(
      stateWith(2, ["monitors.a", "monitors.x"], lineage),
      stateWith(3, ["monitors.a", "monitors.b"], lineage),
    );
    const renamed = stateWith(4, ["monitors.b"], lineage);
    renamed.resources["monitors.b"]!.managed = { name: "renamed" };
    await run(renamed);
    const pending = stateWith(5, ["monitors.b", "monitors.c"], lineage);
    pending.resources["monitors.b"]!.managed = { name: "renamed" };
    pending.resources["monitors.c"]!.pending = {
      action: "create",
      idempotencyKey: "vigil-k",
      bodyDigest: `sha256:${"0".repeat(64)}`,
      startedAt: 0,
    };
    await run(pending);

    const history = await store.history({ limit: 10 });
    expect(history.map((v) => v.serial)).toEqual([5, 4, 3]);
    expect(history[0]!.summary).toEqual({
      added: 1,
      changed: 0,
      removed: 0,
      pending: 1,
      addresses: ["monitors.c"],
    });
    expect(history[1]!.summary).toMatchObject({ added: 0, changed: 1, removed: 1 });
    // The run that saved twice is one version, summarised against what it found.
    expect(history[2]!.summary).toEqual({
      added: 1,
      changed: 0,
      removed: 0,
      pending: 0,
      addresses: ["monitors.b"],
    });
    expect(history[0]!.holder).toMatchObject({ operation: "apply", pid: process.pid });
    expect(new Set(history.map((v) => v.holder!.id)).size).toBe(3);
    expect((await store.history({ limit: 1, before: 5 })).map((v) => v.serial)).toEqual([4]);
    expect(Object.keys((await store.version(3))!.resources)).toEqual(["monitors.a", "monitors.b"]);
    expect(await store.version(2)).toBeUndefined();
    expect(await store.version(1)).toBeUndefined();
  });

  it("push refuses another lineage or an older serial unless forced", async () => {
    const place = backend.place();
    const store = open(place, { operation: "state push" });
    const current = stateWith(5, ["monitors.a"]);
    expect(await pushState(store, structuredClone(current), { force: false, source: "a.json" })).toEqual({
      serial: 5,
      unchanged: false,
    });
    await expect(pushState(store, stateWith(9, []), { force: false, source: "b.json" })).rejects.toThrow(
      "its lineage is",
    );
    const older = stateWith(3, [], current.lineage);
    await expect(pushState(store, older, { force: false, source: "c.json" })).rejects.toBeInstanceOf(
      StateFileError,
    );
    expect(
      await pushState(store, structuredClone(current), { force: false, source: "a.json" }),
    ).toMatchObject({
      unchanged: true,
    });
    expect(await pushState(store, older, { force: true, source: "c.json" })).toEqual({
      serial: 6,
      unchanged: false,
    });
    expect((await store.read())!.resources).toEqual({});
  });
});
