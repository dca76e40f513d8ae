import type { TimeSource } from "../kinds/time.ts";
import { type ServerLimits, serverLimits } from "../server-limits.ts";
import { createApp } from "./core/app.ts";
import { secureDataFile } from "./core/data-file.ts";
import { purgeExpired } from "./core/idempotency.ts";
import type { WebhookReceiver } from "./core/operation.ts";
import type { PlanName } from "./core/plans.ts";
import { readSnapshotFile, writeSnapshotFile } from "./core/snapshot-file.ts";
import { SandboxState } from "./core/state.ts";
import { Store, type StoreSnapshot } from "./core/store.ts";

export type { ReceivedWebhook, WebhookReceiver } from "./core/operation.ts";

import { allOperations } from "./operations.ts";
import { createAccount } from "./resources/accounts.ts";
import { mintOwnerToken } from "./resources/admin.ts";
import { backgroundTasks } from "./tasks.ts";

export interface SandboxOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** SQLite file that keeps state across restarts, every write as it commits; in memory when absent. */
  dataFile?: string;
  /**
   * JSON file that keeps state across restarts as a snapshot: loaded at start
   * when it exists, written back by `save()` and `close()` (not per write, so a
   * kill loses what came after the last save). Exclusive with `dataFile`.
   */
  snapshotFile?: string;
  /** Plan of the default account (business when absent). */
  plan?: PlanName;
  /** Lets webhooks deliver over plain http to loopback addresses (local tests only; off by default). */
  allowInsecureWebhooks?: boolean;
  /**
   * Request timeouts and the connection cap over `defaultServerLimits` (src/server-limits.ts, docs/sandbox.md);
   * a value that is not a positive integer throws a RangeError before anything starts.
   */
  limits?: Partial<ServerLimits>;
  /** What the start wants a person to know (a data file others could read, now 0600); default: `process.emitWarning`. */
  onWarning?: (message: string) => void;
  /**
   * The clock stands still: only `POST /_sandbox/clock` moves it, so a run records the same times every
   * time, whatever its requests cost (`vigil test`). Off by default: the clock follows real time.
   */
  manualClock?: boolean;
  /**
   * Hands every webhook delivery, signed as it would be sent, to this function instead of the network; its
   * answer's status is judged as a receiver's (2xx delivered). For in-process runs that must reach no one
   * (`vigil test`); the destination rules then have nothing to judge.
   */
  webhookReceiver?: WebhookReceiver;
  /**
   * Real time as the sandbox reads it: under its clock, for the background ticker (timers, deliveries and
   * job items run on its ticks) and the deliveries' signatures. Real time when absent; a test passes a clock
   * it moves itself.
   */
  time?: TimeSource;
}

/** The whole state of an in-memory sandbox at one moment (`checkpoint`), to go back to (`restore`). */
export interface SandboxCheckpoint {
  readonly snapshot: StoreSnapshot;
}

