/**
 * What the stores share about locks: who a holder is, how a lease is kept,
 * and how a run waits for a lock another run holds.
 */
import { randomUUID } from "node:crypto";
import { hostname, userInfo } from "node:os";
import type { TimeSource } from "../../api/index.ts";
import { vigilVersion } from "../../shipped.ts";
import { type LockHolder, StateBackendError, StateLockedError } from "./errors.ts";

/** Options every store takes. */
export interface StoreOptions {
  /** One state among many in the same backend; `default` unless named. */
  workspace?: string;
  /** What the run that locks means to do (`apply`), recorded in the lock. */
  operation?: string;
  /** How long to wait for a lock another run holds; 0 (the default for library use) fails at once. */
  lockTimeoutMs?: number;
  /** The lease: a lock not renewed for this long is free. */
  leaseMs?: number;
  /** Versions kept in the history (at least 1). */
  keepVersions?: number;
  /** Told who holds the lock while this run waits for it (once, and again when the holder changes). */
  onWaiting?: (message: string) => void;
  /** Told about things worth a warning, such as taking over a dead run's lock. */
  onWarning?: (message: string) => void;
  /**
   * The clock of the waits, the lease's renewals and (for the file store) its expiry; real time unless a
   * test drives it. PostgreSQL judges expiry by the database's clock.
   */
  time?: TimeSource;
}

export const defaults = {
  workspace: "default",
  leaseMs: 120_000,
  keepVersions: 100,
  lockTimeoutMs: 0,
};

/** A workspace name: also a file name for the file store, so no separators and no leading dot. */
export function checkWorkspaceName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/.test(name))
    throw new StateBackendError(
      `workspace ${JSON.stringify(name)} is not a valid name: use 1 to 63 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  return name;
}

/** The URL of the CI run this process belongs to, when the environment names one. */
export function ciRunUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.GITHUB_RUN_ID && env.GITHUB_REPOSITORY)
    return `${env.GITHUB_SERVER_URL ?? "https://github.com"}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
  // GitLab CI names the job; other CI systems often follow its CI_* names.
  return env.CI_JOB_URL ?? env.CI_PIPELINE_URL ?? env.CI_BUILD_URL ?? env.BUILD_URL;
}

/** This process as a lock holder, with a fresh lock id. */
export function newHolder(operation: string, leaseMs: number, now: number): LockHolder {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = process.env.USER ?? `uid ${process.getuid?.() ?? "?"}`;
  }
  const ciUrl = ciRunUrl();
  return {
    id: randomUUID(),
    operation,
    user,
    host: hostname(),
    pid: process.pid,
    version: vigilVersion(),
    takenAt: new Date(now).toISOString(),
    expiresAt: new Date(now + leaseMs).toISOString(),
    ...(ciUrl && { ciUrl }),
  };
}

/** One line naming a holder: what it does, who and where it is, since when, and its lock id. */
export function describeHolder(holder: LockHolder | undefined): string {
  if (holder === undefined) return "an unknown run (its lock holds no valid record)";
  return (
    `${holder.user}@${holder.host} (pid ${holder.pid}, vigil ${holder.version}, ${holder.operation}) ` +
    `since ${holder.takenAt}, lock id ${holder.id}` +
    (holder.ciUrl ? `, ${holder.ciUrl}` : "")
  );
}

export type Attempt<T> = { lock: T } | { holder: LockHolder | undefined };

/**
 * Tries `attempt` until it gets the lock or `timeoutMs` passes, saying who
 * holds the lock while it waits. `wake` may end a pause early (the PostgreSQL
 * store is told when a lock is released).
 */
export async function acquire<T>(
  attempt: () => Promise<Attempt<T>>,
  options: {
    timeoutMs: number;
    what: string;
    onWaiting?: (message: string) => void;
    wake?: (ms: number) => Promise<void>;
    lockFile?: string;
    time: TimeSource;
  },
): Promise<T> {
  const { time } = options;
  const deadline = time.now() + options.timeoutMs;
  let pause = 50;
  let shown: string | undefined;
  for (;;) {
    const result = await attempt();
    if ("lock" in result) return result.lock;
    const who = describeHolder(result.holder);
    const left = deadline - time.now();
    if (left <= 0) {
      const waited = options.timeoutMs > 0 ? ` after waiting ${formatDuration(options.timeoutMs)}` : "";
      throw new StateLockedError(
        `${options.what} is locked by ${who}. Gave up${waited} (--lock-timeout). ` +
          `If that run is gone, its lease ends by ${result.holder?.expiresAt ?? "its expiry"}; ` +
          `vigil state unlock ${result.holder?.id ?? "LOCK_ID"} releases it now.`,
        {
          ...(options.lockFile && { lockFile: options.lockFile }),
          ...(result.holder && { holder: result.holder }),
        },
      );
    }
    if (shown !== result.holder?.id) {
      shown = result.holder?.id;
      options.onWaiting?.(
        `${options.what} is locked by ${who}; waiting up to ${formatDuration(left)} for it`,
      );
    }
    // Jittered, so runs that wait together do not all retry at the same moment.
    const ms = Math.min(left, pause * (0.5 + Math.random()));
    await (options.wake ? options.wake(ms) : time.sleep(ms));
    pause = Math.min(1000, pause * 1.5);
  }
}

/** `5m`, `90s`, `1m30s`, `250ms`. */
function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const seconds = Math.round(ms / 1000);
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m === 0 ? `${s}s` : s === 0 ? `${m}m` : `${m}m${s}s`;
}

/**
 * Renews a lease every quarter of its length (on `time`) while the run lives. `renew`
 * answers false once the lock is no longer this run's; the handle then
 * refuses every write.
 */
export function keepLease(
  leaseMs: number,
  renew: () => Promise<boolean>,
  onWarning: ((message: string) => void) | undefined,
  time: TimeSource,
) {
  let lost: string | undefined;
  const stopped = new AbortController();
  const renewals = (async () => {
    for (;;) {
      try {
        // The lease never keeps a process alive on its own.
        await time.sleep(Math.max(10, leaseMs / 4), stopped.signal, { unref: true });
      } catch {
        return; // stopped
      }
      try {
        if (!(await renew())) lost = "another run took the lock after this run's lease ran out";
      } catch (error) {
        // Transient (the database restarted, say): the next renewal tries again, within the lease.
        onWarning?.(`could not renew the state lock's lease: ${(error as Error).message}`);
      }
    }
  })();
  return {
    get lost() {
      return lost;
    },
    markLost(reason: string) {
      lost = reason;
    },
    async stop() {
      stopped.abort();
      await renewals;
    },
  };
}
