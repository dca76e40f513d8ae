/** The `vigil` command line: the program with the commands a run needs (command-modules.ts), run once. */
import { Command } from "commander";
import { endQuietlyWhenOutputCloses } from "./closed-output.ts";
import { modulesFor } from "./command-modules.ts";
import { handleInterrupts } from "./interrupt.ts";
import { registerVersion } from "./version.ts";

async function parse(args: readonly string[]) {
  const program = new Command("vigil")
    .description("Infrastructure as code for the Monitoring Service REST API v2")
    .showHelpAfterError();
  registerVersion(program);
  const modules = modulesFor(args);
  // Before a command can print: every write to stdout and stderr passes the run's secrets
  // (output-guard.ts). `--version` loads no command, and prints none.
  if (modules.length > 0) (await import("./output-guard.ts")).guardOutput();
  const registers = await Promise.all(modules.map((module) => module.load()));
  for (const register of registers) register(program);
  await program.parseAsync([...args], { from: "user" });
}

/** Runs `args` (the arguments after the program's name); a failure is printed, and sets the exit code. */
export async function runCli(args: readonly string[]): Promise<void> {
  // Before anything prints: a reader that goes away (`| head -1`) ends the command quietly, exit 0.
  endQuietlyWhenOutputCloses();
  // Ctrl+C ends a command with one line and exit 130, never a stack trace (interrupt.ts).
  handleInterrupts();
  try {
    await parse(args);
  } catch (error) {
    const { describeError, exitCodes } = await import("./errors.ts");
    process.stderr.write(`Error: ${describeError(error)}\n`);
    process.exitCode = exitCodes.error;
  }
}
