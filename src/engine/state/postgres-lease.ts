/**
 * A named lease on a workspace of the PostgreSQL state, electing one of several replicas (`vigil watch`),
 * with a document only the holder may write. Each takeover adds one to the row's token: the holder's writes
 * name the token it was given, so a holder that lost the lease (paused past it, cut off) can write nothing
 * once another took over. The lease is judged by the database's clock, and is free as soon as the holder's
 * session is gone (a killed process), as the state lock is.
 *
 * It runs on a connection of its own: a renewal never waits behind the state store's reads.
 */
import pg from "pg";
import { type LockHolder, StateBackendError } from "./errors.ts";
import { checkWorkspaceName, defaults } from "./lock.ts";
import { iso, live, migrate } from "./postgres-schema.ts";
import { parsePostgresUrl, redactUrl } from "./url.ts";

/** What a try answers: the token when this replica took the lease, else who holds it. */
export type LeaseAttempt = { token: number } | { holder: LockHolder | undefined };

export class PostgresLease {
  readonly description: string;
  readonly #schema: string;
  readonly #workspace: string;
  readonly #name: string;
  readonly #config: pg.ClientConfig;
  readonly #secrets: string[];
  #client: Promise<pg.Client> | undefined;
  /** One statement or transaction at a time on the connection. */
  #queue: Promise<unknown> = Promise.resolve();

