/**
 * `vigil worker`: takes the fleet's jobs from the queue, N at a time, never two of one account (the queue's
 * singleton key), and runs each (runner.ts). Results go to the job's output (read by `vigil fleet`) and to
 * the fleet's record (read by `vigil fleet status`); each account's figures to the worker's /metrics.
 */
import type { Job, JobWithMetadata, PgBoss } from "pg-boss";
import { Counter, Gauge, Registry } from "prom-client";
import type { ClientMetrics } from "../api/index.ts";
import { type DeliveryAnswer, FleetDeliveries } from "./events.ts";
import type { FleetJob, JobResult } from "./jobs.ts";
import { defaultTiming, openQueue, type QueueTiming, queueName } from "./queue.ts";
import { FleetRecord } from "./record.ts";
import { type RunnerOptions, runJob, workerName } from "./runner.ts";

export interface WorkerOptions extends Omit<RunnerOptions, "onCalls"> {
  concurrency: number;
  timing?: QueueTiming;
  /** How often this worker evaluates the schedules (the accounts' `watch.every`), in seconds. */
  scheduleCheckSeconds?: number;
}

/** Per account: queue lag, last success, drifted resources, API errors, jobs by result. */
export class FleetMetrics {
  readonly registry = new Registry();
  readonly lag = new Gauge({
    name: "vigil_fleet_queue_lag_seconds",
    help: "Seconds the account's last job waited in the queue before a worker took it.",
    labelNames: ["account"],
    registers: [this.registry],
  });
  readonly lastSuccess = new Gauge({
    name: "vigil_fleet_last_success_timestamp_seconds",
    help: "Unix time of the account's last job that succeeded on this worker.",
    labelNames: ["account", "action"],
    registers: [this.registry],
  });
  readonly drifted = new Gauge({
    name: "vigil_fleet_drifted_resources",
    help: "Resources the account's last drift check found changed outside vigil.",
    labelNames: ["account"],
    registers: [this.registry],
  });
  readonly apiErrors = new Counter({
    name: "vigil_fleet_api_errors_total",
    help: "API answers that were errors (5xx, 4xx other than 404/410/429, no answer), by account.",
    labelNames: ["account"],
    registers: [this.registry],
  });
  readonly jobs = new Counter({
    name: "vigil_fleet_jobs_total",
    help: "Jobs this worker ran, by account, action and result.",
    labelNames: ["account", "action", "result"],
    registers: [this.registry],
  });
  readonly running = new Gauge({
    name: "vigil_fleet_jobs_running",
    help: "Jobs running on this worker now.",
    registers: [this.registry],
  });

  calls(account: string, metrics: ClientMetrics): void {
    let errors = 0;
    for (const [status, n] of Object.entries(metrics.snapshot().byStatus))
      if (status === "network" || status === "timeout" || Number(status) >= 500) errors += n;
      else if (Number(status) >= 400 && !["404", "410", "429"].includes(status)) errors += n;
    if (errors > 0) this.apiErrors.inc({ account }, errors);
  }

  finished(result: JobResult, lagSeconds: number): void {
    this.lag.set({ account: result.account }, lagSeconds);
    this.jobs.inc({ account: result.account, action: result.action, result: result.ok ? "ok" : "failed" });
    if (result.ok)
      this.lastSuccess.set({ account: result.account, action: result.action }, Date.now() / 1000);
    if (result.action === "refresh" && result.changes !== undefined)
      this.drifted.set({ account: result.account }, result.changes);
  }
}

export interface RunningWorker {
  metrics: FleetMetrics;
  /** `POST /events/<account>`: a delivery of the account's webhook, checked and turned into a drift check. */
  receive(
    account: string,
    headers: Record<string, string | string[] | undefined>,
    raw: Buffer,
  ): Promise<DeliveryAnswer>;
  /** Whether the worker still takes jobs (for /healthz). */
  healthy(): { ok: boolean; body: Record<string, unknown> };
  /** Stops taking jobs, lets those under way end (up to `graceMs`), and closes. */
  stop(graceMs?: number): Promise<void>;
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const metrics = new FleetMetrics();
  const record = new FleetRecord(options.stateUrl);
  let lastError: string | undefined;
  const boss: PgBoss = await openQueue(options.stateUrl, {
    supervise: true,
    schedule: true,
    ...(options.scheduleCheckSeconds && { scheduleCheckSeconds: options.scheduleCheckSeconds }),
    name: `worker ${workerName}`,
    timing: options.timing ?? defaultTiming,
    onError: (error) => {
      lastError = error.message;
      options.log(`Warning: the queue: ${error.message}`);
    },
  });
  const handle = async ([job]: Job<FleetJob>[]) => {
    if (!job) return undefined;
    const meta = job as JobWithMetadata<FleetJob>;
    const due = Math.max(meta.createdOn.getTime(), meta.startAfter?.getTime() ?? 0);
    const lag = Math.max(0, (Date.now() - due) / 1000);
    metrics.running.inc();
    try {
      await record.started(job.data.account, workerName).catch(() => {});
      const result = await runJob(job.data, { ...options, onCalls: (a, m) => metrics.calls(a, m) });
      metrics.finished(result, lag);
      options.log(
        `${result.account}: ${result.action} ${result.ok ? "done" : "failed"} (+${result.created} ~${result.updated} -${result.deleted}${result.failed ? ` ${result.failed} failed` : ""}; waited ${lag.toFixed(1)} s)${result.message ? `: ${result.message}` : ""}`,
      );
      await record
        .finished(result)
        .catch((error: unknown) =>
          options.log(`Warning: could not record ${result.account}'s result: ${(error as Error).message}`),
        );
      return { ...result, lagSeconds: lag };
    } finally {
      metrics.running.dec();
    }
  };
  await boss.work<FleetJob, JobResult>(
    queueName,
    {
      localConcurrency: options.concurrency,
      batchSize: 1,
      includeMetadata: true,
      pollingIntervalSeconds: 0.5,
    },
    handle as never,
  );
  const deliveries = new FleetDeliveries(boss, options.env);
  return {
    metrics,
    receive: (account, headers, raw) => deliveries.receive(account, headers, raw),
    healthy: () => ({
      ok: lastError === undefined,
      body: { worker: workerName, ...(lastError && { lastError }) },
    }),
    async stop(graceMs = 30_000) {
      await boss.stop({ graceful: true, timeout: graceMs, close: true });
      await record.close();
    },
  };
}
