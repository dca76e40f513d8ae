/**
 * One fleet job, run by a worker: the account's configuration as the job carries it, its token from this
 * worker's environment, its state in the account's workspace (locked, leased, fenced: a worker whose lease
 * ran out cannot save), and its calls paced under its own quota. Whatever goes wrong is the account's own
 * result, in words; only a worker that dies leaves its job to another (the queue's heartbeat).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";
import { bursts, type ClientMetrics, openApiSession } from "../api/index.ts";
import {
  applyChanges,
  type DesiredResource,
  type Plan,
  planChanges,
  SecretValues,
  serializePlan,
} from "../engine/index.ts";
import { PostgresStateStore } from "../engine/state/postgres-store.ts";
import { formatDiagnostic, loadConfig } from "../gitops/load.ts";
import type { FleetJob, JobResult } from "./jobs.ts";

/** How many drifted addresses a drift check's result names (status, record). */
const maxDriftedListed = 50;

export interface RunnerOptions {
  stateUrl: string;
  env: NodeJS.ProcessEnv;
  /** The state lock's lease: a worker that stops renewing it loses the account's state after this. */
  leaseMs: number;
  /** How long a job waits for the account's state lock (a frozen worker's lease to run out). */
  lockTimeoutMs: number;
  /** An error in the CLI's words (no stack trace for a user's error). */
  describe: (error: unknown) => string;
  log: (line: string) => void;
  /** Told of each account's API calls once its job ends: the worker's /metrics. */
  onCalls?: (account: string, metrics: ClientMetrics) => void;
}

export const workerName = `${hostname()} pid ${process.pid}`;

class AccountError extends Error {}

/** The job's files in a private directory, each inside it (a hostile path in the queue writes nowhere else). */
async function materialize(job: FleetJob): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vigil-fleet-"));
  for (const file of job.files) {
    const path = normalize(file.path);
    if (isAbsolute(path) || path === ".." || path.startsWith(`..${sep}`) || path.includes("\0"))
      throw new AccountError(`the job's file ${JSON.stringify(file.path)} leads outside its configuration`);
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), file.text, { mode: 0o600 });
  }
  for (const p of job.paths) await mkdir(join(dir, normalize(p)), { recursive: true }).catch(() => {});
  return dir;
}

function connectionOf(job: FleetJob, env: NodeJS.ProcessEnv): { endpoint: string; token: string } {
  const token = env[job.token.env];
  if (!token)
    throw new AccountError(
      `the environment variable ${job.token.env}, the token of account ${job.account}, is not set on worker ${workerName}`,
    );
  const endpointVar = job.endpoint && "env" in job.endpoint ? job.endpoint.env : "VIGIL_ENDPOINT";
  const endpoint = job.endpoint && "value" in job.endpoint ? job.endpoint.value : env[endpointVar];
  if (!endpoint)
    throw new AccountError(
      `the environment variable ${endpointVar}, the endpoint of account ${job.account}, is not set on worker ${workerName}`,
    );
  return { endpoint, token };
}

const count = (plan: Plan, actions: readonly string[]) =>
  plan.actions.filter((a) => actions.includes(a.action) && !a.cascadedBy).length;

