import { formatDiagnostic, type LoadDiagnostic, type LoadedConfig, loadConfig } from "../gitops/load.ts";
import { CliError } from "./errors.ts";

/** The config at `paths` (the current directory by default), or a CliError after printing every problem. */
export async function loadOrFail(paths: readonly string[]): Promise<LoadedConfig> {
  const config = await loadConfig(paths.length > 0 ? paths : ["."]);
  failOn(config.diagnostics);
  return config;
}

/**
 * The addresses the files at `paths` declare. Only the files themselves must
 * be sound (YAML, names): their members and references do not matter to a
 * command that creates nothing, and they may point into files not given.
 */
export async function loadAddresses(paths: readonly string[]): Promise<string[]> {
  const config = await loadConfig(paths);
  failOn(config.diagnostics.filter((d) => d.address === undefined));
  return config.resources.map((r) => r.address);
}

function failOn(diagnostics: readonly LoadDiagnostic[]): void {
  if (diagnostics.length === 0) return;
  for (const d of diagnostics) process.stderr.write(`Error: ${formatDiagnostic(d)}\n`);
  const n = diagnostics.length;
  throw new CliError(`${n} problem${n === 1 ? "" : "s"} in the configuration; nothing was sent to the API.`);
}
