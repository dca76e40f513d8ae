import { formatDiagnostic, type LoadedConfig, loadConfig } from "../gitops/load.ts";
import { CliError } from "./errors.ts";

/** The config at `paths` (the current directory by default), or a CliError after printing every problem. */
export async function loadOrFail(paths: readonly string[]): Promise<LoadedConfig> {
  const config = await loadConfig(paths.length > 0 ? paths : ["."]);
  if (config.diagnostics.length === 0) return config;
  for (const d of config.diagnostics) process.stderr.write(`Error: ${formatDiagnostic(d)}\n`);
  const n = config.diagnostics.length;
  throw new CliError(`${n} problem${n === 1 ? "" : "s"} in the configuration; nothing was sent to the API.`);
}