export async function runJob(job: FleetJob, options: RunnerOptions): Promise<JobResult> {
  const startedAt = new Date().toISOString();
  const base = { account: job.account, action: job.action, worker: workerName, startedAt };
  const zero = { created: 0, updated: 0, deleted: 0, failed: 0 };
  let dir: string | undefined;
  const secrets = new SecretValues();
  try {
    const { endpoint, token } = connectionOf(job, options.env);
    secrets.add(token);
    dir = await materialize(job);
    const shown = `${dir}${sep}`;
    const config = await loadConfig(
      job.paths.map((p) => join(dir!, normalize(p))),
      { env: options.env },
    );
    secrets.addAll(config.secrets);
    if (config.diagnostics.length > 0)
      throw new AccountError(
        `${config.diagnostics.length} problem(s) in the configuration; nothing was sent to the API:\n${config.diagnostics
          .map((d) => formatDiagnostic(d).replaceAll(shown, ""))
          .join("\n")}`,
      );
    const outcome = await reconcile(job, options, {
      endpoint,
      token,
      desired: config.resources,
      imports: config.imports,
      secrets,
    });
    return { ...base, ...outcome, finishedAt: new Date().toISOString() };
  } catch (error) {
    const text = error instanceof AccountError ? error.message : options.describe(error);
    const message = secrets.redact(dir ? text.replaceAll(`${dir}${sep}`, "") : text);
    return { ...base, ...zero, failed: 1, ok: false, message, finishedAt: new Date().toISOString() };
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

async function reconcile(
  job: FleetJob,
  options: RunnerOptions,
  c: {
    endpoint: string;
    token: string;
    desired: DesiredResource[];
    imports: { address: string; id: string }[];
    secrets: SecretValues;
  },
): Promise<Omit<JobResult, "account" | "action" | "worker" | "startedAt" | "finishedAt">> {
  // One job per account runs at a time (the queue's singleton key), so this session's pacer is the only
  // one spending the account's quota; its RateLimit-* guard covers a handover (docs/fleet.md, "Pacing").
  const session = openApiSession({
    baseUrl: c.endpoint,
    token: c.token,
    burst: bursts.command,
    onRetry: (event) =>
      options.log(`${job.account}: ${event.route} retry ${event.attempt} of ${event.attempts - 1}`),
  });
  const store = new PostgresStateStore(options.stateUrl, {
    workspace: job.account,
    operation: `fleet ${job.action} (${workerName})`,
    leaseMs: options.leaseMs,
    lockTimeoutMs: options.lockTimeoutMs,
    onWarning: (message) => options.log(`${job.account}: ${message}`),
  });
  try {
    await session.client.prime();
    const engine = {
      ops: session.ops,
      store,
      desired: c.desired,
      imports: c.imports,
      secrets: c.secrets,
    };
    if (job.action === "plan") {
      const { plan } = await planChanges({ ...engine, refresh: "full" });
      const changes = plan.actions.filter((a) => a.action !== "no-op").length;
      return {
        ok: true,
        created: count(plan, ["create", "replace"]),
        updated: count(plan, ["update", "import"]),
        deleted: count(plan, ["delete", "forget"]),
        failed: 0,
        changes,
        plan: JSON.parse(serializePlan(plan)),
      };
    }
    if (job.action === "refresh") {
      const { plan } = await planChanges({ ...engine, refresh: "full", refreshOnly: true });
      const found = plan.actions.filter((a) => a.action !== "no-op").map((a) => a.address);
      // The first ones are enough to say where to look; the count says how many there are.
      const drift = { changes: found.length, drifted: found.slice(0, maxDriftedListed) };
      if (found.length === 0 || !job.heal)
        return { ok: true, created: 0, updated: 0, deleted: 0, failed: 0, ...drift };
      const healed = await applyAll(engine);
      return { ...healed, ...drift };
    }
    return await applyAll(engine);
  } finally {
    options.onCalls?.(job.account, session.client.metrics);
    await store.close();
    await session.client.close();
  }
}

async function applyAll(engine: Parameters<typeof applyChanges>[0]) {
  const { result } = await applyChanges({ ...engine, approve: async () => true });
  const made = (actions: readonly string[]) => result.done.filter((d) => actions.includes(d.action)).length;
  const failed = result.failures.length;
  return {
    ok: failed === 0,
    created: made(["create", "replace"]),
    updated: made(["update", "import"]),
    deleted: made(["delete", "forget"]),
    failed,
    ...(failed > 0 && {
      message: result.failures.map((f) => `${f.address}: ${f.action} failed: ${f.message}`).join("\n"),
    }),
  };
}
