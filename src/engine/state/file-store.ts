import { randomBytes } from "node:crypto";
import { link, mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { realTime, type TimeSource } from "../../api/index.ts";
import type { State, StateLock } from "../model.ts";
import { ChangeTracker, type StateBackend, type VersionInfo, type WorkspaceInfo } from "./backend.ts";
import { type LockHolder, StateFileError, StateLockedError } from "./errors.ts";
import {
  type Attempt,
  acquire,
  checkWorkspaceName,
  defaults,
  describeHolder,
  keepLease,
  newHolder,
  type StoreOptions,
} from "./lock.ts";
import { validateState } from "./state.ts";

export type FileStateStoreOptions = StoreOptions;

const historySuffix = ".history";
const metaSuffix = ".meta.json";

/**
 * The default store: a local JSON file, mode 0600, replaced atomically on every
 * write, guarded by `<path>.lock`, a lease renewed while the run lives, so two
 * runs never interleave and a crashed run's lock never blocks anyone. Each save
 * is also kept in `<stem>.history/` (a hard link to the same file, so keeping
 * it costs no copy). Workspaces other than `default` live in `<stem>.d/NAME.json`.
 */
export class FileStateStore implements StateBackend {
  /** The default workspace's file, as given. */
  readonly basePath: string;
  readonly workspace: string;
  /** This workspace's state file. */
  readonly path: string;
  readonly lockPath: string;
  readonly historyDir: string;
  readonly description: string;
  readonly #options: FileStateStoreOptions;
  readonly #leaseMs: number;
  readonly #time: TimeSource;

  constructor(path: string, options: FileStateStoreOptions = {}) {
    this.basePath = resolve(path);
    this.workspace = checkWorkspaceName(options.workspace ?? defaults.workspace);
    this.path =
      this.workspace === defaults.workspace
        ? this.basePath
        : join(this.#workspacesDir(), `${this.workspace}.json`);
    this.lockPath = this.path + ".lock";
    this.historyDir = join(dirname(this.path), stem(this.path) + historySuffix);
    this.description =
      this.workspace === defaults.workspace ? `file ${path}` : `workspace ${this.workspace} of file ${path}`;
    this.#options = options;
    this.#leaseMs = options.leaseMs ?? defaults.leaseMs;
    this.#time = options.time ?? realTime;
  }

  #workspacesDir(): string {
    return join(dirname(this.basePath), `${stem(this.basePath)}.d`);
  }

  read(): Promise<State | undefined> {
    return this.#read(this.path);
  }

  async lock(): Promise<StateLock> {
    await mkdir(dirname(this.path), { recursive: true });
    const holder = await acquire(() => this.#attempt(), {
      timeoutMs: this.#options.lockTimeoutMs ?? defaults.lockTimeoutMs,
      what: `state ${this.path}`,
      lockFile: this.lockPath,
      time: this.#time,
      ...(this.#options.onWaiting && { onWaiting: this.#options.onWaiting }),
    });
    // Writers hold the lock, so any temporary file left now is from a writer that crashed.
    await this.#removeTemporaries();

    let tracker: ChangeTracker | undefined;
    /** The serial of this run's version in the history, replaced by each of its saves. */
    let runVersion: number | undefined;
    let held = true;
    const lease = keepLease(this.#leaseMs, () => this.#renew(holder), this.#options.onWarning, this.#time);
    const assertHeld = () => {
      if (!held) throw new Error(`the lock on ${this.path} was released`);
      if (lease.lost) throw new StateLockedError(`the lock on ${this.path} is lost: ${lease.lost}`);
    };
    return {
      read: async () => {
        assertHeld();
        const state = await this.#read(this.path);
        tracker = new ChangeTracker(state);
        return state;
      },
      write: async (state) => {
        assertHeld();
        // Fencing: a lock released by `vigil state unlock` (or taken after the lease ran out) stops this run's writes.
        const current = (await this.#readLock()).holder;
        if (current?.id !== holder.id) {
          lease.markLost(`it is now held by ${describeHolder(current)}`);
          assertHeld();
        }
        tracker ??= new ChangeTracker(await this.#read(this.path));
        const meta = {
          serial: state.serial,
          lineage: state.lineage,
          savedAt: new Date(this.#time.now()).toISOString(),
          holder,
          summary: tracker.summarize(state),
        };
        await this.#write(state, meta, runVersion);
        runVersion = state.serial;
      },
      release: async () => {
        if (!held) return;
        held = false;
        await lease.stop();
        // Never remove a lock that is no longer ours (someone unlocked it and another run took it).
        if ((await this.#readLock()).holder?.id === holder.id)
          await unlink(this.lockPath).catch(ignoreMissing);
      },
    };
  }

  async #attempt(): Promise<Attempt<LockHolder>> {
    const holder = newHolder(this.#options.operation ?? "lock", this.#leaseMs, this.#time.now());
    const record = JSON.stringify(holder) + "\n";
    if (await this.#createLock(record)) return { lock: holder };
    const current = await this.#readLock();
    if (await this.#takeOverStale(current)) {
      // Taken again between our take-over and create: the loop waits for that run.
      if (await this.#createLock(record)) return { lock: holder };
      return { holder: (await this.#readLock()).holder };
    }
    return { holder: current.holder };
  }

  /** Extends the lease if the lock is still ours; false when it is not. */
  async #renew(holder: LockHolder): Promise<boolean> {
    if ((await this.#readLock()).holder?.id !== holder.id) return false;
    holder.expiresAt = new Date(this.#time.now() + this.#leaseMs).toISOString();
    await this.#replaceFile(this.lockPath, JSON.stringify(holder) + "\n");
    return true;
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
      if (
        typeof parsed.id === "string" &&
        typeof parsed.pid === "number" &&
        typeof parsed.host === "string" &&
        typeof parsed.expiresAt === "string"
      )
        return { text, holder: parsed as LockHolder };
    } catch {}
    return { text, holder: undefined };
  }

  /**
   * Removes a lock whose lease ran out, or whose process on this host no
   * longer exists (no need to wait out its lease); true if the lock is now free.
   */
  async #takeOverStale(current: { text: string | undefined; holder: LockHolder | undefined }) {
    if (current.text === undefined) return true; // released meanwhile
    const holder = current.holder;
    if (holder === undefined) return false;
    const dead = holder.host === hostname() && !processExists(holder.pid);
    const expired = Date.parse(holder.expiresAt) < this.#time.now();
    if (!dead && !expired) return false;
    if (!(await this.#removeLockIf(current.text))) return false;
    this.#options.onWarning?.(
      `took over the lock ${this.lockPath} of ${describeHolder(holder)}: ` +
        (dead ? `process ${holder.pid} no longer exists` : `its lease ran out at ${holder.expiresAt}`),
    );
    return true;
  }

  /** Moves the lock aside and removes it if it is still `text`: a racing run may have replaced it. */
  async #removeLockIf(text: string): Promise<boolean> {
    const aside = this.#temporaryName(this.lockPath);
    try {
      await rename(this.lockPath, aside);
    } catch (error) {
      ignoreMissing(error);
      return true;
    }
    if ((await readFile(aside, "utf8")) !== text) {
      await rename(aside, this.lockPath);
      return false;
    }
    await unlink(aside);
    return true;
  }

  async currentLock(): Promise<LockHolder | undefined> {
    const { holder } = await this.#readLock();
    if (!holder || Date.parse(holder.expiresAt) < this.#time.now()) return undefined;
    if (holder.host === hostname() && !processExists(holder.pid)) return undefined;
    return holder;
  }

  async unlock(id: string): Promise<LockHolder> {
    const current = await this.#readLock();
    if (current.text === undefined)
      throw new StateLockedError(`state ${this.path} is not locked; there is nothing to unlock.`);
    if (current.holder?.id !== id)
      throw new StateLockedError(
        `lock id ${id} does not name the lock on ${this.path}: it is held by ${describeHolder(current.holder)}. Nothing was unlocked.`,
        current.holder ? { lockFile: this.lockPath, holder: current.holder } : { lockFile: this.lockPath },
      );
    if (!(await this.#removeLockIf(current.text)))
      throw new StateLockedError(`the lock on ${this.path} changed while unlocking; nothing was unlocked.`);
    return current.holder;
  }

  async workspaces(): Promise<WorkspaceInfo[]> {
    const names = [defaults.workspace];
    try {
      for (const name of await readdir(this.#workspacesDir()))
        if (name.endsWith(".json") && !name.includes(".tmp-")) names.push(name.slice(0, -".json".length));
    } catch (error) {
      ignoreMissing(error);
    }
    const out: WorkspaceInfo[] = [];
    for (const name of names.sort()) {
      const store = new FileStateStore(this.basePath, { workspace: name, time: this.#time });
      const [state, lock] = [await store.read(), await store.currentLock()];
      if (!state && !lock) continue;
      const saved = state ? await stat(store.path) : undefined;
      out.push({
        name,
        ...(state && { serial: state.serial, savedAt: saved!.mtime.toISOString() }),
        ...(lock && { lock }),
      });
    }
    return out;
  }

  async history(page: { limit: number; before?: number }): Promise<VersionInfo[]> {
    const serials = (await this.#historySerials())
      .filter((s) => page.before === undefined || s < page.before)
      .slice(0, page.limit);
    const out: VersionInfo[] = [];
    for (const serial of serials) {
      try {
        out.push(JSON.parse(await readFile(this.#versionPath(serial, metaSuffix), "utf8")) as VersionInfo);
      } catch (error) {
        // Pruned by a concurrent save meanwhile.
        ignoreMissing(error);
      }
    }
    return out;
  }

  async version(serial: number): Promise<State | undefined> {
    return this.#read(this.#versionPath(serial, ".json"));
  }

  async close(): Promise<void> {}

  /** Serials kept in the history, newest first. */
  async #historySerials(): Promise<number[]> {
    let names: string[];
    try {
      names = await readdir(this.historyDir);
    } catch (error) {
      ignoreMissing(error);
      return [];
    }
    return names
      .filter((n) => n.endsWith(metaSuffix))
      .map((n) => Number(n.slice(0, -metaSuffix.length)))
      .filter(Number.isSafeInteger)
      .sort((a, b) => b - a);
  }

  #versionPath(serial: number, suffix: string): string {
    return join(this.historyDir, String(serial).padStart(10, "0") + suffix);
  }

  async #read(path: string): Promise<State | undefined> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new StateFileError(path, `cannot read state file ${path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const { line, column } = jsonErrorPosition(text, (error as Error).message);
      const where = line === undefined ? "" : ` at line ${line}, column ${column}`;
      throw new StateFileError(
        path,
        `state file ${path} is not valid JSON${where}: ${(error as Error).message}`,
        { ...(line !== undefined && { line, column }), cause: error },
      );
    }
    return validateState(value, path);
  }

  /**
   * Write a private temporary file and flush it; keep it in the history (a
   * hard link) as the run's version, rename it over the state, flush the
   * directory; then drop the run's previous version and prune.
   */
  async #write(state: State, meta: VersionInfo, replaces: number | undefined): Promise<void> {
    const keep = Math.max(1, this.#options.keepVersions ?? defaults.keepVersions);
    const temporary = this.#temporaryName(this.path);
    try {
      await writePrivate(temporary, JSON.stringify(state, null, 2) + "\n");
      await mkdir(this.historyDir, { recursive: true, mode: 0o700 });
      const version = this.#versionPath(state.serial, ".json");
      await unlink(version).catch(ignoreMissing);
      await link(temporary, version);
      // Not flushed: a version's description is worth less than a second fsync on every save.
      await this.#replaceFile(
        this.#versionPath(state.serial, metaSuffix),
        JSON.stringify(meta) + "\n",
        false,
      );
      await rename(temporary, this.path);
    } catch (error) {
      await unlink(temporary).catch(ignoreMissing);
      throw error;
    }
    await syncDirectory(dirname(this.path));
    if (replaces !== undefined && replaces !== state.serial) await this.#removeVersion(replaces);
    for (const serial of (await this.#historySerials()).slice(keep)) await this.#removeVersion(serial);
  }

  async #removeVersion(serial: number): Promise<void> {
    await unlink(this.#versionPath(serial, metaSuffix)).catch(ignoreMissing);
    await unlink(this.#versionPath(serial, ".json")).catch(ignoreMissing);
  }

  /** Replaces a small file atomically (temporary file, then rename). */
  async #replaceFile(path: string, text: string, sync = true): Promise<void> {
    const temporary = this.#temporaryName(path);
    try {
      await writePrivate(temporary, text, sync);
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(ignoreMissing);
      throw error;
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
    const history = await readdir(this.historyDir).catch(() => []);
    for (const name of history)
      if (name.includes(".tmp-")) await unlink(join(this.historyDir, name)).catch(ignoreMissing);
  }
}

/** A new file, mode 0600 whatever the umask, written and (unless `sync` is false) flushed. */
async function writePrivate(path: string, text: string, sync = true): Promise<void> {
  const handle = await open(path, "wx", 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(text);
    if (sync) await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, "r");
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

/** The file name without its `.json`: `state.json` keeps its history in `state.history/`. */
function stem(path: string): string {
  return basename(path).replace(/\.json$/, "");
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
