/**
 * How every frontend gets a configured client: the CLI (one command), the Terraform and Pulumi providers
 * (one process holding many resources) and the engine's object writes all open their client here, so
 * pacing, retries and the longest wait are set in one place.
 */
import { type RetryEvent, VigilClient } from "./client.ts";
import { type Operations, operations } from "./operations.ts";
import { QuotaPacer } from "./pacing.ts";
import { ReplayWatch } from "./replays.ts";
import type { Caller, Pacer, QuotaClass } from "./types.ts";

/** Watches a session's calls from outside the client: the CLI's read progress (cli/render/read-progress.ts). */
export interface CallWatcher {
  caller(inner: Caller): Caller;
  pacer(inner: Pacer): Pacer;
}

/** Calls a quota class may make back to back before even pacing starts, by who runs the client. */
export const bursts = {
  /**
   * A CLI run is short and alone on its token most of the time: it may spend a third of a minute's reads
   * and writes back to back, then paces evenly. The pacer still keeps every window under its limit, so
   * this costs no 429.
   */
  command: { read: 20, write: 10 },
  /**
   * A provider host's wave goes at once when the window has room (two thirds of Business's minute); once
   * answers show the window's room, the pacer runs at the quota's own rate, so the burst costs no rate.
   */
  provider: { read: 40, write: 20 },
} as const satisfies Record<string, Partial<Record<QuotaClass, number>>>;

export interface ApiSessionOptions {
  /** e.g. `https://api.example.com/v2`. */
  baseUrl: string;
  token: string;
  /** A pacing of the caller's own (`vigil watch` keeps to a share of the quota); else a `QuotaPacer`. */
  pacer?: Pacer;
  /** The default `QuotaPacer`'s burst (`bursts`); ignored when `pacer` is given. */
  burst?: Partial<Record<QuotaClass, number>>;
  /** The longest wait worth doing, for the default pacer's blocks and the client's `Retry-After` alike. */
  maxBlockMs?: number;
  /** Told of each failed attempt before its retry. */
  onRetry?: (event: RetryEvent) => void;
  /** Sees every call and every wait for quota. */
  watch?: CallWatcher;
}

/** A configured client and what is built on it. */
export interface ApiSession {
  client: VigilClient;
  /** The pacer every call of the session waits on (the watcher's view of it, when watched). */
  pacer: Pacer;
  ops: Operations;
  /** Whether the service answered a write under this key with the stored answer of an earlier one. */
  replayed(key: string): boolean;
}

export function openApiSession(options: ApiSessionOptions): ApiSession {
  const chosen =
    options.pacer ??
    new QuotaPacer({
      ...(options.burst && { burst: options.burst }),
      ...(options.maxBlockMs !== undefined && { maxBlockMs: options.maxBlockMs }),
    });
  const pacer = options.watch ? options.watch.pacer(chosen) : chosen;
  const client = new VigilClient({
    baseUrl: options.baseUrl,
    token: options.token,
    pacer,
    ...(options.maxBlockMs !== undefined && { maxBlockMs: options.maxBlockMs }),
    ...(options.onRetry && { onRetry: options.onRetry }),
  });
  const replays = new ReplayWatch(options.watch ? options.watch.caller(client) : client);
  return { client, pacer, ops: operations(replays), replayed: (key) => replays.keys.has(key) };
}
