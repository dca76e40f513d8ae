#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
import module from "node:module";
import { Command } from "commander";
import { modulesFor } from "./command-modules.ts";
import { registerVersion } from "./version.ts";

// Node keeps the compiled code of the commands between runs (in the OS temp dir): an installed package
// starts without compiling them again. (A single executable carries its code cache.)
module.enableCompileCache?.();

async function main(args: readonly string[]) {
  const program = new Command("vigil")
    .description("Infrastructure as code for the Monitoring Service REST API v2")
    .showHelpAfterError();
  registerVersion(program);
  const registers = await Promise.all(modulesFor(args).map((module) => module.load()));
  for (const register of registers) register(program);
  await program.parseAsync();
}

// No top-level await: the single-executable binary runs this file bundled as CommonJS.
main(process.argv.slice(2)).catch(async (error: unknown) => {
  const { describeError, exitCodes } = await import("./errors.ts");
  process.stderr.write(`Error: ${describeError(error)}\n`);
  process.exitCode = exitCodes.error;
});
