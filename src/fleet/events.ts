/**
 * `POST /events/<account>` on a worker's listener: the account's signed webhook deliveries, verified as
 * `vigil watch` verifies them (its `DeliveryVerifier`: both signature schemes, the timestamp's age, replays),
 * each verified one enqueueing a drift check of the account at once. What the check runs is the account's
 * scheduled drift check (`watch` in the fleet file, kept on the queue by `vigil fleet apply`), and the
 * secret is read from this worker's environment, named there: no secret is stored in the queue.
 */
import type { PgBoss } from "pg-boss";
import { DeliveryVerifier } from "../watch/deliveries.ts";
import type { FleetJob } from "./jobs.ts";
import { queueName } from "./queue.ts";

export interface DeliveryAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Deliveries of one account arriving within this many seconds share one drift check. */
const coalesceSeconds = 5;

export class FleetDeliveries {
  readonly #boss: PgBoss;
  readonly #env: NodeJS.ProcessEnv;
  /** One verifier per account and secret, so a replayed delivery id is remembered. */
  readonly #verifiers = new Map<string, { secret: string; verifier: DeliveryVerifier }>();

  constructor(boss: PgBoss, env: NodeJS.ProcessEnv) {
    this.#boss = boss;
    this.#env = env;
  }

  async receive(
    account: string,
    headers: Record<string, string | string[] | undefined>,
    raw: Buffer,
  ): Promise<DeliveryAnswer> {
    const schedule = await this.#boss.getSchedule(queueName, account);
    const job = schedule?.data as FleetJob | undefined;
    if (!job?.webhookSecret)
      return {
        status: 404,
        body: {
          error: "unknown_account",
          message: `account ${JSON.stringify(account.slice(0, 63))} takes no deliveries here: the fleet file gives it no watch.webhookSecret (or vigil fleet apply has not run since)`,
        },
      };
    const secret = this.#env[job.webhookSecret.env];
    if (!secret)
      return {
        status: 503,
        body: {
          error: "no_secret",
          message: `the environment variable ${job.webhookSecret.env}, account ${account}'s webhook secret, is not set on this worker`,
        },
      };
    let entry = this.#verifiers.get(account);
    if (entry?.secret !== secret) {
      entry = { secret, verifier: new DeliveryVerifier({ secret }) };
      this.#verifiers.set(account, entry);
    }
    const verdict = entry.verifier.verify(headers, raw);
    if (!verdict.ok) {
      // A replay is answered 200: the sender's retry of a delivery already acted on must stop.
      if (verdict.reason === "replayed") return { status: 200, body: { status: "duplicate" } };
      return {
        status: verdict.reason === "malformed" ? 400 : 401,
        body: { error: verdict.reason, message: verdict.message },
      };
    }
    await this.#boss.send(
      queueName,
      { ...job, action: "refresh" },
      { singletonKey: account, singletonSeconds: coalesceSeconds },
    );
    return { status: 202, body: { status: "accepted" } };
  }
}
