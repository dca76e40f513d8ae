/**
 * The state in PostgreSQL: one schema (`vigil` unless `?schema=` names
 * another) holding workspaces, their leased locks and every saved version.
 * The schema is created on first use and migrated by version. Every write is
 * one transaction fenced by the writer's lock id, so a run that lost its lock
 * can never overwrite its successor's state.
 */
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import pg from "pg";
import { realTime, type TimeSource } from "../../api/index.ts";
import type { State, StateLock } from "../model.ts";
import { ChangeTracker, type StateBackend, type VersionInfo, type WorkspaceInfo } from "./backend.ts";
import { type LockHolder, StateBackendError, StateLockedError } from "./errors.ts";
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
import { iso, live, migrate, notifyChannel } from "./postgres-schema.ts";
import { validateState } from "./state.ts";
import { parsePostgresUrl, redactUrl } from "./url.ts";

export type PostgresStateStoreOptions = StoreOptions;

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export class PostgresStateStore implements StateBackend {
  readonly workspace: string;
  readonly description: string;
  readonly schema: string;
  readonly #options: PostgresStateStoreOptions;
  readonly #config: pg.ClientConfig;
  readonly #secrets: string[];
  readonly #leaseMs: number;
  readonly #time: TimeSource;
  #client: Promise<pg.Client> | undefined;
  #broken: Error | undefined;
  /** One statement or transaction at a time on the one connection: lease renewals must not land inside a transaction. */
  #queue: Promise<unknown> = Promise.resolve();
  #listening = false;
  #released = new Set<() => void>();

  constructor(url: string, options: PostgresStateStoreOptions = {}) {
    const parsed = parsePostgresUrl(url);
    this.schema = `"${parsed.schema}"`;
    this.workspace = checkWorkspaceName(options.workspace ?? defaults.workspace);
    this.description = `PostgreSQL ${parsed.shown} (schema ${parsed.schema}, workspace ${this.workspace})`;
    this.#options = options;
    this.#leaseMs = options.leaseMs ?? defaults.leaseMs;
    this.#time = options.time ?? realTime;
    this.#secrets = parsed.secrets;
    this.#config = {
      connectionString: parsed.connectionString,
      application_name: "vigil",
      connectionTimeoutMillis: 15_000,
      keepAlive: true,
      // A run frozen inside a transaction (a paused process, a stalled VM) would hold the workspace's rows,
      // and so every other run, forever: the server ends such a session once its lease could have run out,
      // which frees the lock at once (its session is gone) and fences the run (docs/state.md, "Locks"). Never
      // under 5 s: a busy machine may pause a live run between two statements for a moment.
      idle_in_transaction_session_timeout: Math.max(this.#leaseMs, 5000),
    };
  }

  /** A message with every form of the password removed. */
  #redact(text: string): string {
    let out = redactUrl(text);
    for (const secret of this.#secrets) out = out.split(secret).join("***");
    return out;
  }

  #fail(error: unknown): never {
    if (error instanceof StateLockedError || error instanceof StateBackendError) throw error;
    const code = (error as { code?: string }).code;
    const hint =
      code === "42501"
        ? ' (the database user lacks a permission: see docs/state.md, "Permissions")'
        : code === "28P01" || code === "28000"
          ? " (check the user and password in the state URL)"
          : "";
    throw new StateBackendError(
      `${this.description}: ${this.#redact((error as Error).message ?? String(error))}${hint}`,
    );
  }

  #connect(): Promise<pg.Client> {
    this.#client ??= (async () => {
      const client = new pg.Client(this.#config);
      // A dropped connection is reported by the next query; without a listener it would end the process.
      client.on("error", (error) => {
        this.#broken = error;
      });
      client.on("notification", (message) => {
        if (message.channel !== notifyChannel || message.payload !== this.#channelKey()) return;
        for (const wake of this.#released) wake();
      });
      try {
        await client.connect();
        await migrate(client, this.schema, this.description);
      } catch (error) {
        await client.end().catch(() => {});
        this.#fail(error);
      }
      return client;
    })();
    return this.#client;
  }

  #channelKey(): string {
    return `${this.schema}/${this.workspace}`;
  }

  /** Runs `fn` alone on the connection; a transaction when asked. */
  #exclusive<T>(fn: (client: pg.Client) => Promise<T>, transaction = false): Promise<T> {
    const run = this.#queue.then(async () => {
      if (this.#broken) this.#fail(this.#broken);
      const client = await this.#connect();
      if (!transaction) return fn(client);
      await client.query("BEGIN");
      try {
        const result = await fn(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      }
    });
    this.#queue = run.catch(() => {});
    return run.catch((error: unknown) => this.#fail(error));
  }

  read(): Promise<State | undefined> {
    return this.#exclusive(async (client) => this.#readCurrent(client));
  }

  async #readCurrent(client: pg.Client): Promise<State | undefined> {
    const result = await client.query<{ document: Buffer }>(
      `SELECT v.document FROM ${this.schema}.workspaces w
       JOIN ${this.schema}.versions v ON v.workspace = w.name AND v.serial = w.serial
       WHERE w.name = $1`,
      [this.workspace],
    );
    const row = result.rows[0];
    return row === undefined ? undefined : this.#parse(row.document);
  }

  async #parse(document: Buffer): Promise<State> {
    return validateState(JSON.parse((await gunzipAsync(document)).toString("utf8")), this.description);
  }

  async lock(): Promise<StateLock> {
    const holder = await acquire(() => this.#attempt(), {
      timeoutMs: this.#options.lockTimeoutMs ?? defaults.lockTimeoutMs,
      what: `workspace ${this.workspace} of ${this.description.replace(/ \(.*$/, "")}`,
      wake: (ms) => this.#waitForRelease(ms),
      time: this.#time,
      ...(this.#options.onWaiting && { onWaiting: this.#options.onWaiting }),
    });
    let tracker: ChangeTracker | undefined;
    let held = true;
    const lease = keepLease(this.#leaseMs, () => this.#renew(holder), this.#options.onWarning, this.#time);
    const assertHeld = () => {
      if (!held) throw new Error(`the lock on workspace ${this.workspace} was released`);
      if (lease.lost)
        throw new StateLockedError(`the lock on workspace ${this.workspace} is lost: ${lease.lost}`);
    };
    return {
      read: async () => {
        assertHeld();
        const state = await this.read();
        tracker = new ChangeTracker(state);
        return state;
      },
      write: async (state) => {
        assertHeld();
        tracker ??= new ChangeTracker(await this.read());
        const summary = tracker.summarize(state);
        const document = await gzipAsync(JSON.stringify(state), { level: 1 });
        const lost = await this.#exclusive(
          (client) => this.#write(client, holder, state, document, summary),
          true,
        );
        if (lost !== undefined) {
          lease.markLost(lost);
          assertHeld();
        }
      },
      release: async () => {
        if (!held) return;
        held = false;
        await lease.stop();
        await this.#exclusive(async (client) => {
          await client.query(`DELETE FROM ${this.schema}.locks WHERE workspace = $1 AND lock_id = $2`, [
            this.workspace,
            holder.id,
          ]);
          await client.query("SELECT pg_notify($1, $2)", [notifyChannel, this.#channelKey()]);
        });
      },
    };
  }

  /** One try: the lock is taken unless a live run holds it. The workspace row serialises competing tries. */
  #attempt(): Promise<Attempt<LockHolder>> {
    return this.#exclusive(async (client) => {
      const s = this.schema;
      await client.query(`INSERT INTO ${s}.workspaces (name) VALUES ($1) ON CONFLICT DO NOTHING`, [
        this.workspace,
      ]);
      await client.query(`SELECT 1 FROM ${s}.workspaces WHERE name = $1 FOR UPDATE`, [this.workspace]);
      const existing = await client.query<{
        holder: LockHolder;
        expires: string;
        live: boolean;
        gone: boolean;
      }>(
        `SELECT l.holder, ${iso("l.expires_at")} AS expires, ${live("l")} AS live,
                NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = l.backend_pid) AS gone
         FROM ${s}.locks l WHERE l.workspace = $1`,
        [this.workspace],
      );
      const previous = existing.rows[0];
      if (previous?.live) return { holder: { ...previous.holder, expiresAt: previous.expires } };
      const holder = newHolder(this.#options.operation ?? "lock", this.#leaseMs, this.#time.now());
      const taken = await client.query<{ taken: string; expires: string }>(
        `INSERT INTO ${s}.locks AS l (workspace, lock_id, holder, expires_at, backend_pid)
         VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond', pg_backend_pid())
         ON CONFLICT (workspace) DO UPDATE SET lock_id = excluded.lock_id, holder = excluded.holder,
           expires_at = excluded.expires_at, backend_pid = excluded.backend_pid
         RETURNING ${iso("now()")} AS taken, ${iso("l.expires_at")} AS expires`,
        [this.workspace, holder.id, holder, this.#leaseMs],
      );
      // The database's clock, not this machine's: every run judges leases by the same clock.
      holder.takenAt = taken.rows[0]!.taken;
      holder.expiresAt = taken.rows[0]!.expires;
      await client.query(`UPDATE ${s}.locks SET holder = $2 WHERE workspace = $1`, [this.workspace, holder]);
      if (previous)
        this.#options.onWarning?.(
          `took over the lock of workspace ${this.workspace} from ${describeHolder(previous.holder)}: ` +
            (previous.gone ? "its database session is gone" : `its lease ran out at ${previous.expires}`),
        );
      return { lock: holder };
    }, true);
  }

  async #renew(holder: LockHolder): Promise<boolean> {
    return this.#exclusive(async (client) => {
      const result = await client.query(
        `UPDATE ${this.schema}.locks SET expires_at = now() + $3 * interval '1 millisecond'
         WHERE workspace = $1 AND lock_id = $2`,
        [this.workspace, holder.id, this.#leaseMs],
      );
      return result.rowCount === 1;
    });
  }

  /** Saves the run's version and makes it current; answers why not when the lock is no longer this run's. */
  async #write(
    client: pg.Client,
    holder: LockHolder,
    state: State,
    document: Buffer,
    summary: VersionInfo["summary"],
  ): Promise<string | undefined> {
    const s = this.schema;
    const lock = await client.query<{ lock_id: string; holder: LockHolder }>(
      `SELECT lock_id, holder FROM ${s}.locks WHERE workspace = $1 FOR UPDATE`,
      [this.workspace],
    );
    const current = lock.rows[0];
    if (current?.lock_id !== holder.id)
      return current ? `it is now held by ${describeHolder(current.holder)}` : "it was unlocked by force";
    const saved = await client.query<{ serial: string | null }>(
      `SELECT serial FROM ${s}.workspaces WHERE name = $1`,
      [this.workspace],
    );
    const savedSerial = saved.rows[0]?.serial;
    if (savedSerial != null && state.serial < Number(savedSerial))
      throw new StateBackendError(
        `${this.description}: refusing to save serial ${state.serial} over the newer serial ${savedSerial}`,
      );
    // One version per run: this run's earlier save is replaced by this one.
    await client.query(`DELETE FROM ${s}.versions WHERE workspace = $1 AND (lock_id = $2 OR serial = $3)`, [
      this.workspace,
      holder.id,
      state.serial,
    ]);
    await client.query(
      `INSERT INTO ${s}.versions (workspace, serial, lineage, lock_id, holder, summary, document)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [this.workspace, state.serial, state.lineage, holder.id, holder, summary, document],
    );
    await client.query(
      `UPDATE ${s}.workspaces SET serial = $2, lineage = $3, saved_at = now() WHERE name = $1`,
      [this.workspace, state.serial, state.lineage],
    );
    // A save proves the run alive: it renews the lease as well.
    await client.query(
      `UPDATE ${s}.locks SET expires_at = now() + $2 * interval '1 millisecond' WHERE workspace = $1`,
      [this.workspace, this.#leaseMs],
    );
    const keep = Math.max(1, this.#options.keepVersions ?? defaults.keepVersions);
    await client.query(
      `DELETE FROM ${s}.versions WHERE workspace = $1 AND serial < (
         SELECT serial FROM ${s}.versions WHERE workspace = $1 ORDER BY serial DESC OFFSET $2 LIMIT 1)`,
      [this.workspace, keep - 1],
    );
    return undefined;
  }

  /** Sleeps up to `ms`, or until the holder of this workspace's lock releases it. */
  async #waitForRelease(ms: number): Promise<void> {
    if (!this.#listening) {
      this.#listening = true;
      await this.#exclusive((client) => client.query(`LISTEN ${notifyChannel}`));
    }
    const released = new AbortController();
    const wake = () => released.abort();
    this.#released.add(wake);
    try {
      await this.#time.sleep(ms, released.signal);
    } catch {
      // Woken by the release.
    } finally {
      this.#released.delete(wake);
    }
  }

  currentLock(): Promise<LockHolder | undefined> {
    return this.#exclusive(async (client) => {
      const result = await client.query<{ holder: LockHolder; expires: string }>(
        `SELECT l.holder, ${iso("l.expires_at")} AS expires FROM ${this.schema}.locks l
         WHERE l.workspace = $1 AND ${live("l")}`,
        [this.workspace],
      );
      const row = result.rows[0];
      return row && { ...row.holder, expiresAt: row.expires };
    });
  }

  unlock(id: string): Promise<LockHolder> {
    return this.#exclusive(async (client) => {
      const result = await client.query<{ lock_id: string; holder: LockHolder }>(
        `SELECT lock_id, holder FROM ${this.schema}.locks WHERE workspace = $1 FOR UPDATE`,
        [this.workspace],
      );
      const row = result.rows[0];
      if (!row)
        throw new StateLockedError(`workspace ${this.workspace} is not locked; there is nothing to unlock.`);
      if (row.lock_id !== id)
        throw new StateLockedError(
          `lock id ${id} does not name the lock on workspace ${this.workspace}: it is held by ${describeHolder(row.holder)}. Nothing was unlocked.`,
          { holder: row.holder },
        );
      await client.query(`DELETE FROM ${this.schema}.locks WHERE workspace = $1`, [this.workspace]);
      await client.query("SELECT pg_notify($1, $2)", [notifyChannel, this.#channelKey()]);
      return row.holder;
    }, true);
  }

  workspaces(): Promise<WorkspaceInfo[]> {
    return this.#exclusive(async (client) => {
      const result = await client.query<{
        name: string;
        serial: string | null;
        saved: string | null;
        holder: LockHolder | null;
        expires: string | null;
      }>(
        `SELECT w.name, w.serial, ${iso("w.saved_at")} AS saved, l.holder, ${iso("l.expires_at")} AS expires
         FROM ${this.schema}.workspaces w LEFT JOIN ${this.schema}.locks l ON l.workspace = w.name AND ${live("l")}
         ORDER BY w.name`,
      );
      return result.rows.map((r) => ({
        name: r.name,
        ...(r.serial !== null && { serial: Number(r.serial) }),
        ...(r.saved !== null && { savedAt: r.saved }),
        ...(r.holder !== null && { lock: { ...r.holder, expiresAt: r.expires! } }),
      }));
    });
  }

  history(page: { limit: number; before?: number }): Promise<VersionInfo[]> {
    return this.#exclusive(async (client) => {
      const result = await client.query<{
        serial: string;
        lineage: string;
        saved: string;
        holder: LockHolder | null;
        summary: VersionInfo["summary"];
      }>(
        `SELECT serial, lineage, ${iso("saved_at")} AS saved, holder, summary FROM ${this.schema}.versions
         WHERE workspace = $1 AND ($2::bigint IS NULL OR serial < $2) ORDER BY serial DESC LIMIT $3`,
        [this.workspace, page.before ?? null, page.limit],
      );
      return result.rows.map((r) => ({
        serial: Number(r.serial),
        lineage: r.lineage,
        savedAt: r.saved,
        ...(r.holder && { holder: r.holder }),
        summary: r.summary,
      }));
    });
  }

  version(serial: number): Promise<State | undefined> {
    return this.#exclusive(async (client) => {
      const result = await client.query<{ document: Buffer }>(
        `SELECT document FROM ${this.schema}.versions WHERE workspace = $1 AND serial = $2`,
        [this.workspace, serial],
      );
      const row = result.rows[0];
      return row === undefined ? undefined : this.#parse(row.document);
    });
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (client) await (await client.catch(() => undefined))?.end().catch(() => {});
  }
}
