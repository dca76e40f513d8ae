/**
 * `vigil output [ADDRESS [MEMBER]]`: the credentials the service generated (a webhook's secret when the
 * config sets none), from the outputs file apply keeps. Masked unless `--show-secrets`, so a CI log never
 * holds one by accident. No API calls.
 */
import type { Command } from "commander";
import { chooseSandboxState, localStateBase, readSavedState, statePath } from "../connection.ts";
import { CliError } from "../errors.ts";
import { type OutputEntry, outputsPath, readOutputs } from "../outputs.ts";

interface OutputOptions {
  state?: string;
  workspace: string;
  sandbox: boolean;
  showSecrets: boolean;
  json: boolean;
}

const masked = "(sensitive)";

export function registerOutput(program: Command) {
  program
    .command("output")
    .description("Show credentials the service generated at apply (masked unless --show-secrets)")
    .argument("[address]", "only this address, e.g. webhooks.change-log")
    .argument("[member]", "only this member (e.g. secret); with --show-secrets, prints the bare value")
    .option("--show-secrets", "print the values themselves", false)
    .option("--json", "print JSON", false)
    .option(
      "--state <file-or-url>",
      `the state the outputs belong to: a file (default: ${statePath({})}), or a postgres:// URL, whose outputs stay in ${outputsPath(localStateBase({ state: "postgres://" }))}`,
    )
    .option("--workspace <name>", "the workspace the outputs belong to", "default")
    .option("--sandbox", `the embedded sandbox's outputs (beside ${statePath({ sandbox: true })})`, false)
    .action(async (address: string | undefined, member: string | undefined, options: OutputOptions) => {
      chooseSandboxState(options);
      const path = outputsPath(localStateBase(options));
      const { outputs } = await readOutputs(path);
      const entries = Object.entries(outputs).filter(([a]) => address === undefined || a === address);
      if (address !== undefined && entries.length === 0)
        throw new CliError(
          `${address} has no outputs in ${path}: only credentials the service generated at apply are kept there.`,
        );
      const shown = (value: string) => (options.showSecrets ? value : masked);
      const values = (entry: OutputEntry) =>
        Object.entries(entry.values).filter(([m]) => member === undefined || m === member);
      if (member !== undefined && entries.every(([, e]) => values(e).length === 0))
        throw new CliError(`${address} has no output ${member} in ${path}.`);

      // A bare value, for a pipe into a secret store.
      if (member !== undefined && options.showSecrets && !options.json) {
        process.stdout.write(`${values(entries[0]![1])[0]![1]}\n`);
        return;
      }
      const managed = (await readSavedState(options, "output"))?.resources ?? {};
      const current = (a: string, e: OutputEntry) => managed[a]?.id === e.id;
      if (options.json) {
        const out = Object.fromEntries(
          entries.map(([a, e]) => [
            a,
            {
              kind: e.kind,
              id: e.id,
              generatedAt: e.generatedAt,
              managed: current(a, e),
              values: Object.fromEntries(values(e).map(([m, v]) => [m, shown(v)])),
            },
          ]),
        );
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        return;
      }
      if (entries.length === 0) {
        process.stdout.write(
          `No outputs: the service has generated no credential for this state (${path}).\n`,
        );
        return;
      }
      for (const [a, e] of entries.sort(([x], [y]) => (x < y ? -1 : 1))) {
        const note = current(a, e) ? "" : "  (no longer managed: the state holds another object or none)";
        for (const [m, v] of values(e))
          process.stdout.write(
            `${a} ${m}: ${shown(v)}  (${e.kind} ${e.id}, generated ${e.generatedAt})${note}\n`,
          );
      }
      if (!options.showSecrets) process.stdout.write("Values are hidden; --show-secrets prints them.\n");
    });
}
