/**
 * A saved plan remembers the configuration it was made from, so `apply --plan
 * FILE` reads the same files from anywhere: the directory the plan was made in
 * (relative to the plan file, so a checkout moved whole still works), the
 * paths given to plan, and each file's digest. A file changed, added or
 * removed since makes the plan stale, named.
 *
 * Those paths come from a file anyone who can write it can edit, so they must
 * stay inside the repository the plan belongs to (`repositoryOf`): a path
 * that leaves it is refused before anything is read.
 */
import { createHmac } from "node:crypto";
import { lstat, readFile, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { type PlanSources, TamperedPlanError } from "../engine/index.ts";
import type { LoadedConfig } from "../gitops/load.ts";
import { quote } from "../gitops/source.ts";
import { CliError } from "./errors.ts";

/** POSIX separators in the file, whatever the system: a plan made on one machine reads on another. */
const portable = (path: string) => (sep === "/" ? path : path.split(sep).join("/"));

async function digestOf(file: string, lineage: string): Promise<string> {
  // Keyed by the lineage, as the config digest is: a low-entropy credential in a file cannot be guessed from it.
  return `sha256:${createHmac("sha256", lineage)
    .update(await readFile(file))
    .digest("hex")}`;
}

/** `config.files` are shown names (relative to the working directory when inside it): the files' absolute paths. */
const absoluteFiles = (config: LoadedConfig) => config.files.map((f) => resolve(f));

/** Whether `path` is `root` or lies under it, by their names. */
function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Where `path` really is (links resolved), or undefined when it does not exist (the loader says so). */
async function physical(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

/** The repository a plan file belongs to, and how to say which it is. */
export interface Repository {
  dir: string;
  /** A Git work tree; otherwise the plan file's own directory. */
  git: boolean;
  /** `the Git work tree holding …` or, outside Git, `the directory holding …`. */
  described: string;
}

/**
 * The repository a plan file belongs to: the nearest directory, from the plan file's own upwards, that
 * holds `.git` (a Git work tree, a worktree or a submodule); outside Git, the plan file's own directory.
 * With links resolved, so a path is judged by where it really is. The plan file's directory must exist.
 */
export async function repositoryOf(planFile: string): Promise<Repository> {
  const own = await realpath(dirname(resolve(planFile)));
  for (let dir = own; ; dir = dirname(dir)) {
    if (
      await lstat(join(dir, ".git")).then(
        () => true,
        () => false,
      )
    )
      return { dir, git: true, described: `${dir}: the Git work tree holding ${planFile}` };
    if (dirname(dir) === dir)
      return { dir: own, git: false, described: `${own}: outside Git, the directory holding ${planFile}` };
  }
}

/** Whether `path` leaves `repository`: by its name, or by where the links on its way lead. */
async function outside(repository: Repository, path: string): Promise<boolean> {
  if (!within(repository.dir, path)) return true;
  const real = await physical(path);
  return real !== undefined && !within(repository.dir, real);
}

/**
 * Before a plan to `planFile` reads the account: the directory it is made in and the paths it reads must
 * be inside the plan file's repository, or `apply --plan` could not tell them from a path slipped into
 * the file. Returns the repository, for the check of the files read.
 */
export async function checkPlanRepository(planFile: string, paths: readonly string[]): Promise<Repository> {
  const repository = await repositoryOf(planFile);
  const cwd = await realpath(process.cwd());
  const refuse = (what: string) =>
    new CliError(
      `--out ${planFile}: a saved plan must be inside the repository it is made for (${repository.described}), and ${what} is not. ${repository.git ? "Save the plan inside the Git work tree of the configuration" : "Outside Git, save the plan in the directory vigil plan runs in"}.`,
    );
  if (!within(repository.dir, cwd)) throw refuse(`the directory vigil plan runs in (${cwd})`);
  for (const path of paths)
    if (await outside(repository, resolve(cwd, path))) throw refuse(`the path ${path}`);
  return repository;
}

/** After the plan read its files: each must be inside the repository too (a link may lead out of it). */
export async function checkPlanFiles(
  planFile: string,
  repository: Repository,
  config: LoadedConfig,
): Promise<void> {
  for (const file of absoluteFiles(config))
    if (await outside(repository, file))
      throw new CliError(
        `--out ${planFile}: the configuration file ${file} is outside the repository the plan is made for (${repository.described}); the plan was not saved.`,
      );
}

/** What a plan saved to `planFile` records, the plan being made in the current directory. */
export async function recordSources(
  config: LoadedConfig,
  paths: readonly string[],
  planFile: string,
  lineage: string,
): Promise<PlanSources> {
  const cwd = process.cwd();
  const files = await Promise.all(
    absoluteFiles(config).map(async (file) => ({
      path: portable(relative(cwd, file)),
      digest: await digestOf(file, lineage),
    })),
  );
  // From where the plan file and this directory really are, as apply --plan resolves it.
  const dir = relative(await realpath(dirname(resolve(planFile))), await realpath(cwd));
  return {
    dir: portable(dir) || ".",
    paths: (paths.length > 0 ? paths : ["."]).map(portable),
    files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
}

/**
 * The directory a saved plan was made in, once every path the plan names is known to stay inside the
 * plan file's repository: `dir`, each of `paths` and each file of `files`. Anything else is refused as
 * tampered, before any of them is read.
 */
export async function confinedSourcesDir(sources: PlanSources, planFile: string): Promise<string> {
  const repository = await repositoryOf(planFile);
  const named = (member: string, value: string) => `${member} ${quote(value, 200)}`;
  const problem = (what: string) =>
    new TamperedPlanError([
      `${what} leads outside the repository the plan belongs to (${repository.described}); it was not read`,
    ]);
  const all = [sources.dir, ...sources.paths, ...sources.files.map((f) => f.path)];
  if (all.some((p) => p.includes("\0")))
    throw new TamperedPlanError(["a path of its config holds a NUL character"]);
  const base = await realpath(dirname(resolve(planFile)));
  const dir = resolve(base, sources.dir);
  if (await outside(repository, dir)) throw problem(named("config.dir", sources.dir));
  for (const [i, path] of sources.paths.entries())
    if (await outside(repository, resolve(dir, path))) throw problem(named(`config.paths[${i}]`, path));
  // Never read, only compared with what the loader finds: their names alone must stay inside.
  for (const [i, file] of sources.files.entries())
    if (!within(repository.dir, resolve(dir, file.path)))
      throw problem(named(`config.files[${i}].path`, file.path));
  return dir;
}

/**
 * What differs between the recorded files and the configuration read now (from `sourcesDir`, the
 * working directory): one line per file changed, added or removed; empty when they are the same.
 */
export async function sourceChanges(
  sources: PlanSources,
  config: LoadedConfig,
  lineage: string,
): Promise<string[]> {
  const cwd = process.cwd();
  const recorded = new Map(sources.files.map((f) => [f.path, f.digest]));
  const now = new Map(absoluteFiles(config).map((file) => [portable(relative(cwd, file)), file]));
  const changes: string[] = [];
  for (const [path, file] of now) {
    const digest = recorded.get(path);
    if (digest === undefined) changes.push(`${path}: a configuration file that is new since the plan`);
    else if (digest !== (await digestOf(file, lineage))) changes.push(`${path}: changed since the plan`);
  }
  for (const path of recorded.keys())
    if (!now.has(path)) changes.push(`${path}: removed since the plan (or no longer under its paths)`);
  return changes;
}
