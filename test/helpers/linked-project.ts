/**
 * A written program's folder made runnable without `npm install`: its node_modules links `vigil` to this
 * repository (so `vigil/pulumi` and `vigil/cdktf` resolve through the package's exports, as an installed
 * package's do) and each other package to the repository's own copy. Node follows the links to their real
 * paths, so the program and the SDK share one copy of each dependency.
 */
import { mkdir, symlink } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

export const repositoryRoot = resolve(import.meta.dirname, "../..");

/** The repository's pinned Node 22 and tsc. */
export const nodeBin = join(repositoryRoot, "node_modules/.bin/node");
export const tscBin = join(repositoryRoot, "node_modules/.bin/tsc");

export async function linkPackages(dir: string, packages: readonly string[]): Promise<void> {
  const modules = join(dir, "node_modules");
  await link(repositoryRoot, join(modules, "vigil"));
  for (const name of packages) await link(join(repositoryRoot, "node_modules", name), join(modules, name));
}

async function link(target: string, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await symlink(target, path, "dir");
}
