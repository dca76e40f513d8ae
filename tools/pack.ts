/**
 * `npm run pack`: the npm package as it is published, `dist/vigil-<version>.tgz`. Node refuses to strip
 * types from files under node_modules, so a package of .ts sources cannot be imported once installed: the
 * package holds src compiled to JavaScript with declarations (tsconfig.build.json), in the same folders as
 * the checkout, so paths read relative to a module (package.json, schemas/, the protocol descriptor) hold
 * in both. Its package.json is this one with the entry points renamed to the compiled files, and without
 * what only developing vigil needs (scripts, devDependencies).
 */
import { execFile } from "node:child_process";
import { chmod, cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const repositoryRoot = resolve(import.meta.dirname, "..");

/** What the package carries beside the compiled sources. */
const copied = ["README.md", "provider.json", "schemas", "docs"];

/**
 * Pulumi runs a provider from a folder holding an executable named `pulumi-resource-<name>`
 * (`plugins.providers[].path` in Pulumi.yaml): the package's `bin/` is that folder.
 */
const pulumiProvider = "bin/pulumi-resource-vigil";

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
 * The published package.json: entry points compiled, development-only fields left out. The checkout's is
 * `private`, so that npm refuses to publish the .ts sources themselves; the package made here is the one to
 * publish.
 */
export function publishedManifest(source: Manifest): Manifest {
  const { scripts: _scripts, devDependencies: _dev, private: _private, ...manifest } = source;
  const bin: Record<string, string> = {};
  for (const [name, path] of Object.entries(source.bin ?? {})) bin[name] = compiled(path);
  bin["pulumi-resource-vigil"] = pulumiProvider;
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
  await mkdir(join(out, "bin"), { recursive: true });
  const providerMain = source.bin?.["pulumi-resource-vigil"];
  if (!providerMain) throw new Error("package.json names no pulumi-resource-vigil entry point");
  await writeFile(join(out, pulumiProvider), `#!/usr/bin/env node\nimport ".${compiled(providerMain)}";\n`);
  await chmod(join(out, pulumiProvider), 0o755);
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", join(root, "dist"), out], {
    cwd: root,
  });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return join(root, "dist", filename);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  console.log(await pack());
}
