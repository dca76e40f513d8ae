/**
 * `vigil fleet apply|plan|status` against the queue: enqueue one job per account, wait for every result,
 * and read what the fleet knows per account. Nothing here runs a job: workers do.
 */
import { randomUUID } from "node:crypto";
import type { JobWithMetadata, PgBoss } from "pg-boss";
import { PostgresStateStore } from "../engine/state/postgres-store.ts";
import { realTime, type TimeSource } from "../kinds/time.ts";
import type { Fleet, FleetAccount } from "./fleet-file.ts";
import { type FleetJob, type JobAction, type JobResult, jobFor } from "./jobs.ts";
import { openQueue, queueName } from "./queue.ts";
import { type AccountRecord, FleetRecord } from "./record.ts";

export interface AccountOutcome {
  account: string;
  result: JobResult | { account: string; ok: false; failed: 1; message: string };
}

/** `--accounts a,b`: those accounts of the fleet, each named once and known, in the fleet's order. */
export function chooseAccounts(fleet: Fleet, names: readonly string[] | undefined): FleetAccount[] {
  if (!names) return fleet.accounts;
  const known = new Set(fleet.accounts.map((a) => a.name));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0)
    throw new FleetUsageError(
      `--accounts names ${unknown.map((n) => JSON.stringify(n)).join(", ")}, not in ${fleet.file}; its accounts: ${[...known].join(", ")}`,
    );
  const wanted = new Set(names);
  return fleet.accounts.filter((a) => wanted.has(a.name));
}

export class FleetUsageError extends Error {}

/** An account whose job had not ended when `vigil fleet` stopped waiting: it stays on the queue. */
export interface PendingAccount {
  account: string;
  /** `queued`: no worker has taken it yet (or it waits for a retry); `running`: a worker is on it. */
  state: "queued" | "running";
  /** The worker running it (`host pid N`), when one is. */
  worker?: string;
}

export interface FleetRun {
  /** The accounts whose jobs ended, in the fleet's order. */
  outcomes: AccountOutcome[];
  /** Those still queued or running when the timeout passed (empty when every job ended). */
  pending: PendingAccount[];
}

/** How long `vigil fleet apply|plan` waits for the results by default. */
export const defaultFleetTimeoutMs = 3_600_000;

/**
 * Enqueues one job per account (its watch schedule kept up to date too, on apply) and waits until every
 * job has ended (completed with its result, or failed for good: its worker died more often than the
 * queue's retries) or `timeoutMs` has passed on `time`. `onResult` is told of each as it ends. The jobs
 * that had not ended by then are answered as `pending`, and stay on the queue: a worker runs them later.
 */
export async function runFleet(
  stateUrl: string,
  fleet: Fleet,
  accounts: readonly FleetAccount[],
  action: Exclude<JobAction, "refresh">,
  options: {
    pollMs?: number;
    onResult?: (outcome: AccountOutcome) => void;
    timeoutMs?: number;
    time?: TimeSource;
  } = {},
): Promise<FleetRun> {
  const time = options.time ?? realTime;
  const boss = await openQueue(stateUrl, { supervise: false, name: `fleet ${action}` });
  try {
    const run = randomUUID();
    const pending = new Map<string, string>();
    const outcomes = new Map<string, AccountOutcome>();
    const settle = (outcome: AccountOutcome) => {
      outcomes.set(outcome.account, outcome);
      options.onResult?.(outcome);
    };
    for (const account of accounts) {
      const { job, problems } = await jobFor(fleet, account, action, run);
      if (problems.length > 0) {
        settle({
          account: account.name,
          result: { account: account.name, ok: false, failed: 1, message: problems.join("\n") },
        });
        continue;
      }
      const id = await boss.send(queueName, job, { singletonKey: account.name });
      if (id) pending.set(id, account.name);
      if (action === "apply") await keepSchedule(boss, fleet, account);
    }
    const deadline = time.now() + (options.timeoutMs ?? defaultFleetTimeoutMs);
    let states = new Map<string, JobWithMetadata<FleetJob>["state"]>();
    while (pending.size > 0) {
      if (time.now() >= deadline) break;
      await time.sleep(Math.min(options.pollMs ?? 300, Math.max(0, deadline - time.now())));
      const jobs = await boss.findJobs<FleetJob>(queueName, { data: { run } });
      states = new Map();
      for (const job of jobs as JobWithMetadata<FleetJob>[]) {
        const account = pending.get(job.id);
        if (account === undefined) continue;
        states.set(job.id, job.state);
        if (job.state === "completed") {
          pending.delete(job.id);
          settle({ account, result: job.output as unknown as JobResult });
        } else if (job.state === "failed" || job.state === "cancelled") {
          pending.delete(job.id);
          const why = (job.output as { message?: string } | null)?.message ?? job.state;
          settle({
            account,
            result: {
              account,
              ok: false,
              failed: 1,
              message: `the job ${job.state} after ${job.retryCount} retries: ${why}`,
            },
          });
        }
      }
    }
    return {
      outcomes: accounts.flatMap((a) => outcomes.get(a.name) ?? []),
      pending: await pendingAccounts(stateUrl, pending, states),
    };
  } finally {
    await boss.stop({ graceful: false, close: true });
  }
}