export interface RunningSandbox {
  url: string;
  /** Owner token of the default account, with every scope. */
  token: string;
  /** Authorizes the `/_sandbox/` routes. */
  adminToken: string;
  accountId: string;
  /**
   * Writes the snapshot file now (a checkpoint). Without `snapshotFile` there
   * is nothing to do: the data file already holds every committed write, and
   * an in-memory sandbox keeps nothing.
   */
  save(): Promise<void>;
  /**
   * Runs the timers due now and waits until no background work is left due by the clock: the deliveries
   * timers queued have been handed to their receivers and recorded. Read what the sandbox did after it.
   */
  settle(): Promise<void>;
  /**
   * The sandbox's state now, held in memory (documents are shared, not copied: they are immutable), for
   * `restore`. Settles first. In-memory sandboxes only (no `dataFile`).
   */
  checkpoint(): Promise<SandboxCheckpoint>;
  /**
   * Puts the sandbox back to a checkpoint: every object, the clock and the histories as they were then.
   * Waits for running background work first; call it with no request of yours in flight. Tokens minted
   * since stay valid (their signing key is part of the state, and unchanged).
   */
  restore(checkpoint: SandboxCheckpoint): Promise<void>;
  /**
   * Stops serving and background work, saves the snapshot (with `snapshotFile`), and releases the state,
   * in bounded time: requests and background work still running after `graceMs` (default
   * `shutdownGraceMs`) are cut off, with a warning. Every acknowledged write is already committed.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** How long `close` waits for running requests and background work before it cuts them off. */
export const shutdownGraceMs = 5000;

/** Whether `promise` settles within `ms`; it keeps running either way. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Saves run one after another, so an older snapshot never lands after a newer one. */
function snapshotSaver(state: SandboxState, snapshotFile: string | undefined): () => Promise<void> {
  let saving = Promise.resolve();
  return () => {
    if (snapshotFile === undefined) return Promise.resolve();
    const next = saving.then(() => writeSnapshotFile(snapshotFile, state.store.snapshot()));
    saving = next.catch(() => {});
    return next;
  };
}

/** The account the owner's token is for: the one the store names, or a new one. */
function defaultAccount(state: SandboxState, now: number, plan: NonNullable<SandboxOptions["plan"]>): string {
  const held = state.store.meta<string>("defaultAccountId");
  if (held && state.store.get("account", held)) return held;
  const accountId = createAccount(state.store, now, { plan, login: "owner@sandbox.test" }).id;
  state.store.setMeta("defaultAccountId", accountId);
  return accountId;
}

/** Starts a sandbox in this process. Each call is an independent instance with its own state. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { snapshotFile } = options;
  if (options.dataFile !== undefined && snapshotFile !== undefined) {
    throw new Error(
      "startSandbox: give dataFile or snapshotFile, not both: they are two ways to keep one state.",
    );
  }
  const limits = serverLimits(options.limits);
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message));
  if (options.dataFile) {
    for (const warning of await secureDataFile(options.dataFile)) warn(warning);
  }
  const snapshot = snapshotFile === undefined ? undefined : await readSnapshotFile(snapshotFile);
  const state = new SandboxState(snapshot ? Store.fromSnapshot(snapshot) : options.dataFile, {
    allowInsecureWebhooks: options.allowInsecureWebhooks ?? false,
    ...(options.manualClock && { manualClock: true }),
    ...(options.webhookReceiver && { webhookReceiver: options.webhookReceiver }),
    ...(options.time && { time: options.time }),
  });
  const save = snapshotSaver(state, snapshotFile);
  const now = state.clock.now();
  const accountId = defaultAccount(state, now, options.plan ?? "business");
  // Expired idempotency records are already ignored on lookup; sweeping them keeps the store from growing.
  const sweep = () => purgeExpired(state.store, state.clock.now());
  sweep();
  const sweeper = setInterval(sweep, 10 * 60 * 1000).unref();
  const app = createApp(state, allOperations(), {
    limits,
    onRefused: (refused) =>
      warn(
        `refused ${refused} connection(s) since the last such warning (one a minute at most): ${limits.maxConnections} are open, the most it takes (--max-connections, limits.maxConnections).`,
      ),
  });
  const host = options.host ?? "127.0.0.1";
  state.background.start(backgroundTasks());
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    // Release the data file (and its lock) when the port cannot be had.
    clearInterval(sweeper);
    await state.background.stop();
    await app.close();
    state.store.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  state.baseUrl = url;
  const token = mintOwnerToken(state.tokens, accountId, now, "owner");
  return {
    url,
    token,
    adminToken: state.services.adminToken,
    accountId,
    save,
    settle: () => state.background.settle(),
    checkpoint: async () => {
      if (options.dataFile) throw new Error("A sandbox with a data file cannot take checkpoints.");
      await state.background.settle();
      return { snapshot: state.store.snapshot() };
    },
    restore: async (checkpoint) => {
      await state.background.idle();
      state.store.restore(checkpoint.snapshot);
    },
    close: async ({ graceMs = shutdownGraceMs } = {}) => {
      clearInterval(sweeper);
      const deadline = Date.now() + graceMs;
      const left = () => Math.max(0, deadline - Date.now());
      // Idle keep-alive connections are closed at once (forceCloseConnections); a request still
      // running past the grace has its connection cut.
      const serving = app.close();
      if (!(await settlesWithin(serving, left()))) {
        app.server.closeAllConnections();
        warn(`requests still running after ${graceMs} ms were cut off.`);
        await settlesWithin(serving, 1000);
      }
      // Background work stops first: a job still running is saved `running`, and comes back
      // `interrupted` at the next start, as it does from a data file.
      if (!(await state.background.stop(left())))
        warn(
          `background work still running after ${graceMs} ms was abandoned; what it had not committed (a webhook attempt in flight) is done again at the next start.`,
        );
      try {
        await save();
      } finally {
        state.store.close();
      }
    },
  };
}
