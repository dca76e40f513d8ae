import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import type { State } from "../../../src/engine/model.ts";
import {
  FileStateStore,
  newState,
  StateFileError,
  StateLockedError,
} from "../../../src/engine/state/index.ts";
import { deadPid, tempStatePath } from "./helpers.ts";

const mode = (path: string) => statSync(path).mode & 0o777;

function sampleState(): State {
  return {
    ...newState(),
    serial: 3,
    accountId: "acc",
    syncCursors: { monitor: "cur" },
    resources: {
      "monitors.api": {
        kind: "monitor",
        id: "m1",
        naturalKey: { url: "https://x", type: "http" },
        managed: {},
      },
    },
  };
}

async function readError(path: string): Promise<StateFileError> {
  const lock = await new FileStateStore(path).lock();
  try {
    await lock.read();
  } catch (error) {
    expect(error).toBeInstanceOf(StateFileError);
    return error as StateFileError;
  } finally {
    await lock.release();
  }
  throw new Error("expected a StateFileError");
}

describe("FileStateStore: reading and writing", () => {
  it("reads undefined when there is no file, then what was written, pretty-printed", async () => {
    const path = tempStatePath();
    const store = new FileStateStore(path);
    expect(store.description).toBe(`file ${path}`);
    const lock = await store.lock();
    expect(await lock.read()).toBeUndefined();
    const state = sampleState();
    await lock.write(state);
    expect(await lock.read()).toEqual(state);
    expect(readFileSync(path, "utf8")).toBe(JSON.stringify(state, null, 2) + "\n");
    await lock.release();
  });

  it("creates the file 0600 whatever the umask, and restores 0600 on every write", async () => {
    const path = tempStatePath();
    const umask = process.umask(0);
    try {
      const lock = await new FileStateStore(path).lock();
      await lock.write(newState());
      expect(mode(path)).toBe(0o600);
      expect(mode(path + ".lock")).toBe(0o600);
      chmodSync(path, 0o644);
      await lock.write(newState());
      expect(mode(path)).toBe(0o600);
      await lock.release();
    } finally {
      process.umask(umask);
    }
  });

  it("leaves the old file intact when a writer crashed mid-write, and cleans its leftovers", async () => {
    const path = tempStatePath();
    const first = await new FileStateStore(path).lock();
    const state = sampleState();
    await first.write(state);
    await first.release();
    // What a writer killed before its rename leaves behind: a torn temporary file.
    const torn = `${path}.tmp-999999-abcdef`;
    writeFileSync(torn, JSON.stringify(state, null, 2).slice(0, 40));
    const lock = await new FileStateStore(path).lock();
    expect(await lock.read()).toEqual(state);
    expect(readdirSync(dirname(path)).sort()).toEqual([
      "vigil.state.history",
      basename(path),
      basename(path) + ".lock",
    ]);
    await lock.release();
  });

  it("reports bad JSON with the file, line and column", async () => {
    const path = tempStatePath();
    writeFileSync(path, '{\n  "format_version": 1,\n  "lineage": "x"\n  "serial": 0\n}\n');
    const error = await readError(path);
    expect(error.file).toBe(path);
    expect(error.line).toBe(4);
    expect(error.column).toBe(3);
    expect(error.message).toContain(`state file ${path} is not valid JSON at line 4, column 3`);
  });

  it("reports an empty file at its end", async () => {
    const path = tempStatePath();
    writeFileSync(path, "");
    const error = await readError(path);
    expect([error.line, error.column]).toEqual([1, 1]);
  });

  it("reports a schema failure with the file and the JSON pointer", async () => {
    const path = tempStatePath();
    const state = sampleState() as any;
    state.resources["monitors.api"].kind = "monitors";
    writeFileSync(path, JSON.stringify(state));
    const error = await readError(path);
    expect(error.pointer).toBe("/resources/monitors.api/kind");
    expect(error.message).toMatch(
      new RegExp(
        `^state file ${path} is not a valid vigil state: at /resources/monitors.api/kind: must be one of`,
      ),
    );
  });
});

