import { AccountCheckError, type Diagnostic, PlanError } from "../engine/index.ts";
import { formatDiagnostic, type LoadDiagnostic, type LoadedConfig, loadConfig } from "../gitops/load.ts";
import { CliError } from "./errors.ts";
import { guardOutput } from "./output-guard.ts";

/** The config at `paths` (the current directory by default), or a CliError after printing every problem. */
export async function loadOrFail(paths: readonly string[]): Promise<LoadedConfig> {
  const config = await loadConfig(paths.length > 0 ? paths : ["."]);
  guardOutput(config.secrets);
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
  guardOutput(config.secrets);
  failOn(config.diagnostics.filter((d) => d.address === undefined));
  return config.resources.map((r) => r.address);
}

function failOn(diagnostics: readonly LoadDiagnostic[]): void {
  if (diagnostics.length === 0) return;
  for (const d of diagnostics) process.stderr.write(`Error: ${formatDiagnostic(d)}\n`);
  const n = diagnostics.length;
  throw new CliError(`${n} problem${n === 1 ? "" : "s"} in the configuration; nothing was sent to the API.`);
}

/** Engine diagnostics found after loading (a plan's account checks), at their file:line:column. */
export function accountCheckLines(
  config: LoadedConfig | undefined,
  diagnostics: readonly Diagnostic[],
): string[] {
  return diagnostics.map((d) =>
    formatDiagnostic({
      ...(config?.locate?.(d.address, d.pointer) ?? {}),
      address: d.address,
      message: d.message,
    }),
  );
}

/** A warning of the account checks, at its file:line:column, as the plan shows it. */
export function describeAccountWarning(config: LoadedConfig | undefined): (warning: Diagnostic) => string {
  return (warning) => accountCheckLines(config, [warning])[0]!;
}

/**
 * A plan the account would refuse: every refusal at its file:line:column, then one CliError (exit 1). A plan
 * with problems of its own may carry the account's refusals too: both are said, in one run.
 */
export function failOnAccountCheck(config: LoadedConfig | undefined, error: unknown): never {
  const check = error instanceof PlanError ? error.accountCheck : error;
  if (!(check instanceof AccountCheckError)) throw error;
  for (const line of accountCheckLines(config, check.warnings)) process.stderr.write(`Warning: ${line}\n`);
  for (const line of accountCheckLines(config, check.diagnostics)) process.stderr.write(`Error: ${line}\n`);
  const n = check.diagnostics.length;
  const refused = `${n === 1 ? "this write" : `${n} writes`} of the plan`;
  if (error instanceof PlanError)
    throw new CliError(
      `${error.message}\nThe account would also refuse ${refused} (above); nothing was sent to the API.`,
    );
  throw new CliError(`The account would refuse ${refused}; nothing was sent to the API.`);
}
