import { randomBytes } from "node:crypto";
import { request } from "undici";
import { operations, type TimeSource, VigilClient } from "../../src/api/index.ts";
import {
  applyChanges,
  type DesiredResource,
  MemoryStateStore,
  type StateStore,
} from "../../src/engine/index.ts";
import { signatureHeaders } from "../../src/sandbox/resources/webhooks/signing.ts";
import type { RecordStore, WatchRecord } from "../../src/watch/record.ts";
import { type RunningWatch, startWatch, type WatchOptions } from "../../src/watch/run.ts";
import type { TestSandbox } from "../helpers/sandbox.ts";
import { freePort } from "./helpers.ts";

export { ManualClock } from "../helpers/clock.ts";

export class MemoryRecords implements RecordStore {
  readonly description = "memory";
  saved: WatchRecord | undefined;
  async load() {
    return this.saved && structuredClone(this.saved);
  }
  async save(record: WatchRecord) {
    this.saved = structuredClone(record);
  }
}

export interface InProcess {
  watch: RunningWatch;
  client: VigilClient;
  /** Reads the watcher's client has made so far. */
  reads(): number;
  transitions: Record<string, any>[];
  logs: string[];
  /** Posts a signed delivery to the watcher's listener; answers the status. */
  deliver(event: string, data: Record<string, unknown>, occurredAt?: number): Promise<number>;
  close(): Promise<void>;
}

export const webhookSecret = `whsec_${randomBytes(24).toString("base64")}`;

/** Applies `desired` to the account (into `store`), unless `applied` says it already was. */
export async function applyTo(
  sb: TestSandbox,
  token: string,
  store: StateStore,
  desired: readonly DesiredResource[],
): Promise<void> {
  const setup = new VigilClient({ baseUrl: sb.url, token });
  await setup.prime();
  try {
    const applied = await applyChanges({ ops: operations(setup), store, desired });
    if (applied.result.failures.length > 0)
      throw new Error(`apply failed: ${JSON.stringify(applied.result.failures)}`);
  } finally {
    await setup.close();
  }
}

/**
 * The watcher in this process, on `time`, with its listener on a loopback port: deliveries are signed
 * here with the webhook secret, so the test decides which arrive, in what order, and with what in them.
 */
export async function watchInProcess(
  sb: TestSandbox,
  token: string,
  options: Partial<WatchOptions> & { desired: readonly DesiredResource[]; time: TimeSource },
): Promise<InProcess> {
  const client = new VigilClient({ baseUrl: sb.url, token, retry: { attempts: 1 } });
  await client.prime();
  const transitions: Record<string, any>[] = [];
  const logs: string[] = [];
  const port = await freePort();
  const watch = await startWatch({
    ops: operations(client),
    clientMetrics: client.metrics,
    store: new MemoryStateStore(),
    records: new MemoryRecords(),
    cadence: { everyMs: 5 * 60_000, fullEveryMs: 60 * 60_000 },
    share: 1,
    listen: { host: "127.0.0.1", port },
    secret: webhookSecret,
    out: (line) => transitions.push(JSON.parse(line)),
    log: (line) => logs.push(line),
    ...options,
  });
  watch.done.catch((error) => logs.push(`done: ${(error as Error).message}`));
  const reads = () => {
    const s = client.metrics.snapshot();
    return (s.byClass.read ?? 0) + (s.byClass.checkRead ?? 0);
  };
  return {
    watch,
    client,
    reads,
    transitions,
    logs,
    deliver: (event, data, occurredAt) => deliver(watch.url!, webhookSecret, event, data, occurredAt),
    async close() {
      await watch.stop();
      await watch.done.catch(() => {});
      await client.close();
    },
  };
}

/** Posts a delivery as the API sends it, signed with `secret`, to the watcher at `url`; answers the status. */
export async function deliver(
  url: string,
  secret: string,
  event: string,
  data: Record<string, unknown>,
  occurredAt = Math.floor(Date.now() / 1000),
): Promise<number> {
  const id = `d_${randomBytes(16).toString("hex")}`;
  const body = JSON.stringify({ id, event, occurredAt, apiVersion: "v2", data });
  const res = await request(`${url}/events`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "SVC-Event": event,
      "SVC-Delivery": id,
      "SVC-Attempt": "1",
      ...signatureHeaders(id, body, [secret], Math.floor(Date.now() / 1000)),
    },
    body,
  });
  await res.body.dump();
  return res.statusCode;
}

/** A monitor the config declares, by name. */
export function monitor(name: string, members: Record<string, unknown> = {}): DesiredResource {
  return {
    address: `monitors.${name}`,
    kind: "monitor",
    members: {
      type: "http",
      url: `https://${name}.example.com/health`,
      name,
      interval: 60,
      locations: { pools: ["allworld"] },
      settings: { timeout: 10000 },
      ...members,
    },
  };
}
