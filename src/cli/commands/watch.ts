import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { type Command, Option } from "commander";
import { realTime } from "../../api/index.ts";
import { isPostgresUrl } from "../../engine/index.ts";
import { formatDiagnostic, loadConfig } from "../../gitops/load.ts";
import { SharePacer } from "../../watch/budget.ts";
import { RecordFile } from "../../watch/record.ts";
import type { RunningWatch } from "../../watch/run.ts";
import { whenOutputCloses } from "../closed-output.ts";
import { loadOrFail } from "../config.ts";
import {
  type ConnectionOptions,
  cliDuration,
  connect,
  localStateBase,
  type StateOptions,
  statePath,
  stateStore,
  vigilDir,
} from "../connection.ts";
import { CliError } from "../errors.ts";
import { exitCodes } from "../exit-codes.ts";
import { exitAtOnce, onInterrupt } from "../interrupt.ts";
import { redactOutput } from "../output-guard.ts";
import { withConnectionOptions } from "./shared.ts";

export interface WatchCliOptions extends ConnectionOptions {
  listen?: string;
  webhookSecretEnv?: string;
  every: string;
  fullEvery: string;
  readBudget: string;
  notify?: string;
  notifyFormat: "json" | "slack";
  heal: boolean;
  healDeletes: boolean;
  maxConnections?: string;
}

/** `HOST:PORT` (`[::1]:9000` for IPv6) → its parts. */
function parseListen(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (!match || port > 65535)
    throw new CliError(
      `--listen takes HOST:PORT (127.0.0.1:9100, 0.0.0.0:9100, [::1]:9100), not ${JSON.stringify(text)}.`,
    );
  return { host: match[1] ?? match[2]!, port };
}

/** `--max-connections`: a whole number, at least 1. */
function connectionCap(text: string): number {
  const n = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= 1))
    throw new CliError(
      `--max-connections takes a whole number of connections, at least 1, not ${JSON.stringify(text)}.`,
    );
  return n;
}

/** A cadence: at least a second (a shorter one would spend the read budget on nothing new). */
function duration(flag: string, text: string): number {
  return cliDuration(text, { name: flag, minMs: 1000 });
}

/**
 * What names a PostgreSQL state: the server, the database, the schema and the workspace. The user and the
 * password are left out: the password must never reach a file name, not even digested. A password written
 * without percent-encoding may hold `/`, `?` or `#`, so the server is what follows the last `@`.
 */
