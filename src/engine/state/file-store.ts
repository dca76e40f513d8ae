import { randomBytes } from "node:crypto";
import { link, open, readdir, readFile, rename, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import type { State, StateLock, StateStore } from "../model.ts";
import { type LockHolder, StateFileError, StateLockedError } from "./errors.ts";
import { validateState } from "./state.ts";

export interface FileStateStoreOptions {
  /** Recorded in the lock file so a refused run can say what holds the lock (`vigil apply`). */
  command?: string;
  /** Told about things worth a warning, such as taking over a dead process's lock. */
  onWarning?: (message: string) => void;
}

/**
 * The default store: a local JSON file, mode 0600, replaced atomically on every
 * write, guarded by `<path>.lock` so two runs never interleave.
 */
export class FileStateStore implements StateStore {
  readonly path: string;
  readonly lockPath: string;
  readonly description: string;
  readonly #options: FileStateStoreOptions;

  constructor(path: string, options: FileStateStoreOptions = {}) {
    this.path = resolve(path);
    this.lockPath = this.path + ".lock";
    this.description = `file ${path}`;
    this.#options = options;
  }

  async lock(): Promise<StateLock> {
    const holder: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
    if (this.#options.command !== undefined) holder.command = this.#options.command;
    const record = JSON.stringify(holder) + "\n";
    if (!(await this.#createLock(record))) {
      const current = await this.#readLock();
      if (!(await this.#takeOverStale(current))) throw this.#lockedError(current.holder);
      if (!(await this.#createLock(record))) throw this.#lockedError((await this.#readLock()).holder);
    }
    // Writers hold the lock, so any temporary file left now is from a writer that crashed.
    await this.#removeTemporaries();

    let held = true;
    const assertHeld = () => {
      if (!held) throw new Error(`the lock on ${this.path} was released`);
    };
    return {
      read: async () => {
        assertHeld();
        return this.#read();
      },
      write: async (state) => {
        assertHeld();
        await this.#write(state);
      },
      release: async () => {
        if (!held) return;
        held = false;
        // Never remove a lock that is no longer ours (someone removed it by hand and another run took it).
        if ((await this.#readLock()).text === record) await unlink(this.lockPath).catch(ignoreMissing);
      },
    };
  }

  /**
   * Creates the lock file with its holder record in one step: the record goes
   * to a private file first, then a hard link claims the lock name (failing if
   * it exists), so a crash can never leave an empty lock file with no holder.
   */
  async #createLock(record: string): Promise<boolean> {
    const temporary = this.#temporaryName(this.lockPath);
    const handle = await open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(record);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await link(temporary, this.lockPath);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    } finally {
      await unlink(temporary).catch(ignoreMissing);
    }
  }

  async #readLock(): Promise<{ text: string | undefined; holder: LockHolder | undefined }> {
    let text: string;
    try {
      text = await readFile(this.lockPath, "utf8");
    } catch (error) {
      ignoreMissing(error);
      return { text: undefined, holder: undefined };
    }
    try {
      const parsed = JSON.parse(text) as Partial<LockHolder>;
      if (typeof parsed.pid === "number" && typeof parsed.host === "string")
        return { text, holder: parsed as LockHolder };
    } catch {}
    return { text, holder: undefined };
  }

  /** Removes the lock of a process of this host that no longer exists; true if the lock is now free. */
  async #takeOverStale(current: { text: string | undefined; holder: LockHolder | undefined }) {
    if (current.text === undefined) return true; // released meanwhile
    const holder = current.holder;
    if (holder === undefined || holder.host !== hostname() || processExists(holder.pid)) return false;
    // Move the lock aside and check it is the one judged stale: a racing run may have replaced it.
    const aside = this.#temporaryName(this.lockPath);
    try {
      await rename(this.lockPath, aside);
    } catch (error) {
      ignoreMissing(error);
      return true;
    }
    if ((await readFile(aside, "utf8")) !== current.text) {
      await rename(aside, this.lockPath);
      return false;
    }
    await unlink(aside);
    this.#options.onWarning?.(
      `took over the lock ${this.lockPath} of process ${holder.pid}, which no longer exists (started ${holder.startedAt})`,
    );
    return true;
  }

  #lockedError(holder: LockHolder | undefined): StateLockedError {
    const who =
      holder === undefined
        ? "an unknown process (its lock file holds no valid record)"
        : `process ${holder.pid} on host ${holder.host}, started ${holder.startedAt}` +
          (holder.command === undefined ? "" : ` (${holder.command})`);
    return new StateLockedError(
      `state ${this.path} is locked by ${who}. If that process is gone, remove ${this.lockPath} and retry.`,
      holder === undefined ? { lockFile: this.lockPath } : { lockFile: this.lockPath, holder },
    );
  }

  async #read(): Promise<State | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new StateFileError(
        this.path,
        `cannot read state file ${this.path}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const { line, column } = jsonErrorPosition(text, (error as Error).message);
      const where = line === undefined ? "" : ` at line ${line}, column ${column}`;
      throw new StateFileError(
        this.path,
        `state file ${this.path} is not valid JSON${where}: ${(error as Error).message}`,
        { ...(line !== undefined && { line, column }), cause: error },
      );
    }
    return validateState(value, this.path);
  }

  /** Write a private temporary file, flush it, rename it over the state, flush the directory. */
  async #write(state: State): Promise<void> {
    const temporary = this.#temporaryName(this.path);
    try {
      const handle = await open(temporary, "wx", 0o600);
      try {
        // The umask may narrow the creation mode; 0600 must hold whatever it is.
        await handle.chmod(0o600);
        await handle.writeFile(JSON.stringify(state, null, 2) + "\n");
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await unlink(temporary).catch(ignoreMissing);
      throw error;
    }
    const directory = await open(dirname(this.path), "r");
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }

  #temporaryName(target: string): string {
    return `${target}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;
  }

  async #removeTemporaries(): Promise<void> {
    const directory = dirname(this.path);
    const statePrefix = basename(this.path) + ".tmp-";
    const lockPrefix = basename(this.lockPath) + ".tmp-";
    for (const name of await readdir(directory)) {
      // Lock temporaries of other runs may be in use right now: only those of dead processes go.
      const lockTemporary = name.startsWith(lockPrefix);
      if (!lockTemporary && !name.startsWith(statePrefix)) continue;
      if (lockTemporary && processExists(Number(name.slice(lockPrefix.length).split("-")[0]))) continue;
      await unlink(join(directory, name)).catch(ignoreMissing);
    }
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Line and column (1-based) of a JSON.parse error, from its message's `(line L column C)` or `position P`. */
function jsonErrorPosition(text: string, message: string): { line?: number; column?: number } {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  if (position) {
    const before = text.slice(0, Number(position[1]));
    const lines = before.split("\n");
    return { line: lines.length, column: lines.at(-1)!.length + 1 };
  }
  if (/end of JSON input/.test(message)) {
    const lines = text.split("\n");
    return { line: lines.length, column: lines.at(-1)!.length + 1 };
  }
  return {};
}