function lockRecord(overrides: Record<string, unknown>) {
  return {
    id: "11111111-2222-3333-4444-555555555555",
    operation: "apply",
    user: "someone",
    host: hostname(),
    pid: process.pid,
    version: "0.1.0",
    takenAt: "2024-01-01T00:00:00.000Z",
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
    ...overrides,
  };
}

describe("FileStateStore: the lock", () => {
  it("refuses a second lock on the same path, naming the lock file and its holder", async () => {
    const path = tempStatePath();
    const first = await new FileStateStore(path, { operation: "apply" }).lock();
    const holder = JSON.parse(readFileSync(path + ".lock", "utf8"));
    expect(holder).toMatchObject({ pid: process.pid, host: hostname(), operation: "apply" });
    expect(Date.parse(holder.takenAt)).toBeGreaterThan(Date.now() - 60_000);

    const error = await new FileStateStore(path).lock().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateLockedError);
    const locked = error as StateLockedError;
    expect(locked.lockFile).toBe(path + ".lock");
    expect(locked.holder).toEqual(holder);
    expect(locked.message).toBe(
      `state ${path} is locked by ${holder.user}@${hostname()} (pid ${process.pid}, vigil ${holder.version}, apply) ` +
        `since ${holder.takenAt}, lock id ${holder.id}. Gave up (--lock-timeout). ` +
        `If that run is gone, its lease ends by ${holder.expiresAt}; vigil state unlock ${holder.id} releases it now.`,
    );

    await first.release();
    expect(readdirSync(dirname(path))).toEqual([]);
    const second = await new FileStateStore(path).lock();
    await second.release();
  });

  it("makes a released lock unusable", async () => {
    const path = tempStatePath();
    const lock = await new FileStateStore(path).lock();
    await lock.release();
    await expect(lock.read()).rejects.toThrow("released");
    await expect(lock.write(newState())).rejects.toThrow("released");
  });

  it("does not remove a lock file that is no longer its own, and stops writing", async () => {
    const path = tempStatePath();
    const lock = await new FileStateStore(path).lock();
    const other = lockRecord({ operation: "other" });
    writeFileSync(path + ".lock", JSON.stringify(other));
    await expect(lock.write(newState())).rejects.toThrow(`is lost: it is now held by someone@`);
    await lock.release();
    expect(JSON.parse(readFileSync(path + ".lock", "utf8"))).toEqual(other);
  });

  it("takes over the lock of a dead process on this host, with a warning", async () => {
    const path = tempStatePath();
    const pid = await deadPid();
    writeFileSync(path + ".lock", JSON.stringify(lockRecord({ pid })));
    const warnings: string[] = [];
    const lock = await new FileStateStore(path, { onWarning: (m) => warnings.push(m) }).lock();
    expect(warnings).toEqual([
      `took over the lock ${path}.lock of someone@${hostname()} (pid ${pid}, vigil 0.1.0, apply) since 2024-01-01T00:00:00.000Z, ` +
        `lock id 11111111-2222-3333-4444-555555555555: process ${pid} no longer exists`,
    ]);
    expect(JSON.parse(readFileSync(path + ".lock", "utf8")).pid).toBe(process.pid);
    await lock.release();
  });

  it("never takes over a live lease held on another host, but takes one that ran out", async () => {
    const path = tempStatePath();
    const pid = await deadPid();
    writeFileSync(path + ".lock", JSON.stringify(lockRecord({ pid, host: "elsewhere" })));
    await expect(new FileStateStore(path).lock()).rejects.toThrow(`locked by someone@elsewhere (pid ${pid}`);
    const expiresAt = new Date(Date.now() - 1000).toISOString();
    writeFileSync(path + ".lock", JSON.stringify(lockRecord({ pid, host: "elsewhere", expiresAt })));
    const warnings: string[] = [];
    const lock = await new FileStateStore(path, { onWarning: (m) => warnings.push(m) }).lock();
    expect(warnings[0]).toContain(`its lease ran out at ${expiresAt}`);
    await lock.release();
  });

  it("refuses a lock file with no readable holder, saying how to release it", async () => {
    const path = tempStatePath();
    writeFileSync(path + ".lock", "");
    await expect(new FileStateStore(path).lock()).rejects.toThrow(
      "locked by an unknown run (its lock holds no valid record). Gave up (--lock-timeout).",
    );
  });
});
