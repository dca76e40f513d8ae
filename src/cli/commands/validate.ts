import type { Command } from "commander";
import { loadOrFail } from "../config.ts";

/** What validate cannot judge offline: the checks against the account (docs/engine.md, "Account checks"). */
const planOnly =
  "Note: only a plan checks the configuration against the account: intervals and type floors, plan features, pools, monitor and other counts, inline contacts and contact channels.\n";

export function registerValidate(program: Command) {
  program
    .command("validate")
    .description("Check the configuration without calling the API")
    .argument("[paths...]", "files or directories of *.yaml/*.yml (default: the current directory)")
    .action(async (paths: string[]) => {
      const config = await loadOrFail(paths);
      const files = config.files.length;
      // A note, on stderr: stdout stays the one line scripts read.
      process.stderr.write(planOnly);
      process.stdout.write(
        `The configuration is valid: ${config.resources.length} resources in ${files} file${files === 1 ? "" : "s"}.\n`,
      );
    });
}
