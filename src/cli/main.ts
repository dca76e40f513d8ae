#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
import { Command } from "commander";
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

// No top-level await: the single-executable binary runs this file bundled as CommonJS.
program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`Error: ${describeError(error)}\n`);
  process.exitCode = exitCodes.error;
});
