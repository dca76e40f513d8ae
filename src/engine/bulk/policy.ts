/**
 * When a bulk request pays for itself: the fewest writes each form of request must carry, below which the
 * writes take their single routes. One table for every route and both callers.
 */
export interface BulkPolicy {
  /**
   * A job (`POST /monitor/bulk`, `/contact/bulk`...) is one write, a pause of a second or more, and a poll.
   * Apply has its whole plan in hand and sends single calls four at a time: from three objects on, a job
   * makes fewer calls. A provider's writes are host calls already waiting for each other: from two on, a
   * job saves a write, the quota that runs out first (30 a minute where reads are 60).
   */
  job: number;
  /**
   * The two-phase delete is two writes (`bulk-delete-validate`, then `bulk-delete`) and a poll: two objects'
   * single deletes cost as much, with no job.
   */
  twoPhaseDelete: number;
  /** A subscription transaction (`POST /alert/bulk`) is one write answered at once: two objects save a call. */
  transaction: number;
}

/** The CLI's apply. */
export const applyPolicy: BulkPolicy = { job: 3, twoPhaseDelete: 3, transaction: 2 };

/** The providers' batched writes. */
export const batchPolicy: BulkPolicy = { ...applyPolicy, job: 2 };
