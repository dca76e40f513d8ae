#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
import { Command } from "commander";
import { endQuietlyWhenOutputCloses } from "./closed-output.ts";
import { registerApply } from "./commands/apply.ts";
import { registerExport } from "./commands/export.ts";
import { registerOutput } from "./commands/output.ts";
import { registerPlan } from "./commands/plan.ts";
import { registerState } from "./commands/state.ts";
import { registerValidate } from "./commands/validate.ts";
import { registerWatch } from "./commands/watch.ts";
import { describeError, exitCodes } from "./errors.ts";
import { registerSandboxCommand } from "./sandbox.ts";
import { registerVersion } from "./version.ts";

// Before anything prints: a reader that goes away (`| head -1`) ends the command quietly, exit 0.
endQuietlyWhenOutputCloses();

const program = new Command("vigil")
  .description("Infrastructure as code for the Monitoring Service REST API v2")
  .showHelpAfterError();
registerVersion(program);
registerValidate(program);
registerPlan(program);
registerApply(program);
registerExport(program);
registerState(program);
registerWatch(program);
registerOutput(program);
registerSandboxCommand(program);

try {
  await program.parseAsync();
} catch (error) {
  process.stderr.write(`Error: ${describeError(error)}\n`);
  process.exitCode = exitCodes.error;
}
