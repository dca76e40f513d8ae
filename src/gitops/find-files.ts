/**
 * Finding the YAML files of a GitOps repo: which files a configuration is
 * made of, each once, in a stable order, and never one outside the paths
 * given (docs/gitops.md, "Symbolic links").
 *
 * The files come from pull requests, and a link is a file like any other: a
 * `contacts.yaml -> /etc/passwd` or a `shared -> /` committed to a repository
 * would otherwise have vigil read the CI runner's files and quote them in its
 * errors (the class of Argo CD's CVE-2022-24348). So every file and directory
 * is judged by where it really is (its real path, links resolved) before it
 * is read or walked; a link that leads out is a problem naming the link, and
 * nothing behind it is opened. Resolving a link reads no content: only the
 * file system's names and metadata.
 */
import type { Stats } from "node:fs";
import { lstat, readdir, readlink, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { limits, quote } from "./source.ts";

const yamlFile = /\.ya?ml$/i;
/** Scenario files of `vigil test`: they live beside the configuration, and are never part of it. */
export const testFile = /\.test\.ya?ml$/i;

export interface FindOptions {
  /** `config` (the default): the configuration's files, test files left out; `tests`: the test files only. */
  select?: "config" | "tests";
  /** Real paths of files to leave out (test files `vigil test --tests` found elsewhere). */
  skip?: ReadonlySet<string>;
}

/** Which file was found: a file read later must still be this one (a link swapped meanwhile is refused). */
export interface FileIdentity {
  dev: number;
  ino: number;
}

export interface FoundFiles {
  /** As-given paths, each file once (two links to one file are read once), with their sizes. */
  files: { path: string; size: number; identity: FileIdentity }[];
  problems: string[];
}

/** Where the given paths really are: the directories whose trees may be read, and the files given by name. */
interface Roots {
  dirs: string[];
  files: Set<string>;
}

/** Whether `path` is `dir` or inside it; both are real, absolute paths. */
function isWithin(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}

const insideRoots = (roots: Roots, real: string, isFile: boolean) =>
  roots.dirs.some((dir) => isWithin(dir, real)) || (isFile && roots.files.has(real));

/** Why a link cannot be resolved, in words. */
const unresolved = (code: string | undefined) =>
  code === "ELOOP"
    ? "a symbolic link loop"
    : code === "ENOENT" || code === "ENOTDIR"
      ? "a symbolic link to nothing"
      : `a symbolic link that cannot be resolved (${code})`;

/** A link's own text, as written in the repository (never what it leads to), quoted for a message. */
const linkText = (link: string) => readlink(link).then(quote, () => '"?"');

/**
 * Every `*.yaml`/`*.yml` under the given paths (files given by name are taken
 * whatever their extension), in a stable order. Hidden directories (`.github`,
 * `.vigil`) and `node_modules` are skipped.
 *
 * Symbolic links are followed, to files and to directories, as long as they
 * lead to somewhere inside the given paths; a link that leads out of them
 * is a problem, and so is a given path inside the working directory that a
 * link takes out of it (`vigil plan monitors` where the repository made
 * `monitors` a link to `/etc`) and into no other path given. A given path
 * outside the working directory is the user's own choice and is taken as
 * named. A link back into a
 * directory already walked is skipped (a loop cannot make the walk
 * endless); a `*.yaml` link loop, or link to nothing or to something other
 * than a file or directory, is a problem.
 */
export async function findConfigFiles(
  paths: readonly string[],
  options: FindOptions = {},
): Promise<FoundFiles> {
  const wanted = (real: string) =>
    !options.skip?.has(real) && testFile.test(real) === (options.select === "tests");
  const cwd = process.cwd();
  const files: FoundFiles["files"] = [];
  const problems: string[] = [];
  const shownPaths = paths.join(", ");
  /** Real paths of the files taken and of the directories walked. */
  const seenFiles = new Set<string>();
  const seenDirs = new Set<string>();
  let tooMany = false;

  const given = await resolveGiven(paths, cwd);
  problems.push(...given.problems);
  const { roots } = given;

  const take = (path: string, real: string, info: { size: number; dev: number; ino: number }) => {
    if (seenFiles.has(real) || !wanted(real)) return;
    seenFiles.add(real);
    if (files.length === limits.files) {
      if (!tooMany)
        problems.push(
          `${displayName(path, cwd)}: the configuration has more than ${limits.files.toLocaleString("en")} files, the most vigil reads`,
        );
      tooMany = true;
      return;
    }
    files.push({ path, size: info.size, identity: { dev: info.dev, ino: info.ino } });
  };
  const leadsOut = async (link: string) =>
    problems.push(
      `${displayName(link, cwd)}: a symbolic link out of the paths given (${shownPaths}), to ${await linkText(link)}; vigil does not follow links that leave them`,
    );

  async function walk(dir: string, real: string): Promise<void> {
    if (seenDirs.has(real) || tooMany) return;
    if (seenDirs.size === limits.directories) {
      problems.push(
        `${displayName(dir, cwd)}: the configuration spans more than ${limits.directories.toLocaleString("en")} directories, the most vigil walks`,
      );
      tooMany = true;
      return;
    }
    seenDirs.add(real);
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      problems.push(
        `${displayName(dir, cwd)}: the directory cannot be read (${error.code ?? error.message})`,
      );
      return [];
    });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const full = join(dir, entry.name);
      const isYaml = yamlFile.test(entry.name);
      if (entry.isDirectory()) await walk(full, join(real, entry.name));
      else if (entry.isFile()) {
        if (isYaml) take(full, join(real, entry.name), await lstat(full));
      } else if (entry.isSymbolicLink()) {
        const target = await realpath(full).catch((error: NodeJS.ErrnoException) => error);
        if (target instanceof Error) {
          // A link that leads nowhere is only a problem where a file was meant.
          if (isYaml) problems.push(`${displayName(full, cwd)}: ${unresolved(target.code)}`);
          continue;
        }
        const info = await stat(target).catch(() => undefined);
        if (info?.isDirectory()) {
          if (insideRoots(roots, target, false)) await walk(full, target);
          else await leadsOut(full);
        } else if (!isYaml) continue;
        else if (!info?.isFile())
          problems.push(`${displayName(full, cwd)}: a symbolic link to something that is not a file`);
        else if (!insideRoots(roots, target, true)) await leadsOut(full);
        else take(full, target, info);
      }
    }
  }

  for (const root of given.accepted) {
    if (root.info.isDirectory()) await walk(root.path, root.real);
    else if (!root.info.isFile()) problems.push(`${root.path}: not a file or a directory`);
    else take(root.path, root.real, root.info);
  }
  // Too many files or directories: none is read.
  return { files: tooMany ? [] : files, problems };
}

