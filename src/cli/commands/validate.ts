import type { Command } from "commander";
import { loadOrFail } from "../config.ts";

export function registerValidate(program: Command) {
  program
    .command("validate")
    .description("Check the configuration without calling the API")
    .argument("[paths...]", "files or directories of *.yaml/*.yml (default: the current directory)")
    .action(async (paths: string[]) => {
      const config = await loadOrFail(paths);
      const files = config.files.length;
      process.stdout.write(
        `The configuration is valid: ${config.resources.length} resources in ${files} file${files === 1 ? "" : "s"}.\n`,
      );
    });
}
