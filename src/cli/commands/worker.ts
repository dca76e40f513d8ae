/**
 * `vigil worker --state postgres://…`: one of any number of processes that run the fleet's jobs
 * (docs/fleet.md). With `--listen`, it serves `POST /events/<account>` (the accounts' signed webhook
 * deliveries, each a drift check at once), `GET /metrics` (per account) and `GET /healthz`.
 */
import { type Command, Option } from "commander";
import Fastify from "fastify";
import { isPostgresUrl } from "../../engine/index.ts";
import { startWorker } from "../../fleet/worker.ts";
import { capConnections, fastifyLimits, serverLimits } from "../../server-limits.ts";
import { cliDuration, parseStateLocation } from "../connection.ts";
import { CliError, describeError } from "../errors.ts";
import { onInterrupt } from "../interrupt.ts";
import { guardOutput, stateUrlPassword } from "../output-guard.ts";
import { parseListen } from "./watch.ts";

interface WorkerFlags {
  state?: string;
  concurrency: string;
  listen?: string;
  lease: string;
  lockTimeout: string;
  scheduleCheck: string;
}

/** The state URL every fleet command needs: PostgreSQL only, since the queue lives there too. */
export function fleetStateUrl(state: string | undefined, command: string): string {
  if (!state || !isPostgresUrl(state))
    throw new CliError(
      `vigil ${command} needs --state postgres://user:password@host:port/db (or VIGIL_STATE): the fleet's queue and states live in PostgreSQL.`,
    );
  for (const password of stateUrlPassword(state)) guardOutput(password);
  return state;
}

function concurrencyOf(text: string): number {
  const n = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= 1 && n <= 1000))
    throw new CliError(`--concurrency takes a whole number from 1 to 1000, not ${JSON.stringify(text)}.`);
  return n;
}

export function registerWorker(program: Command) {
  program
    .command("worker")
    .description("Run the fleet's jobs (applies, plans, drift checks) from the queue in PostgreSQL")
    .addOption(
      new Option("--state <url>", "postgres://user:password@host:port/db[?schema=NAME]")
        .env("VIGIL_STATE")
        .argParser(parseStateLocation),
    )
    .option("--concurrency <n>", "jobs run at once by this worker (never two of one account)", "4")
    .option("--listen <host:port>", "serve POST /events/<account>, GET /metrics and GET /healthz")
    .option(
      "--lease <duration>",
      "the state lock's lease: a worker that stops renewing it loses the account after this",
      "15s",
    )
    .option("--lock-timeout <duration>", "how long a job waits for its account's state lock", "2m")
    .option(
      "--schedule-check <duration>",
      "how often the workers look for due drift checks (watch.every): a check starts up to this late (1s to 45s)",
      "30s",
    )
    .action(async (flags: WorkerFlags) => {
      const stateUrl = fleetStateUrl(flags.state, "worker");
      const concurrency = concurrencyOf(flags.concurrency);
      const listen = flags.listen === undefined ? undefined : parseListen(flags.listen);
      const leaseMs = cliDuration(flags.lease, { name: "--lease", minMs: 2000 });
      const lockTimeoutMs = cliDuration(flags.lockTimeout, { name: "--lock-timeout", zero: "do not wait" });
      const scheduleCheckMs = cliDuration(flags.scheduleCheck, {
        name: "--schedule-check",
        forms: ["units", "seconds"],
        minMs: 1000,
        maxMs: 45_000,
      });
      if (scheduleCheckMs % 1000 !== 0)
        throw new CliError(
          `--schedule-check takes whole seconds (1s to 45s), not ${JSON.stringify(flags.scheduleCheck)}.`,
        );
      const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
      const worker = await startWorker({
        stateUrl,
        concurrency,
        leaseMs,
        lockTimeoutMs,
        scheduleCheckSeconds: scheduleCheckMs / 1000,
        env: process.env,
        describe: describeError,
        log,
      });
      let close = async () => {};
      if (listen) {
        const limits = serverLimits();
        // Deliveries are small (a monitor, a contact), as vigil watch's listener takes them.
        const app = Fastify({ ...fastifyLimits(limits), bodyLimit: 256 * 1024 });
        capConnections(app.server, limits, (refused) =>
          log(`Warning: the listener refused ${refused} connection(s).`),
        );
        // The body stays raw: signatures are over the bytes as received.
        app.removeAllContentTypeParsers();
        app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
        app.post<{ Params: { account: string } }>("/events/:account", async (req, reply) => {
          const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          const answer = await worker.receive(req.params.account, req.headers, raw);
          if (answer.status >= 400)
            log(
              `Refused a delivery for ${JSON.stringify(req.params.account.slice(0, 63))}: ${String(answer.body.message)}`,
            );
          return reply.code(answer.status).send(answer.body);
        });
        app.get("/healthz", async (_req, reply) => {
          const health = worker.healthy();
          return reply.code(health.ok ? 200 : 503).send(health.body);
        });
        app.get("/metrics", async (_req, reply) =>
          reply
            .header("content-type", worker.metrics.registry.contentType)
            .send(await worker.metrics.registry.metrics()),
        );
        const url = await app.listen(listen);
        log(`Listening on ${url}`);
        close = () => app.close();
      }
      log(`Worker ready: ${concurrency} job(s) at once.`);
      await new Promise<void>((done) => {
        const forget = onInterrupt(() => {
          forget();
          log("Stopping: the jobs under way end first.");
          void worker.stop().then(close).finally(done);
        });
        process.once("SIGTERM", () => {
          forget();
          void worker.stop().then(close).finally(done);
        });
      });
    });
}