  /** `timeoutMs`: a statement that takes longer fails, so a cut-off database never holds a renewal for ever. */
  constructor(url: string, options: { workspace?: string; name: string; timeoutMs: number }) {
    const parsed = parsePostgresUrl(url);
    this.#schema = `"${parsed.schema}"`;
    this.#workspace = checkWorkspaceName(options.workspace ?? defaults.workspace);
    this.#name = options.name;
    this.#secrets = parsed.secrets;
    this.description = `the ${options.name} lease of PostgreSQL ${parsed.shown} (schema ${parsed.schema}, workspace ${this.#workspace})`;
    this.#config = {
      connectionString: parsed.connectionString,
      application_name: `vigil ${options.name}`,
      connectionTimeoutMillis: options.timeoutMs,
      query_timeout: options.timeoutMs,
      keepAlive: true,
    };
  }

  /** Takes the lease unless a live holder has it. `leaseMs`: how long it lasts unless renewed. */
  attempt(holder: LockHolder, leaseMs: number): Promise<LeaseAttempt> {
    return this.#run(async (client) => {
      const s = this.#schema;
      const key = [this.#workspace, this.#name];
      await client.query(`INSERT INTO ${s}.workspaces (name) VALUES ($1) ON CONFLICT DO NOTHING`, [key[0]]);
      await client.query(
        `INSERT INTO ${s}.leases (workspace, name) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        key,
      );
      const current = await client.query<{
        holder: LockHolder | null;
        expires: string | null;
        live: boolean;
      }>(
        `SELECT l.holder, ${iso("l.expires_at")} AS expires, (l.lease_id IS NOT NULL AND ${live("l")}) AS live
         FROM ${s}.leases l WHERE l.workspace = $1 AND l.name = $2 FOR UPDATE`,
        key,
      );
      const row = current.rows[0]!;
      if (row.live) return { holder: row.holder ? { ...row.holder, expiresAt: row.expires! } : undefined };
      const taken = await client.query<{ token: string; taken: string; expires: string }>(
        `UPDATE ${s}.leases SET token = token + 1, lease_id = $3, holder = $4,
           expires_at = now() + $5 * interval '1 millisecond', backend_pid = pg_backend_pid()
         WHERE workspace = $1 AND name = $2
         RETURNING token, ${iso("now()")} AS taken, ${iso("expires_at")} AS expires`,
        [...key, holder.id, holder, leaseMs],
      );
      const { token, taken: takenAt, expires } = taken.rows[0]!;
      // The database's clock, as every replica judges the lease by it.
      await client.query(`UPDATE ${s}.leases SET holder = $3 WHERE workspace = $1 AND name = $2`, [
        ...key,
        { ...holder, takenAt, expiresAt: expires },
      ]);
      return { token: Number(token) };
    }, true);
  }

  /** Extends the lease by `leaseMs` from now; false when `token` no longer holds it (another took over). */
  renew(token: number, leaseMs: number): Promise<boolean> {
    return this.#run(async (client) => {
      const renewed = await client.query(
        `UPDATE ${this.#schema}.leases SET expires_at = now() + $4 * interval '1 millisecond',
           backend_pid = pg_backend_pid(), holder = jsonb_set(holder, '{expiresAt}',
             to_jsonb(${iso("(now() + $4 * interval '1 millisecond')")}))
         WHERE workspace = $1 AND name = $2 AND token = $3 AND lease_id IS NOT NULL`,
        [this.#workspace, this.#name, token, leaseMs],
      );
      return renewed.rowCount === 1;
    });
  }

  /** Gives the lease up, so a standby takes over at its next try; nothing when `token` no longer holds it. */
  release(token: number): Promise<void> {
    return this.#run(async (client) => {
      await client.query(
        `UPDATE ${this.#schema}.leases SET lease_id = NULL, holder = NULL, expires_at = NULL, backend_pid = NULL
         WHERE workspace = $1 AND name = $2 AND token = $3`,
        [this.#workspace, this.#name, token],
      );
    });
  }

  /** The holder's document, as the last holder saved it. */
  load(): Promise<unknown> {
    return this.#run(async (client) => {
      const result = await client.query<{ document: unknown }>(
        `SELECT document FROM ${this.#schema}.leases WHERE workspace = $1 AND name = $2`,
        [this.#workspace, this.#name],
      );
      return result.rows[0]?.document ?? undefined;
    });
  }

  /** Saves the document, only while `token` holds the lease: false (nothing saved) once another took over. */
  save(token: number, document: unknown): Promise<boolean> {
    return this.#run(async (client) => {
      const saved = await client.query(
        `UPDATE ${this.#schema}.leases SET document = $4
         WHERE workspace = $1 AND name = $2 AND token = $3 AND lease_id IS NOT NULL`,
        [this.#workspace, this.#name, token, JSON.stringify(document)],
      );
      return saved.rowCount === 1;
    });
  }

  /**
   * Keeps `item` for the holder to take; false (nothing kept) when `max` items wait already. The item is
   * durable once this settles.
   */
  post(item: unknown, max: number): Promise<boolean> {
    return this.#run(async (client) => {
      const kept = await client.query(
        `INSERT INTO ${this.#schema}.lease_inbox (workspace, name, item)
         SELECT $1, $2, $3 WHERE (SELECT count(*) FROM ${this.#schema}.lease_inbox
           WHERE workspace = $1 AND name = $2) < $4`,
        [this.#workspace, this.#name, JSON.stringify(item), max],
      );
      return kept.rowCount === 1;
    });
  }

  /** The oldest `limit` items kept, for the holder; each stays until `taken` removes it. */
  inbox(limit: number): Promise<{ id: string; item: unknown }[]> {
    return this.#run(async (client) => {
      const result = await client.query<{ id: string; item: unknown }>(
        `SELECT id, item FROM ${this.#schema}.lease_inbox WHERE workspace = $1 AND name = $2
         ORDER BY id LIMIT $3`,
        [this.#workspace, this.#name, limit],
      );
      return result.rows;
    });
  }

  /** Removes items the holder has taken in hand. */
  taken(ids: readonly string[]): Promise<void> {
    return this.#run(async (client) => {
      await client.query(`DELETE FROM ${this.#schema}.lease_inbox WHERE id = ANY($1::bigint[])`, [ids]);
    });
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    if (client) await (await client.catch(() => undefined))?.end().catch(() => {});
  }

  #connect(): Promise<pg.Client> {
    this.#client ??= (async () => {
      const client = new pg.Client(this.#config);
      // A dropped connection fails the next statement, which starts a new one; unheard, it would end the process.
      client.on("error", () => {
        if (this.#client === connecting) this.#client = undefined;
      });
      await client.connect();
      await migrate(client, this.#schema, this.description);
      return client;
    })();
    const connecting = this.#client;
    connecting.catch(() => {
      if (this.#client === connecting) this.#client = undefined;
    });
    return connecting;
  }

  /** Runs `fn` alone on the connection; a failure drops the connection, so the next call opens a fresh one. */
  #run<T>(fn: (client: pg.Client) => Promise<T>, transaction = false): Promise<T> {
    const run = this.#queue.then(async () => {
      const connecting = this.#connect();
      const client = await connecting;
      try {
        if (!transaction) return await fn(client);
        await client.query("BEGIN");
        const result = await fn(client);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        if (this.#client === connecting) this.#client = undefined;
        await client.end().catch(() => {});
        throw error;
      }
    });
    this.#queue = run.catch(() => {});
    return run.catch((error: unknown) => {
      if (error instanceof StateBackendError) throw error;
      let message = redactUrl((error as Error).message ?? String(error));
      for (const secret of this.#secrets) message = message.split(secret).join("***");
      throw new StateBackendError(`${this.description}: ${message}`);
    });
  }
}
