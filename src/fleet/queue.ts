/**
 * The fleet's queue: pg-boss on the PostgreSQL that holds the state (docs/architecture.md, "The fleet's
 * queue"). One queue for every account's jobs, with the `singleton` policy keyed by account: at most one
 * job per account is active across all workers, any number wait behind it. A worker's job carries a
 * heartbeat; a worker that stops beating (killed, frozen, cut off) has its job failed by any other worker's
 * supervisor after `heartbeatSeconds` and retried, so another worker takes the account over within that.
 */
import { PgBoss } from "pg-boss";
import { parsePostgresUrl } from "../engine/index.ts";

export const queueName = "vigil-fleet";

/** The queue's timing: how soon a dead worker's job is taken over, how often the supervisor looks. */
export interface QueueTiming {
  /** pg-boss's floor is 10 s. */
  heartbeatSeconds: number;
  superviseSeconds: number;
  /** The longest one job may run before it is failed and retried. */
  expireSeconds: number;
  /** Retries of a job whose worker died or whose failure may pass (a network error). */
  retryLimit: number;
}

export const defaultTiming: QueueTiming = {
  heartbeatSeconds: 10,
  superviseSeconds: 2,
  expireSeconds: 3600,
  retryLimit: 3,
};

/** pg-boss's own default: a schedule's occurrence is sent within 30 s of its time. */
export const defaultScheduleCheckSeconds = 30;

/** pg-boss's tables live in a schema of their own beside the state's: `<state schema>_queue`. */
export function queueSchema(stateUrl: string): string {
  return `${parsePostgresUrl(stateUrl).schema}_queue`;
}

/**
 * A started pg-boss on the state's database, its queue created (idempotently). `supervise`: whether this
 * instance expires dead workers' jobs (workers do; `vigil fleet` need not).
 */
export async function openQueue(
  stateUrl: string,
  options: {
    supervise: boolean;
    name: string;
    timing?: QueueTiming;
    schedule?: boolean;
    /** How often this instance evaluates the queue's schedules (pg-boss's cron pass), 1 to 45. */
    scheduleCheckSeconds?: number;
    onError?: (e: Error) => void;
  },
): Promise<PgBoss> {
  const timing = options.timing ?? defaultTiming;
  const parsed = parsePostgresUrl(stateUrl);
  const boss = new PgBoss({
    connectionString: parsed.connectionString,
    schema: queueSchema(stateUrl),
    application_name: `vigil ${options.name}`,
    max: 4,
    // A worker frozen inside one of pg-boss's transactions (it takes advisory locks in them) must not hold
    // the queue for everyone: the server ends such a session after the heartbeat's length.
    options: `-c idle_in_transaction_session_timeout=${timing.heartbeatSeconds * 1000}`,
    supervise: options.supervise,
    schedule: options.schedule ?? false,
    // The deployment runs one pass per interval, whichever worker claims it; an occurrence is sent by the
    // first pass after it, so a schedule fires up to this late. Its jobs are forwarded within 5 s more.
    cronMonitorIntervalSeconds: options.scheduleCheckSeconds ?? defaultScheduleCheckSeconds,
    cronWorkerIntervalSeconds: Math.min(5, options.scheduleCheckSeconds ?? defaultScheduleCheckSeconds),
    superviseIntervalSeconds: timing.superviseSeconds,
    monitorIntervalSeconds: timing.superviseSeconds,
    instanceName: options.name,
    openTelemetry: { enabled: false },
  });
  // pg-boss reports a lost connection as an event; without a listener it would end the process.
  boss.on("error", (error) => options.onError?.(error));
  await boss.start();
  await boss.createQueue(queueName, {
    policy: "singleton",
    heartbeatSeconds: timing.heartbeatSeconds,
    expireInSeconds: timing.expireSeconds,
    retryLimit: timing.retryLimit,
    retryDelay: 1,
    // Results are read by `vigil fleet` and `fleet status`; a day is enough to look back on a run.
    deleteAfterSeconds: 86_400,
  });
  return boss;
}
