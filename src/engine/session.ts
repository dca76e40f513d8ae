/**
 * The session of a provider process (Terraform, Pulumi): the frontends that keep the state themselves and
 * write one object per host call share one client, the ids they created, and batched reads and writes.
 */
import { bursts, openApiSession } from "../api/index.ts";
import type { CreateSession } from "./apply/object.ts";
import { BatchedReads } from "./batched-reads.ts";
import { BatchedWrites } from "./batched-writes.ts";

/** What the resources of one provider process share: one client (so one pacer), and the ids they created. */
export interface ObjectSession extends CreateSession {
  /** Reads of single objects, answered together by a listing when many arrive at once. */
  reads: BatchedReads;
  /** Writes of single objects, sent together as one bulk request when many arrive at once. */
  writes: BatchedWrites;
}

export interface SessionOptions {
  /** Prefix of the idempotency keys of batched writes: the frontend's. */
  keyPrefix: string;
  /** False: every write takes its single-object route (`VIGIL_BATCH_WRITES=off`). */
  batchWrites?: boolean;
}

/**
 * The session of a provider process: one client for the whole run, so every resource's calls share its pacing
 * under the account's quota, with the replays it sees and its batched reads.
 */
export function openSession(endpoint: string, token: string, options: SessionOptions): ObjectSession {
  const { ops, replayed } = openApiSession({ baseUrl: endpoint, token, burst: bursts.provider });
  const session = {
    ops,
    created: new Set<string>(),
    replayed,
    reads: new BatchedReads(ops),
  };
  const writes = new BatchedWrites(session, {
    keyPrefix: options.keyPrefix,
    ...(options.batchWrites === false && { enabled: false }),
  });
  return Object.assign(session, { writes });
}

/** Whether the environment switches batched writes off (`VIGIL_BATCH_WRITES=off`, `0` or `false`). */
export function batchWritesFrom(env: NodeJS.ProcessEnv): boolean {
  return !["off", "0", "false"].includes((env.VIGIL_BATCH_WRITES ?? "").trim().toLowerCase());
}
