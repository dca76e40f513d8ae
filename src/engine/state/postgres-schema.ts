/**
 * The PostgreSQL store's schema: its tables, the migrations that make them, and the SQL fragments the
 * store's queries share. `postgres-store.ts` holds the store itself: its connection, lock and versions.
 */
import type pg from "pg";
import { StateBackendError } from "./errors.ts";

/**
 * The schema migrations, in order; the schema records how many it has run.
 * Versions keep whole documents, gzipped by vigil (a 21,000-resource state
 * of 6 MB is 0.4 MB on the wire and on disk), so any version reads back in one row.
 */
const migrations: ((schema: string) => string[])[] = [
  (s) => [
    `CREATE TABLE ${s}.workspaces (
      name text PRIMARY KEY,
      serial bigint,
      lineage text,
      saved_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE ${s}.versions (
      workspace text NOT NULL REFERENCES ${s}.workspaces (name) ON DELETE CASCADE,
      serial bigint NOT NULL,
      lineage text NOT NULL,
      saved_at timestamptz NOT NULL DEFAULT now(),
      lock_id text,
      holder jsonb,
      summary jsonb NOT NULL,
      document bytea NOT NULL,
      PRIMARY KEY (workspace, serial))`,
    // Documents arrive gzipped: PostgreSQL need not try compressing them again.
    `ALTER TABLE ${s}.versions ALTER COLUMN document SET STORAGE EXTERNAL`,
    `CREATE TABLE ${s}.locks (
      workspace text PRIMARY KEY REFERENCES ${s}.workspaces (name) ON DELETE CASCADE,
      lock_id text NOT NULL,
      holder jsonb NOT NULL,
      expires_at timestamptz NOT NULL,
      backend_pid integer NOT NULL)`,
  ],
  // Leases that elect one of several replicas (`vigil watch`): `token` grows at every takeover and fences
  // the holder's writes of `document`; the row (token, document) outlives each hold. The inbox keeps what
  // the other replicas received for the holder.
  (s) => [
    `CREATE TABLE ${s}.leases (
      workspace text NOT NULL REFERENCES ${s}.workspaces (name) ON DELETE CASCADE,
      name text NOT NULL,
      token bigint NOT NULL DEFAULT 0,
      lease_id text,
      holder jsonb,
      expires_at timestamptz,
      backend_pid integer,
      document jsonb,
      PRIMARY KEY (workspace, name))`,
    // What a replica standing by received (webhook deliveries), kept for the holder to take.
    `CREATE TABLE ${s}.lease_inbox (
      id bigserial PRIMARY KEY,
      workspace text NOT NULL,
      name text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      item jsonb NOT NULL,
      FOREIGN KEY (workspace, name) REFERENCES ${s}.leases (workspace, name) ON DELETE CASCADE)`,
  ],
];
export const schemaVersion = migrations.length;

export const iso = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A lock is live while its lease runs and its holder's session exists: a killed run's lock is free at once. */
export const live = (l: string) =>
  `(${l}.expires_at > now() AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = ${l}.backend_pid))`;
export const notifyChannel = "vigil_state_lock";

/**
 * Creates the schema `s` (quoted), or brings it to this vigil's version, under a lock that runs migrate one
 * at a time. `description` names the store in errors.
 */
export async function migrate(client: pg.Client, s: string, description: string): Promise<void> {
  const newerSchema = (version: number) =>
    new StateBackendError(
      `${description}: the schema is at version ${version}, made by a newer vigil; this one knows version ${schemaVersion}. Upgrade vigil.`,
    );
  const current = await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_version`).then(
    (r) => r.rows[0]?.version,
    (error: { code?: string }) => {
      // No schema or no table yet: created below.
      if (error.code === "3F000" || error.code === "42P01") return undefined;
      throw error;
    },
  );
  if (current === schemaVersion) return;
  if (current !== undefined && current > schemaVersion) throw newerSchema(current);
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`vigil-migrate:${s}`]);
    const name = s.slice(1, -1);
    const exists = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [name]);
    // Only when missing: CREATE SCHEMA needs a right that a user of an existing schema may not have.
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_version (version integer NOT NULL)`);
    const row = await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_version FOR UPDATE`);
    let version = row.rows[0]?.version;
    if (version === undefined) {
      await client.query(`INSERT INTO ${s}.schema_version (version) VALUES (0)`);
      version = 0;
    }
    if (version > schemaVersion) throw newerSchema(version);
    for (const migration of migrations.slice(version))
      for (const sql of migration(s)) await client.query(sql);
    await client.query(`UPDATE ${s}.schema_version SET version = $1`, [schemaVersion]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
