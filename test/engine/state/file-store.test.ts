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
    expect(readdirSync(dirname(path)).sort()).toEqual([basename(path), basename(path) + ".lock"]);
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

describe("FileStateStore: the lock", () => {
  it("refuses a second lock on the same path, naming the lock file and its holder", async () => {
    const path = tempStatePath();
    const first = await new FileStateStore(path, { command: "vigil apply" }).lock();
    const holder = JSON.parse(readFileSync(path + ".lock", "utf8"));
    expect(holder).toMatchObject({ pid: process.pid, host: hostname(), command: "vigil apply" });
    expect(Date.parse(holder.startedAt)).toBeGreaterThan(Date.now() - 60_000);

    const error = await new FileStateStore(path).lock().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateLockedError);
    const locked = error as StateLockedError;
    expect(locked.lockFile).toBe(path + ".lock");
    expect(locked.holder).toEqual(holder);
    expect(locked.message).toBe(
      `state ${path} is locked by process ${process.pid} on host ${hostname()}, started ${holder.startedAt} ` +
        `(vigil apply). If that process is gone, remove ${path}.lock and retry.`,
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

  it("does not remove a lock file that is no longer its own", async () => {
    const path = tempStatePath();
    const lock = await new FileStateStore(path).lock();
    const other = {
      pid: process.pid,
      host: hostname(),
      startedAt: new Date().toISOString(),
      command: "other",
    };
    writeFileSync(path + ".lock", JSON.stringify(other));
    await lock.release();
    expect(JSON.parse(readFileSync(path + ".lock", "utf8"))).toEqual(other);
  });

  it("takes over the lock of a dead process on this host, with a warning", async () => {
    const path = tempStatePath();
    const pid = await deadPid();
    const stale = { pid, host: hostname(), startedAt: "2024-01-01T00:00:00.000Z" };
    writeFileSync(path + ".lock", JSON.stringify(stale));
    const warnings: string[] = [];
    const lock = await new FileStateStore(path, { onWarning: (m) => warnings.push(m) }).lock();
    expect(warnings).toEqual([
      `took over the lock ${path}.lock of process ${pid}, which no longer exists (started 2024-01-01T00:00:00.000Z)`,
    ]);
    expect(JSON.parse(readFileSync(path + ".lock", "utf8")).pid).toBe(process.pid);
    await lock.release();
  });

  it("never takes over a lock held on another host", async () => {
    const path = tempStatePath();
    const pid = await deadPid();
    writeFileSync(
      path + ".lock",
      JSON.stringify({ pid, host: "elsewhere", startedAt: "2024-01-01T00:00:00Z" }),
    );
    await expect(new FileStateStore(path).lock()).rejects.toThrow(
      `locked by process ${pid} on host elsewhere, started 2024-01-01T00:00:00Z`,
    );
  });

  it("refuses a lock file with no readable holder, saying how to remove it", async () => {
    const path = tempStatePath();
    writeFileSync(path + ".lock", "");
    await expect(new FileStateStore(path).lock()).rejects.toThrow(
      `locked by an unknown process (its lock file holds no valid record). If that process is gone, remove ${path}.lock`,
    );
  });
});