function postgresStateName(url: string, workspace: string): string {
  const rest = url.replace(/^postgres(?:ql)?:\/\//i, "");
  const server = rest.slice(rest.lastIndexOf("@") + 1);
  try {
    const parsed = new URL(`pg://${server}`);
    const query = parsed.searchParams;
    return JSON.stringify([
      decodeURIComponent(parsed.hostname),
      parsed.port || "5432",
      query.get("host") ?? "",
      decodeURIComponent(parsed.pathname.slice(1)),
      query.get("schema") ?? "vigil",
      workspace,
    ]);
  } catch {
    return JSON.stringify([server.replace(/([?&]password=)[^&#]*/gi, "$1"), workspace]);
  }
}

/**
 * Where the watcher keeps its record (docs/watch.md, "Lifecycle"): beside the state file; for a PostgreSQL
 * state, in `.vigil/` under a digest of the database, schema and workspace, so watchers of two such states
 * in one directory never share one. `former`: where vigil kept it before, read once when the file is new.
 */
export function watchRecordPath(options: StateOptions): { path: string; former?: string } {
  const where = statePath(options);
  const beside = `${resolve(localStateBase(options))}.watch.json`;
  if (!isPostgresUrl(where)) return { path: beside };
  const digest = createHash("sha256")
    .update(postgresStateName(where, options.workspace ?? "default"))
    .digest("hex")
    .slice(0, 16);
  return { path: resolve(vigilDir, `postgres-state.${digest}.watch.json`), former: beside };
}

/** The configuration read again, for a watcher that finds the state was applied with another one. */
async function reloadConfig(paths: readonly string[]) {
  const config = await loadConfig(paths.length > 0 ? paths : ["."]);
  const [first] = config.diagnostics;
  if (first) {
    const n = config.diagnostics.length;
    throw new Error(
      `${n} problem${n === 1 ? "" : "s"} in the configuration, the first: ${formatDiagnostic(first)}`,
    );
  }
  return config.resources;
}

export function registerWatch(program: Command) {
  withConnectionOptions(
    program
      .command("watch")
      .description("Watch the account for drift from the configuration, continuously")
      .argument("[paths...]", "files or directories of *.yaml/*.yml (default: the current directory)")
      .option("--listen <host:port>", "serve POST /events, GET /metrics and GET /healthz")
      .option("--webhook-secret-env <name>", "environment variable holding the webhook's signing secret")
      .option(
        "--max-connections <n>",
        "connections the listener holds open at once at most; more are closed as they arrive (default 512)",
      )
      .option("--every <duration>", "delta sync cadence", "5m")
      .option("--full-every <duration>", "full refresh cadence (stretched to fit the read budget)", "1h")
      .option("--read-budget <percent>", "share of the account's read quota to spend at most", "10")
      .option("--notify <url>", "post each transition to this URL")
      .addOption(
        new Option(
          "--notify-format <format>",
          "json, or slack (text Slack and Teams incoming webhooks accept)",
        )
          .choices(["json", "slack"])
          .default("json"),
      )
      .option("--heal", "apply the plan of drifted resources (never deletes)", false)
      .option("--heal-deletes", "let --heal delete (a replace)", false),
  ).action(runWatch);
}

/** The watcher's flags, each checked before anything is read or sent. */
export function watchFlags(options: WatchCliOptions, env: NodeJS.ProcessEnv) {
  const listen = options.listen === undefined ? undefined : parseListen(options.listen);
  const maxConnections =
    options.maxConnections === undefined ? undefined : connectionCap(options.maxConnections);
  if (maxConnections !== undefined && !listen) throw new CliError("--max-connections needs --listen.");
  const cadence = {
    everyMs: duration("--every", options.every),
    fullEveryMs: duration("--full-every", options.fullEvery),
  };
  const percent = Number(options.readBudget);
  if (!Number.isFinite(percent) || percent <= 0 || percent > 100)
    throw new CliError(
      `--read-budget takes a percentage above 0 and at most 100, not ${JSON.stringify(options.readBudget)}.`,
    );
  if (options.healDeletes && !options.heal) throw new CliError("--heal-deletes needs --heal.");
  let secret: string | undefined;
  if (options.webhookSecretEnv !== undefined) {
    if (!listen)
      throw new CliError("--webhook-secret-env needs --listen: deliveries arrive on POST /events.");
    secret = env[options.webhookSecretEnv];
    if (!secret)
      throw new CliError(
        `--webhook-secret-env names ${options.webhookSecretEnv}, which is not set (or empty).`,
      );
  }
  if (options.notify !== undefined && !/^https?:\/\/[^/]/.test(options.notify))
    throw new CliError(`--notify takes an http(s) URL, not ${JSON.stringify(options.notify)}.`);
  return { listen, maxConnections, cadence, share: percent / 100, secret };
}

async function runWatch(paths: string[], options: WatchCliOptions): Promise<void> {
  const { listen, maxConnections, cadence, share, secret } = watchFlags(options, process.env);
  const config = await loadOrFail(paths);
  options.configPaths = paths;
  // The watcher's server and metrics (fastify, prom-client, OpenTelemetry) load only when a watch starts
  // (before it opens anything that would need closing), so every other command starts without them.
  const { startWatch } = await import("../../watch/run.ts");
  // At the account's pace (a plan's) until the first refresh is over, then at the share.
  const pacer = new SharePacer(share, realTime);
  const connection = await connect(options, process.env, pacer);
  const store = await stateStore(options, "watch");
  const record = watchRecordPath(options);
  // The connection and the state's store (a database pool with PostgreSQL), closed together.
  const close = async () => {
    await connection.close();
    await store.close();
  };
  const watch = await startWatch({
    ops: connection.ops,
    clientMetrics: connection.client.metrics,
    store,
    records: new RecordFile(record.path, record.former),
    desired: config.resources,
    reloadConfig: () => reloadConfig(paths),
    cadence,
    share,
    pacing: pacer,
    ...(listen && {
      listen: { ...listen, ...(maxConnections !== undefined && { limits: { maxConnections } }) },
    }),
    ...(secret !== undefined && { secret }),
    ...(options.notify && {
      notify: { url: options.notify, format: options.notifyFormat, redact: redactOutput },
    }),
    ...(options.heal && { heal: { deletes: options.healDeletes } }),
    out: (line) => process.stdout.write(`${line}\n`),
    log: (line) => process.stderr.write(`${line}\n`),
  }).catch(async (error) => {
    await close();
    throw error;
  });
  await untilStopped(watch, close);
}

/**
 * Runs until the watcher ends or is asked to stop. SIGTERM ends it within 5 s: what it reported is already
 * saved, so cutting a refresh short loses nothing.
 */
async function untilStopped(
  watch: Pick<RunningWatch, "done" | "stop">,
  close: () => Promise<void>,
): Promise<void> {
  const stopped = new Promise<void>((done) => {
    let stopping = false;
    const onSignal = (why: string) => {
      // A signal and a closed output may both come: the watcher stops once.
      if (stopping) return;
      stopping = true;
      process.stderr.write(`${why}: stopping.\n`);
      setTimeout(() => process.exit(), 4500).unref();
      void watch.stop().then(close).finally(done);
    };
    process.once("SIGTERM", onSignal);
    // Ctrl+C (SIGINT) too, then exits 130 as a shell reports an interrupted command; a second one at once.
    onInterrupt(() => {
      if (stopping) exitAtOnce();
      process.exitCode = exitCodes.interrupted;
      onSignal("SIGINT");
    });
    // Its reader gone (`vigil watch | head -3`), the watcher stops as on SIGTERM, then exits 0.
    whenOutputCloses(() => onSignal("output closed"));
  });
  try {
    await Promise.race([watch.done, stopped]);
  } catch (error) {
    await watch.stop();
    await close();
    throw error;
  }
  await stopped;
}
