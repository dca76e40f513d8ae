import { type Command, InvalidArgumentError, Option } from "commander";
import { planNames } from "../sandbox/core/plans.ts";
import type { RunningSandbox } from "../sandbox/index.ts";
import { whenOutputCloses } from "./closed-output.ts";
import { onInterrupt } from "./interrupt.ts";

function port(value: string): number {
  // Digits only: Number("") is 0 and Number("1e3") is 1000, neither of which the user meant.
  const n = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError("a port from 0 to 65535 (0 picks a free one)");
  return n;
}

/** `--max-connections`: a positive whole number. */
function maxConnections(value: string): number {
  const n = /^\d{1,7}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError("a whole number of connections, at least 1 (default 512)");
  return n;
}

/** Start-up failures the user can act on, as one line instead of a stack trace. */
function explain(error: unknown, opts: { host: string; port: number; data?: string }): string | undefined {
  const code = (error as { code?: string }).code;
  if (code === "EADDRINUSE") return `port ${opts.port} on ${opts.host} is in use.`;
  if (code === "EADDRNOTAVAIL") return `${opts.host} is not an address of this machine.`;
  if (code === "EACCES") return `no permission to listen on port ${opts.port}.`;
  if (code === "VIGIL_DATA_FILE_LOCKED") return `the data file ${opts.data} is in use by another sandbox.`;
  if (code === "VIGIL_DATA_FILE_UNUSABLE") return (error as Error).message;
  return undefined;
}

/** How much longer than the sandbox's own grace a stop may take before the process exits regardless. */
const stopMarginMs = 2000;

interface SandboxCommandOptions {
  host: string;
  port: number;
  data?: string;
  plan: (typeof planNames)[number];
  allowInsecureWebhooks: boolean;
  maxConnections?: number;
}

/** `vigil sandbox`: runs the reference backend; its first stdout line is `{url, token, adminToken}`. */
export function registerSandboxCommand(program: Command) {
  program
    .command("sandbox")
    .description("Run the sandbox: a faithful local implementation of API v2")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on (0 picks a free one)", port, 0)
    .option("--data <file>", "SQLite file that keeps state across restarts")
    .addOption(
      new Option("--plan <plan>", "plan tier of the default account (when the data file is new)")
        .choices(planNames)
        .default("business"),
    )
    .option(
      "--allow-insecure-webhooks",
      "let webhooks deliver over plain http to loopback addresses (local tests only)",
      false,
    )
    .option(
      "--max-connections <n>",
      "connections open at once at most; more are closed as they arrive (default 512)",
      maxConnections,
    )
    .action(async (opts: SandboxCommandOptions) => {
      let sandbox: RunningSandbox;
      // Loaded only for this command: every other command starts faster without it.
      const { startSandbox, shutdownGraceMs } = await import("../sandbox/index.ts");
      try {
        sandbox = await startSandbox({
          host: opts.host,
          port: opts.port,
          dataFile: opts.data,
          plan: opts.plan,
          allowInsecureWebhooks: opts.allowInsecureWebhooks,
          ...(opts.maxConnections !== undefined && { limits: { maxConnections: opts.maxConnections } }),
          onWarning: (message) => process.stderr.write(`vigil sandbox: warning: ${message}\n`),
        });
      } catch (error) {
        const reason = explain(error, opts);
        if (!reason) throw error;
        process.stderr.write(`vigil sandbox: ${reason}\n`);
        process.exit(1);
      }
      process.stdout.write(
        `${JSON.stringify({ url: sandbox.url, token: sandbox.token, adminToken: sandbox.adminToken })}\n`,
      );
      // Close the server and the data file, then exit 0: a clean stop on Ctrl-C or a service manager's TERM.
      // `close` cuts off what still runs after its grace; a second signal, or a close that still has not
      // returned a little later, exits at once (every acknowledged write is already in the data file).
      let stopping = false;
      const stop = async (signal: NodeJS.Signals) => {
        if (stopping) {
          process.stderr.write(`vigil sandbox: ${signal} again: exiting without waiting.\n`);
          process.exit(1);
        }
        stopping = true;
        setTimeout(() => {
          process.stderr.write(
            `vigil sandbox: still stopping ${shutdownGraceMs + stopMarginMs} ms after ${signal}: exiting without waiting.\n`,
          );
          process.exit(1);
        }, shutdownGraceMs + stopMarginMs).unref();
        await sandbox.close();
        process.exit(0);
      };
      // Ctrl+C reaches it through the CLI's rule (interrupt.ts), which leaves the stop to it.
      onInterrupt(() => void stop("SIGINT"));
      process.on("SIGTERM", stop);
      // Stopped the same way when its output closes (`vigil sandbox 2>&1 | head -1`).
      whenOutputCloses(() => void stop("SIGPIPE"));
    });
}
