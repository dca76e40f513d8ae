/**
 * A caller of the bulk engine for its unit tests, in the place of apply's journal or the providers' waiting
 * host calls: it records the requests it sends, each write's outcome and the writes sent alone.
 */
import type { JobOutcome, JobResultRow } from "../../../src/api/index.ts";
import type { BulkPolicy } from "../../../src/engine/bulk/policy.ts";
import type { BulkContext, BulkDelete, BulkWrite, ItemOutcome } from "../../../src/engine/bulk/route.ts";
import { engineKind, type Row } from "../../../src/engine/index.ts";

export interface Recording {
  ctx: BulkContext;
  /** `send <label> <writes>` per request, in order. */
  sent: string[];
  outcomes: Map<BulkWrite, ItemOutcome>;
  alone: BulkWrite[];
}

export function recording(options: {
  policy: BulkPolicy;
  maxItems?: number;
  complete?: readonly Row[];
  reads?: boolean;
  /** The operations a route calls itself (a subscription transaction's). */
  ops?: unknown;
}): Recording {
  const sent: string[] = [];
  const outcomes = new Map<BulkWrite, ItemOutcome>();
  const alone: BulkWrite[] = [];
  const ctx: BulkContext = {
    ops: (options.ops ?? {}) as BulkContext["ops"],
    policy: options.policy,
    maxItems: async () => options.maxItems ?? 1000,
    order: (writes) => [...writes],
    complete: () => options.complete,
    reads: options.reads ?? false,
    keyFor: (label, writes) => `${label} ${writes.length}`,
    async send(request, writes, _bodies, call) {
      sent.push(`send ${request.label} ${writes.length}`);
      try {
        return {
          answer: await call({ idempotencyKey: `${request.label} ${writes.length}` }),
          replayed: false,
        };
      } catch (error) {
        return { error };
      }
    },
    async settle(settled) {
      for (const { write, outcome } of settled) outcomes.set(write, outcome);
    },
    async single(writes) {
      alone.push(...writes);
    },
  };
  return { ctx, sent, outcomes, alone };
}

export const monitorKind = engineKind("monitor");

export const deletesOf = (ids: readonly string[]): BulkDelete[] =>
  ids.map((id) => ({
    op: "delete",
    kind: monitorKind,
    live: { id, type: "http", url: `https://${id}.example.com/` },
  }));

/** A finished job's outcome with these rows. */
export const jobOf = (rows: JobResultRow[]): JobOutcome => ({
  job: { id: "job-1", state: "succeeded" },
  rows,
  ok: [],
  failures: [],
  cancelled: [],
});
