/**
 * Real Terraform against the vigil provider: a workspace with its own filesystem mirror (in a temporary
 * folder, of the provider the tests run: test/helpers/programs.ts) and its own CLI configuration, so nothing
 * depends on the machine's ~/.terraformrc or TF_CLI_CONFIG_FILE (CI points that at a file that does not exist).
 */
import { execFileSync, spawn } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { cliConfig, mirrorOfProgram, mirrorOfZip } from "../../tools/terraform/build.ts";
import { programFile } from "./programs.ts";

/** The version of `terraform` on PATH, or undefined when there is none that runs. */
function detectTerraform(): string | undefined {
  try {
    const out = execFileSync("terraform", ["version", "-json"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 20_000,
    });
    return (JSON.parse(out) as { terraform_version: string }).terraform_version;
  } catch {
    return undefined;
  }
}

export const terraformVersion = detectTerraform();

export interface TerraformRun {
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What a failed command printed, for the assertion message. */
export const described = (run: TerraformRun) =>
  `terraform ${run.args.join(" ")} exited ${run.code}\n${run.stdout}\n${run.stderr}`;

export interface Workspace {
  /** The temporary folder: the mirror, the CLI config, and the working copies. */
  root: string;
  /** The environment of every run; a change applies to the runs after it. */
  env: NodeJS.ProcessEnv;
  /** Copies a folder of Terraform files into the workspace; answers the copy's path. */
  copy(from: string, name: string): Promise<string>;
  /** Runs terraform in `cwd` without prompts; its output without colour codes; never throws on an exit code. */
  run(cwd: string, ...args: string[]): Promise<TerraformRun>;
  /** Runs terraform and throws, with its output, unless it exits 0. */
  ok(cwd: string, ...args: string[]): Promise<TerraformRun>;
  remove(): Promise<void>;
}

/**
 * `vars` become TF_VAR_ variables; `env` adds to the environment (VIGIL_ENDPOINT, VIGIL_TOKEN); `zip`: the
 * mirror holds that release zip, else the provider the tests run (no release build after each change).
 */
export async function terraformWorkspace(
  options: { env?: Record<string, string>; vars?: Record<string, string>; zip?: string } = {},
): Promise<Workspace> {
  const root = await mkdtemp(join(tmpdir(), "vigil-terraform-"));
  const { mirror } = options.zip
    ? await mirrorOfZip(options.zip, join(root, "mirror"))
    : await mirrorOfProgram(join(root, "mirror"), programFile("terraform-provider-vigil"));
  const configFile = join(root, "terraform.tfrc");
  await writeFile(configFile, cliConfig(mirror));
  // Nothing of the caller's Terraform settings leaks in (TF_PLUGIN_CACHE_DIR, TF_LOG, TF_CLI_ARGS, ...).
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("TF_")),
  );
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    TF_CLI_CONFIG_FILE: configFile,
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    CHECKPOINT_DISABLE: "1",
    ...options.env,
    ...Object.fromEntries(
      Object.entries(options.vars ?? {}).map(([name, value]) => [`TF_VAR_${name}`, value]),
    ),
  };

  const run = (cwd: string, ...args: string[]) =>
    new Promise<TerraformRun>((resolve, reject) => {
      const child = spawn("terraform", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.on("error", reject);
      // Colour codes are stripped here: -no-color has a different place in each subcommand's arguments.
      child.on("close", (code) =>
        resolve({
          args,
          code,
          stdout: stripVTControlCharacters(stdout),
          stderr: stripVTControlCharacters(stderr),
        }),
      );
    });

  return {
    root,
    env,
    async copy(from, name) {
      const to = join(root, name);
      // Terraform's working files of a local run must not come along.
      await cp(from, to, {
        recursive: true,
        filter: (path) => !/(^|\/)(\.terraform|\.terraform\.lock\.hcl|terraform\.tfstate.*)$/.test(path),
      });
      return to;
    },
    run,
    async ok(cwd, ...args) {
      const result = await run(cwd, ...args);
      if (result.code !== 0) throw new Error(described(result));
      return result;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
