#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
import { Command } from "commander";
import { registerSandboxCommand } from "./sandbox.ts";

const program = new Command("vigil").description(
  "Infrastructure as code for the Monitoring Service REST API v2",
);
registerSandboxCommand(program);
await program.parseAsync();
