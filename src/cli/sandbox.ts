import { type Command, InvalidArgumentError, Option } from "commander";
import { planNames } from "../sandbox/core/plans.ts";
import { startSandbox } from "../sandbox/index.ts";

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError("a port from 0 to 65535 (0 picks a free one)");
  return n;
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
      new Option("--plan <plan>", "plan tier of the default account").choices(planNames).default("business"),
    )
    .action(async (opts: { host: string; port: number; data?: string; plan: (typeof planNames)[number] }) => {
      const sandbox = await startSandbox({
        host: opts.host,
        port: opts.port,
        dataFile: opts.data,
        plan: opts.plan,
      });
      process.stdout.write(
        `${JSON.stringify({ url: sandbox.url, token: sandbox.token, adminToken: sandbox.adminToken })}\n`,
      );
      const stop = async () => {
        await sandbox.close();
        process.exit(0);
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
