/**
 * A saved plan remembers the configuration it was made from, so `apply --plan
 * FILE` reads the same files from anywhere: the directory the plan was made in
 * (relative to the plan file, so a checkout moved whole still works), the
 * paths given to plan, and each file's digest. A file changed, added or
 * removed since makes the plan stale, named.
 */
import { createHmac } from "node:crypto";
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { PlanSources } from "../engine/index.ts";
import type { LoadedConfig } from "../gitops/load.ts";

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
  return {
    dir: portable(relative(dirname(resolve(planFile)), cwd)) || ".",
    paths: (paths.length > 0 ? paths : ["."]).map(portable),
    files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
}

/** The directory the plan was made in, on this machine. */
export function sourcesDir(sources: PlanSources, planFile: string): string {
  return isAbsolute(sources.dir) ? sources.dir : resolve(dirname(resolve(planFile)), sources.dir);
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
