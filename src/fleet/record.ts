/**
 * What the fleet remembers per account, for `vigil fleet status` and the workers' /metrics: the last apply
 * and its result, the last drift check and what drifted, the worker on it now. One row per account in
 * `<state schema>.fleet_accounts`, beside the state's workspaces; the queue (pg-boss) holds the jobs, this
 * table only what is worth keeping after they are deleted.
 */
import pg from "pg";
import { parsePostgresUrl } from "../engine/index.ts";
import type { JobResult } from "./jobs.ts";

export interface AccountRecord {
  account: string;
  lastApply?: JobResult;
  lastDrift?: JobResult;
  /** The worker running a job of the account now (`host pid N`), when one is. */
  runningOn?: string;
  runningSince?: string;
}

export class FleetRecord {
  readonly #pool: pg.Pool;
  readonly #table: string;
  #ready: Promise<unknown> | undefined;

  constructor(stateUrl: string) {
    const parsed = parsePostgresUrl(stateUrl);
    this.#pool = new pg.Pool({
      connectionString: parsed.connectionString,
      max: 2,
      application_name: "vigil fleet",
    });
    // A dropped connection is reported by the next query; without a listener it would end the process.
    this.#pool.on("error", () => {});
    this.#table = `"${parsed.schema}".fleet_accounts`;
  }

  #prepare(): Promise<unknown> {
    const schema = this.#table.split(".")[0];
    this.#ready ??= this.#pool
      .query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
      .then(() =>
        this.#pool.query(`CREATE TABLE IF NOT EXISTS ${this.#table} (
          account text PRIMARY KEY,
          last_apply jsonb,
          last_drift jsonb,
          running_on text,
          running_since timestamptz)`),
      )
      .catch((error: unknown) => {
        this.#ready = undefined;
        throw error;
      });
    return this.#ready;
  }

  async started(account: string, worker: string): Promise<void> {
    await this.#prepare();
    await this.#pool.query(
      `INSERT INTO ${this.#table} (account, running_on, running_since) VALUES ($1, $2, now())
       ON CONFLICT (account) DO UPDATE SET running_on = $2, running_since = now()`,
      [account, worker],
    );
  }

  /** A job's result: an apply's as the last apply, a drift check's (and a plan's) as the last drift check. */
  async finished(result: JobResult): Promise<void> {
    await this.#prepare();
    const column = result.action === "apply" ? "last_apply" : "last_drift";
    const { plan: _plan, ...kept } = result;
    await this.#pool.query(
      `INSERT INTO ${this.#table} (account, ${column}) VALUES ($1, $2)
       ON CONFLICT (account) DO UPDATE SET ${column} = $2,
         running_on = CASE WHEN ${this.#table}.running_on = $3 THEN NULL ELSE ${this.#table}.running_on END`,
      [result.account, kept, result.worker],
    );
  }

  async read(): Promise<AccountRecord[]> {
    await this.#prepare();
    const rows = await this.#pool.query<{
      account: string;
      last_apply: JobResult | null;
      last_drift: JobResult | null;
      running_on: string | null;
      running_since: Date | null;
    }>(`SELECT * FROM ${this.#table} ORDER BY account`);
    return rows.rows.map((r) => ({
      account: r.account,
      ...(r.last_apply && { lastApply: r.last_apply }),
      ...(r.last_drift && { lastDrift: r.last_drift }),
      ...(r.running_on && { runningOn: r.running_on }),
      ...(r.running_since && { runningSince: r.running_since.toISOString() }),
    }));
  }

  close(): Promise<void> {
    return this.#pool.end();
  }
}