/** What became of the jobs still without a result: queued, or running on which worker (the fleet's record). */
async function pendingAccounts(
  stateUrl: string,
  pending: ReadonlyMap<string, string>,
  states: ReadonlyMap<string, JobWithMetadata<FleetJob>["state"]>,
): Promise<PendingAccount[]> {
  if (pending.size === 0) return [];
  const record = new FleetRecord(stateUrl);
  try {
    const running = new Map((await record.read()).map((r) => [r.account, r.runningOn]));
    return [...pending].map(([id, account]) => {
      if (states.get(id) !== "active") return { account, state: "queued" as const };
      const worker = running.get(account);
      return { account, state: "running" as const, ...(worker && { worker }) };
    });
  } finally {
    await record.close();
  }
}

/** An account's drift check, scheduled on the queue (pg-boss's cron), or removed when it has none. */
async function keepSchedule(boss: PgBoss, fleet: Fleet, account: FleetAccount): Promise<void> {
  if (!account.watch) {
    await boss.unschedule(queueName, account.name);
    return;
  }
  const { job } = await jobFor(fleet, account, "refresh");
  await boss.schedule(queueName, account.watch.cron, job, { key: account.name, singletonKey: account.name });
}

export interface AccountStatus extends AccountRecord {
  /** The worker holding the account's state lock now, if one is. */
  holder?: string;
  /** Seconds the oldest waiting job of the account has waited. */
  queueLagSeconds?: number;
  queued: number;
}

export async function fleetStatus(stateUrl: string): Promise<AccountStatus[]> {
  const record = new FleetRecord(stateUrl);
  const store = new PostgresStateStore(stateUrl, { workspace: "default" });
  const boss = await openQueue(stateUrl, { supervise: false, name: "fleet status" });
  try {
    const [records, workspaces, queued] = await Promise.all([
      record.read(),
      store.workspaces(),
      boss.findJobs<FleetJob>(queueName, { queued: true }),
    ]);
    const byAccount = new Map<string, AccountStatus>(records.map((r) => [r.account, { ...r, queued: 0 }]));
    const now = Date.now();
    for (const job of queued as JobWithMetadata<FleetJob>[]) {
      const account = job.data.account;
      const status = byAccount.get(account) ?? { account, queued: 0 };
      status.queued++;
      const waited = (now - Math.max(job.createdOn.getTime(), job.startAfter?.getTime() ?? 0)) / 1000;
      if (waited > 0) status.queueLagSeconds = Math.max(status.queueLagSeconds ?? 0, waited);
      byAccount.set(account, status);
    }
    for (const w of workspaces) {
      const status = byAccount.get(w.name);
      if (status && w.lock) status.holder = w.lock.operation;
    }
    return [...byAccount.values()].sort((a, b) => (a.account < b.account ? -1 : 1));
  } finally {
    await Promise.all([record.close(), store.close(), boss.stop({ graceful: false, close: true })]);
  }
}
