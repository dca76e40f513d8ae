/**
 * One running watcher: the engine loop, its listener and its outputs, wired
 * together. The CLI's `watch` command and the tests start it the same way.
 */
import type { FastifyInstance } from "fastify";
import { type ClientMetrics, type Operations, realTime, type TimeSource } from "../api/index.ts";
import type { DesiredResource, StateStore } from "../engine/index.ts";
import type { ServerLimits } from "../server-limits.ts";
import type { Cadence } from "./budget.ts";
import { DeliveryVerifier } from "./deliveries.ts";
import { type Election, LeasedRecords, leasedStore, type Term } from "./lease.ts";
import { WatchMetrics } from "./metrics.ts";
import { Notifier, type NotifyFormat } from "./notify.ts";
import type { RecordStore } from "./record.ts";
import { Replica } from "./replica.ts";
import { startListener } from "./server.ts";
import type { Transition } from "./transitions.ts";
import { Watcher } from "./watcher.ts";

export interface WatchOptions {
  ops: Operations;
  /** The metrics of the client behind `ops`: its reads and 429s. */
  clientMetrics: ClientMetrics;
  store: StateStore;
  records: RecordStore;
  desired: readonly DesiredResource[];
  /** Reads the configuration again (the watcher's rule when the state was applied with another one). */
  reloadConfig?: () => Promise<readonly DesiredResource[]>;
  cadence: Cadence;
  share: number;
  /** The client's pacing (`SharePacer`): at the account's pace until the first refresh is over, at the share after. */
  pacing?: { steady(): void };
  /** The listener's address, and its request timeouts and connection cap over the defaults (src/server-limits.ts). */
  listen?: { host: string; port: number; limits?: Partial<ServerLimits> };
  /** The webhook secret; `POST /events` is served only with one. */
  secret?: string;
  notify?: { url: string; format: NotifyFormat; redact?: (text: string) => string };
  heal?: { deletes: boolean };
  fightWindowMs?: number;
  /** How long reads for events without their object wait for the rest of a burst (1 s). */
  gatherMs?: number;
  /** Objects whose events may wait to be judged at once (10,000); past it, a full refresh covers them. */
  maxQueued?: number;
  time?: TimeSource;
  /**
   * Replicas on one PostgreSQL workspace: the watcher runs only while this replica holds the lease, and
   * keeps its record in the lease's row (`records` is then where an earlier single watcher kept it, read
   * while the row holds none).
   */
  lease?: { election: Election };
  /** One JSON line per transition (stdout). */
  out: (line: string) => void;
  /** Everything else (stderr). */
  log: (line: string) => void;
}

export interface RunningWatch {
  /** The watcher; with replicas, the active one (it throws while this replica stands by). */
  readonly watcher: Watcher;
  /** With replicas (`lease`): this one's election and role. */
  replica?: Replica;
  metrics: WatchMetrics;
  /** The listener's base URL, with `listen`. */
  url?: string;
  /** Settles when the loop ends (after `stop()`), or rejects when start-up fails. */
  done: Promise<void>;
  /** Stops the loop and closes the listener; waits for queued notifications at most `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export async function startWatch(options: WatchOptions): Promise<RunningWatch> {
  const metrics = new WatchMetrics(options.clientMetrics);
  const notifier =
    options.notify &&
    new Notifier({
      ...options.notify,
      // Its retries wait on the watcher's clock.
      ...(options.time && { time: options.time }),
      warn: (m) => options.log(`Warning: ${m}`),
    });
  /** A watcher; with `term`, one that saves, reports and heals only while the term holds the lease. */
  const newWatcher = (term?: Term) =>
    new Watcher({
      ops: options.ops,
      store: term ? leasedStore(options.store, term) : options.store,
      records: term
        ? new LeasedRecords(options.lease!.election.backend, term, options.records)
        : options.records,
      desired: options.desired,
      ...(options.reloadConfig && { reloadConfig: options.reloadConfig }),
      metrics,
      cadence: options.cadence,
      share: options.share,
      reads: () => {
        const s = options.clientMetrics.snapshot();
        return (s.byClass.read ?? 0) + (s.byClass.checkRead ?? 0);
      },
      ...(options.time && { time: options.time }),
      ...(options.heal && { heal: options.heal }),
      ...(options.fightWindowMs !== undefined && { fightWindowMs: options.fightWindowMs }),
      ...(options.gatherMs !== undefined && { gatherMs: options.gatherMs }),
      ...(options.maxQueued !== undefined && { maxQueued: options.maxQueued }),
      ...(options.pacing && { pacing: options.pacing }),
      onTransition: (t: Transition) => {
        // Saved under the term, then the lease was lost before it was said: the replica that took over
        // counts it as said, so it is said by no one rather than twice.
        if (term && !term.holds()) {
          options.log(
            `Warning: ${t.address} ${t.transition} was not reported: this replica lost the watch lease (term ${term.token}) after saving it.`,
          );
          return;
        }
        options.out(JSON.stringify(t));
        // Posted in the background: a slow receiver never holds the watcher up.
        void notifier?.send(t);
      },
      log: options.log,
    });
  const replica =
    options.lease &&
    new Replica({
      election: options.lease.election,
      time: options.time ?? realTime,
      metrics,
      watcher: newWatcher,
      log: options.log,
    });
  const single = replica ? undefined : newWatcher();
  const target = replica ?? single!;
  let app: FastifyInstance | undefined;
  let url: string | undefined;
  if (options.listen) {
    const listener = await startListener({
      ...options.listen,
      metrics,
      watcher: target,
      ...(options.secret !== undefined && { verifier: new DeliveryVerifier({ secret: options.secret }) }),
      log: options.log,
    });
    app = listener.app;
    url = listener.url;
    options.log(
      `Listening on ${url} (${options.secret !== undefined ? "POST /events, " : ""}GET /metrics, GET /healthz).`,
    );
  }
  const done = replica
    ? replica.run()
    : (async () => {
        await single!.start();
        await single!.run();
      })();
  return {
    get watcher(): Watcher {
      const watcher = replica ? replica.watcher : single;
      if (!watcher) throw new Error("this replica stands by: it runs no watcher");
      return watcher;
    },
    ...(replica && { replica }),
    metrics,
    ...(url && { url }),
    done,
    async stop(graceMs = 3000) {
      (replica ?? single!).stop();
      await app?.close();
      if (notifier) await Promise.race([notifier.idle(), new Promise((r) => setTimeout(r, graceMs).unref())]);
    },
  };
}
