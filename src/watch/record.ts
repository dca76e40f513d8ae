/**
 * What the watcher has reported, kept in a small file beside the state
 * (`<state>.watch.json`), so a watcher killed at any moment and started
 * again reports nothing twice: each drift is written here before its
 * transition is printed or posted.
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";

const reported = z.strictObject({
  address: z.string(),
  kind: z.string(),
  id: z.string(),
  digest: z.string(),
  /** Unix ms on the watcher's clock. */
  since: z.number(),
  fighting: z.boolean().optional(),
});

const heal = z.strictObject({
  address: z.string(),
  failures: z.number().int().min(0),
  /** Unix ms: not before. */
  nextAt: z.number(),
  /** Unix ms of the last heal that succeeded. */
  healedAt: z.number().optional(),
});

const recordSchema = z.strictObject({
  version: z.literal(1),
  /** The state's lineage: a record of another state is not this one's. */
  lineage: z.string(),
  reported: z.array(reported),
  heals: z.array(heal),
  /** Per kind, the sync cursor of the last listing or delta sync. */
  syncCursors: z.record(z.string(), z.string()),
  lastFullAt: z.number().optional(),
  lastDeltaAt: z.number().optional(),
  /**
   * Unix ms since when deliveries were acknowledged but not all judged yet. Set before the first of a
   * burst is acknowledged, cleared once all are judged: a watcher that finds it set on start knows it lost
   * events, and lists everything again.
   */
  unjudgedSince: z.number().optional(),
});

export type Reported = z.infer<typeof reported>;
export type HealRecord = z.infer<typeof heal>;
export type WatchRecord = z.infer<typeof recordSchema>;

export function emptyRecord(lineage: string): WatchRecord {
  return { version: 1, lineage, reported: [], heals: [], syncCursors: {} };
}

/** A record read from `where` (a file, a database row), or a RecordFileError saying what is wrong with it. */
export function parseRecord(json: unknown, where: string): WatchRecord {
  const parsed = recordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RecordFileError(
      `${where}: /${issue.path.join("/")}: ${issue.message}; delete it to start afresh (drift already reported will be reported again).`,
    );
  }
  return parsed.data;
}

/** Where the record is kept. A store that offers a place for it may implement this too. */
export interface RecordStore {
  load(): Promise<WatchRecord | undefined>;
  save(record: WatchRecord): Promise<void>;
  readonly description: string;
}

export class RecordFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RecordFileError";
  }
}

/**
 * A JSON file, mode 0600, replaced atomically (temporary file, fsync, rename, fsync of the directory).
 * `formerPath`: where an older vigil kept it, read (never written) while the file does not exist yet; the
 * watcher takes a record only when its lineage is its state's, so another state's record there is ignored.
 */
export class RecordFile implements RecordStore {
  readonly path: string;
  readonly description: string;
  readonly #formerPath: string | undefined;
  /** Saves run one after another, so the last one written is the last one asked for. */
  #queue: Promise<void> = Promise.resolve();

  constructor(path: string, formerPath?: string) {
    this.path = path;
    this.#formerPath = formerPath;
    this.description = `file ${path}`;
  }

  async load(): Promise<WatchRecord | undefined> {
    return (await this.#load(this.path)) ?? (this.#formerPath ? this.#load(this.#formerPath) : undefined);
  }

  async #load(path: string): Promise<WatchRecord | undefined> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new RecordFileError(
        `${path}: not JSON (${(error as Error).message}); delete it to start afresh.`,
      );
    }
    return parseRecord(json, path);
  }

  save(record: WatchRecord): Promise<void> {
    const text = `${JSON.stringify(record)}\n`;
    const next = this.#queue.then(() => this.#write(text));
    this.#queue = next.catch(() => {});
    return next;
  }

  async #write(text: string): Promise<void> {
    // `.vigil/` may not exist yet: with a PostgreSQL state, nothing else writes there.
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${randomBytes(6).toString("hex")}.tmp`;
    const handle = await open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, this.path);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    }
    const dir = await open(dirname(this.path), "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
