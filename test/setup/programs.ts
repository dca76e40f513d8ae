/**
 * The programs the tests start as processes (`vigil`, terraform-provider-vigil, pulumi-resource-vigil), as
 * the npm package ships them: bundles run by their launchers (tools/pack.ts's `writePrograms`), beside a
 * package.json and the files they read relative to their module, at the package's places. Built once per
 * state of the sources, before the run (vitest's globalSetup), into node_modules/.cache/vigil-test/<key>:
 * the key hashes what a release hashes (src, schemas, tools/release, tools/pack.ts, package.json, the lock
 * file, the pinned Node) and this file, so an edit builds again and an unchanged tree starts at once.
 *
 * Why not the sources: a `vigil` run from its .ts files spends most of a second stripping types, and the
 * suite starts thousands of processes; the bundle starts in a fifth of that. The test helpers find the
 * folder in VIGIL_TEST_PROGRAMS (test/helpers/programs.ts); `VIGIL_TEST_PROGRAMS=source npx vitest run …`
 * runs the sources instead, to debug a program in place.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SHIPPED_FILES } from "../../src/shipped.ts";
import { publishedManifest, writePrograms } from "../../tools/pack.ts";
import { sourceHash } from "../../tools/release/build.ts";
import { withLock } from "../../tools/release/lock.ts";

export const PROGRAMS_ENV = "VIGIL_TEST_PROGRAMS";
/** The value of PROGRAMS_ENV that runs the programs from their sources. */
export const FROM_SOURCE = "source";

const repositoryRoot = resolve(import.meta.dirname, "../..");
/** A build not used for this long is removed when another is made. */
const UNUSED_MS = 24 * 60 * 60_000;

/** The folder of the programs built from `root`'s sources as they are now. */
export function programsFolder(root = repositoryRoot): string {
  const key = createHash("sha256")
    .update(sourceHash(root))
    .update(readFileSync(import.meta.filename))
    .digest("hex")
    .slice(0, 20);
  return join(root, "node_modules/.cache/vigil-test", key);
}

/**
 * Builds the programs into `programsFolder(root)` unless they are there; answers the folder and whether
 * this call built it. Parallel runs (other worktrees sharing node_modules) take turns under a lock; a build
 * is written beside its folder and renamed into place, so a folder that exists is complete.
 */
export async function buildPrograms(root = repositoryRoot): Promise<{ dir: string; built: boolean }> {
  const dir = programsFolder(root);
  const cache = join(dir, "..");
  if (existsSync(dir)) {
    const now = new Date();
    await utimes(dir, now, now);
    return { dir, built: false };
  }
  await mkdir(cache, { recursive: true });
  return withLock(join(cache, "build.lock"), async () => {
    if (existsSync(dir)) return { dir, built: false };
    const work = `${dir}.build`;
    await rm(work, { recursive: true, force: true });
    const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
    await writePrograms(root, manifest.bin, work);
    await writeFile(join(work, "package.json"), `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
    for (const file of SHIPPED_FILES.filter((file) => file !== "package.json"))
      await cp(join(root, file), join(work, file));
    await rename(work, dir);
    await removeUnused(cache, dir);
    return { dir, built: true };
  });
}

/**
 * Older builds nobody used for a day, with the code caches their CLI's launcher kept in the temp folder
 * (tools/release/launcher.ts names them by the bundle's size and time): a build is a few megabytes, its
 * caches some more, one of each per edit of the sources.
 */
export async function removeUnused(
  cache: string,
  keep: string,
  codeCaches = join(tmpdir(), "vigil-code-cache"),
): Promise<void> {
  const cached = existsSync(codeCaches) ? await readdir(codeCaches) : [];
  for (const entry of await readdir(cache, { withFileTypes: true })) {
    const path = join(cache, entry.name);
    if (!entry.isDirectory() || path === keep || entry.name.endsWith(".lock")) continue;
    if (Date.now() - (await stat(path)).mtimeMs <= UNUSED_MS) continue;
    const bundle = await stat(join(path, "bin/vigil.bundle.cjs")).catch(() => undefined);
    const mark = bundle && `-${bundle.size}-${Math.trunc(bundle.mtimeMs)}-`;
    for (const file of cached.filter((file) => mark && file.includes(mark)))
      await rm(join(codeCaches, file), { force: true });
    await rm(path, { recursive: true, force: true });
  }
}

/** vitest's globalSetup: the programs built before any test file starts; the workers inherit the variable. */
export default async function setup(): Promise<void> {
  if (process.env[PROGRAMS_ENV] === FROM_SOURCE) return;
  const started = performance.now();
  const { dir, built } = await buildPrograms();
  process.env[PROGRAMS_ENV] = dir;
  if (built)
    console.info(`built the programs in ${((performance.now() - started) / 1000).toFixed(1)} s: ${dir}`);
}
