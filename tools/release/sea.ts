/**
 * A single executable application: a copy of the repository's pinned Node 22 with a bundled program
 * injected (https://nodejs.org/api/single-executable-applications.html). The preparation blob is made by
 * that same Node, as it must be, with V8's code cache of the program (it starts without compiling its
 * top level) or a startup snapshot, and the files vigil reads at run time as assets (src/shipped.ts).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { chmod, copyFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The fuse Node looks for to know a blob was injected (the one its docs name for every version). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** The pinned Node (the `node` devDependency): the base of every binary, and the maker of their blobs. */
export function pinnedNode(root: string): string {
  const node = join(root, "node_modules/node/bin/node");
  if (!existsSync(node)) throw new Error(`the pinned Node is missing (${node}): run npm ci`);
  return realpathSync(node);
}

/** The pinned Node's version, as its package.json says (its binary is not run for it). */
export function nodeVersion(root: string): string {
  return (
    JSON.parse(readFileSync(join(root, "node_modules/node/package.json"), "utf8")) as { version: string }
  ).version;
}

/**
 * The base executable: the pinned Node without its symbol table and debug information (about 17 MB of its
 * 125), where the machine has `strip`; else the pinned Node as it is.
 */
export async function baseExecutable(root: string, to: string): Promise<{ stripped: boolean }> {
  await copyFile(pinnedNode(root), to);
  await chmod(to, 0o755);
  const stripped = await run("strip", [to]).then(
    () => true,
    () => false,
  );
  return { stripped };
}

export interface SeaOptions {
  root: string;
  /** The bundled program (CommonJS). */
  main: string;
  /** The base executable to copy. */
  base: string;
  /** The binary to write. */
  output: string;
  /** Asset name → file. */
  assets: Record<string, string>;
  /** Where the configuration and the blob are written. */
  workDir: string;
  /**
   * Start from a V8 startup snapshot the main script made when the blob was built (it loads modules and
   * calls `v8.startupSnapshot.setDeserializeMainFunction`), instead of running it with its code cache.
   */
  snapshot?: boolean;
}

export async function singleExecutable(options: SeaOptions): Promise<void> {
  const node = pinnedNode(options.root);
  const blob = `${options.output}.blob`;
  const config = join(options.workDir, `${options.output.split("/").at(-1)}.sea.json`);
  await writeFile(
    config,
    JSON.stringify({
      main: options.main,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: options.snapshot === true,
      useCodeCache: options.snapshot !== true,
      // node:sqlite (the embedded sandbox) announces itself as experimental; a binary's output is the program's.
      execArgv: ["--disable-warning=ExperimentalWarning"],
      // The user's NODE_OPTIONS are for their Node, not for a program that happens to be built on one.
      execArgvExtension: "none",
      assets: options.assets,
    }),
  );
  // A snapshot keeps the options of the Node that made it: the same warning switch as execArgv's.
  await run(node, ["--disable-warning=ExperimentalWarning", "--experimental-sea-config", config], {
    cwd: options.workDir,
  });
  await copyFile(options.base, options.output);
  // postject's LIEF warns about the ELF notes of Node's binary on stderr; only a failure is worth showing.
  await run(
    node,
    [
      join(options.root, "node_modules/postject/dist/cli.js"),
      options.output,
      "NODE_SEA_BLOB",
      blob,
      "--sentinel-fuse",
      SEA_FUSE,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stderr?: string; message: string }) => {
    throw new Error(`postject failed on ${options.output}: ${error.stderr || error.message}`);
  });
  await chmod(options.output, 0o755);
}