/**
 * The given paths, each with its real path, and the roots they make. A given
 * path inside the working directory must stay inside it once its links are
 * resolved (a repository decides what its own names are), or lead into
 * another path given.
 */
async function resolveGiven(paths: readonly string[], cwd: string) {
  const realCwd = await realpath(cwd).catch(() => cwd);
  const problems: string[] = [];
  const found: { path: string; real: string; info: Stats; leaves: boolean }[] = [];
  for (const path of paths) {
    const failed = (error: NodeJS.ErrnoException) => error;
    const info = await stat(resolve(cwd, path)).catch(failed);
    // A path removed between the two calls is as missing.
    const real = info instanceof Error ? info : await realpath(resolve(cwd, path)).catch(failed);
    if (info instanceof Error || real instanceof Error) {
      const { code } = info instanceof Error ? info : (real as NodeJS.ErrnoException);
      problems.push(`${path}: ${code === "ELOOP" ? "a symbolic link loop" : "no such file or directory"}`);
      continue;
    }
    const fromCwd = relative(cwd, resolve(cwd, path));
    const inCwd = fromCwd === "" || (!fromCwd.startsWith("..") && !isAbsolute(fromCwd));
    found.push({ path, real, info, leaves: inCwd && !isWithin(realCwd, real) });
  }
  const rootsOf = (list: typeof found): Roots => ({
    dirs: list.filter((f) => f.info.isDirectory()).map((f) => f.real),
    files: new Set(list.filter((f) => !f.info.isDirectory()).map((f) => f.real)),
  });
  const trusted = rootsOf(found.filter((f) => !f.leaves));
  const accepted: typeof found = [];
  for (const given of found) {
    if (!given.leaves || insideRoots(trusted, given.real, !given.info.isDirectory())) {
      accepted.push(given);
      continue;
    }
    const link = await linkOut(cwd, relative(cwd, resolve(cwd, given.path)), realCwd);
    const to = link ? `, to ${await linkText(resolve(cwd, link))}` : "";
    problems.push(
      `${link ?? given.path}: a symbolic link out of the working directory${to}; vigil does not follow it (to read what it leads to, give that path itself)`,
    );
  }
  return { roots: rootsOf(accepted), problems, accepted };
}

/** The first link on the way from the working directory to `fromCwd` that leads out of it. */
async function linkOut(cwd: string, fromCwd: string, realCwd: string): Promise<string | undefined> {
  let prefix = "";
  for (const step of fromCwd.split(sep)) {
    prefix = prefix ? join(prefix, step) : step;
    const info = await lstat(resolve(cwd, prefix)).catch(() => undefined);
    if (!info?.isSymbolicLink()) continue;
    const real = await realpath(resolve(cwd, prefix)).catch(() => undefined);
    if (!real || !isWithin(realCwd, real)) return prefix;
  }
  return undefined;
}

/** The file name as shown in messages: relative to the working directory when inside it. */
export function displayName(file: string, cwd = process.cwd()): string {
  const rel = relative(cwd, file);
  return rel.startsWith("..") ? file : rel;
}
