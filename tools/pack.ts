/**
 * `npm run pack`: the npm package as it is published, `dist/vigil-<version>.tgz`. Node refuses to strip
 * types from files under node_modules, so a package of .ts sources cannot be imported once installed: the
 * package holds src compiled to JavaScript with declarations (tsconfig.build.json), in the same folders as
 * the checkout, so paths read relative to a module (package.json, schemas/, the protocol descriptor) hold
 * in both. Its package.json is this one with the entry points renamed to the compiled files, and without
 * what only developing vigil needs (scripts, devDependencies).
 *
 * The programs (`vigil`, `terraform-provider-vigil`, `pulumi-resource-vigil`) run from `bin/`: each is a
 * bundle of the program and its dependencies (tools/release/bundle.ts), run by a launcher that checks the
 * Node version first and keeps the compiled code between runs (tools/release/launcher.ts). A few files
 * instead of hundreds, compiled once per machine: the start-up `npm run bench:startup` measures.
 */
import { execFile } from "node:child_process";
import { chmod, cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { bundlePrograms } from "./release/bundle.ts";
import { cachedLauncherScript, moduleLauncherScript } from "./release/launcher.ts";
import { thirdPartyNotices } from "./release/notices.ts";

const run = promisify(execFile);

export const repositoryRoot = resolve(import.meta.dirname, "..");

/** What the package carries beside the compiled sources. */
const copied = ["README.md", "provider.json", "schemas", "docs"];

/**
 * The CLI runs from one CommonJS bundle with a code cache per command; the providers from ES module chunks
 * with Node's compile cache (tools/release/launcher.ts says why).
 */
const CACHED = "vigil";

/**
 * Where the programs' launchers are: `bin/<name>` (the CLI's `bin/vigil.cjs`, CommonJS in an ES module
 * package). Pulumi runs a provider from a folder holding an executable named `pulumi-resource-<name>`
 * (`plugins.providers[].path` in Pulumi.yaml): `bin/` is that folder.
 */
export const programPath = (name: string) => (name === CACHED ? `bin/${name}.cjs` : `bin/${name}`);

interface Manifest {
  name: string;
  version: string;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  private?: boolean;
  scripts?: unknown;
  devDependencies?: unknown;
  [key: string]: unknown;
}

const compiled = (path: string) => `./${path.replace(/^\.\//, "").replace(/\.ts$/, ".js")}`;
const declarations = (path: string) => `./${path.replace(/^\.\//, "").replace(/\.ts$/, ".d.ts")}`;

/**
 * The published package.json: entry points compiled, development-only fields left out (`allowScripts`
 * decides about the devDependencies' install scripts, and npm reads it only in the root project). The
 * checkout's is `private`, so that npm refuses to publish the .ts sources themselves; the package made here is the one to
 * publish.
 */
export function publishedManifest(source: Manifest): Manifest {
  const {
    scripts: _scripts,
    devDependencies: _dev,
    allowScripts: _allowScripts,
    private: _private,
    ...manifest
  } = source;
  const bin: Record<string, string> = {};
  for (const name of Object.keys(source.bin ?? {})) bin[name] = programPath(name);
  const exports: Record<string, unknown> = {};
  for (const [subpath, target] of Object.entries(source.exports ?? {})) {
    if (subpath === "./src/*") continue;
    exports[subpath] =
      typeof target === "string" && target.endsWith(".ts")
        ? { types: declarations(target), default: compiled(target) }
        : target;
  }
  return { ...manifest, bin, exports };
}

/**
 * The programs of `bin` (name → entry module) as the package runs them: bundles and launchers in
 * `<out>/bin`, at `programPath`. Answers every file the bundles hold, relative to `root`. The tests run
 * these too (test/setup/programs.ts).
 */
export async function writePrograms(
  root: string,
  bin: Record<string, string>,
  out: string,
): Promise<string[]> {
  await mkdir(join(out, "bin"), { recursive: true });
  const { [CACHED]: cli, ...providers } = bin;
  const inputs = [
    ...(cli ? (await bundlePrograms(root, { [CACHED]: cli }, join(out, "bin"), "npm-cjs")).inputs : []),
    ...(await bundlePrograms(root, providers, join(out, "bin"), "esm")).inputs,
  ];
  for (const name of Object.keys(bin)) {
    const script = name === CACHED ? cachedLauncherScript(name) : moduleLauncherScript(name);
    await writeFile(join(out, programPath(name)), script);
    await chmod(join(out, programPath(name)), 0o755);
  }
  return [...new Set(inputs)];
}

export async function pack(root = repositoryRoot): Promise<string> {
  const out = join(root, "dist/package");
  await rm(out, { recursive: true, force: true });
  await run(join(root, "node_modules/.bin/tsc"), ["-p", join(root, "tsconfig.build.json")], { cwd: root });
  // Files the sources read at run time besides modules (the Terraform protocol's descriptor).
  await cp(join(root, "src"), join(out, "src"), {
    recursive: true,
    filter: (from) => !from.endsWith(".ts") || from.endsWith(".d.ts"),
  });
  for (const path of copied) await cp(join(root, path), join(out, path), { recursive: true });
  const source = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as Manifest;
  await writeFile(join(out, "package.json"), `${JSON.stringify(publishedManifest(source), null, 2)}\n`);
  const inputs = await writePrograms(root, source.bin ?? {}, out);
  await writeFile(join(out, "THIRD-PARTY-NOTICES.txt"), thirdPartyNotices(root, inputs));
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", join(root, "dist"), out], {
    cwd: root,
  });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return join(root, "dist", filename);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  console.log(await pack());
}
